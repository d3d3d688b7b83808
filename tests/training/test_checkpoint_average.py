"""Checkpoint averaging: the mean of kept epochs' weights, written into a copy of the run's archive."""

import io
import os
import tarfile

import pytest
import torch

from srl_zoo.training.checkpoint_average import averaged_weights, epoch_states, main, write_with_weights


def _save(path: str, state: dict[str, torch.Tensor]) -> str:
    torch.save(state, path)
    return path


def _archive(path: str, members: dict[str, bytes]) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def _weights_of(archive: str) -> dict[str, torch.Tensor]:
    with tarfile.open(archive) as tar:
        member = tar.extractfile("weights.th")
        assert member is not None
        return torch.load(io.BytesIO(member.read()), weights_only=True)


def test_the_mean_of_each_float_tensor_and_the_rest_kept(tmp_path):
    generator = torch.Generator().manual_seed(0)
    states = [
        {
            "w": torch.randn(3, 4, generator=generator),
            "h": torch.randn(5, generator=generator).half(),
            "ids": torch.tensor([1, 2, 3]),
        }
        for _ in range(3)
    ]
    paths = [_save(str(tmp_path / f"s{i}.th"), state) for i, state in enumerate(states)]
    averaged = averaged_weights(paths)
    expected_w = (states[0]["w"] + states[1]["w"] + states[2]["w"]) / 3
    assert torch.allclose(averaged["w"], expected_w, atol=1e-6)
    expected_h = sum(state["h"].float() for state in states) / 3
    assert averaged["h"].dtype == torch.float16
    assert torch.allclose(averaged["h"].float(), expected_h, atol=1e-3)
    assert torch.equal(averaged["ids"], torch.tensor([1, 2, 3]))
    assert torch.equal(averaged_weights(paths[:1])["w"], states[0]["w"])


def test_checkpoints_of_different_models_are_refused(tmp_path):
    first = _save(str(tmp_path / "a.th"), {"w": torch.zeros(2)})
    renamed = _save(str(tmp_path / "b.th"), {"v": torch.zeros(2)})
    reshaped = _save(str(tmp_path / "c.th"), {"w": torch.zeros(3)})
    with pytest.raises(ValueError, match="b.th: its weights differ .* by name: v, w"):
        averaged_weights([first, renamed])
    with pytest.raises(ValueError, match=r"c.th: w has shape \(3,\)"):
        averaged_weights([first, reshaped])
    ids = [_save(str(tmp_path / f"i{n}.th"), {"ids": torch.tensor([n])}) for n in range(2)]
    with pytest.raises(ValueError, match="i1.th: ids .* differs"):
        averaged_weights(ids)
    with pytest.raises(ValueError, match="no checkpoint"):
        averaged_weights([])
    (tmp_path / "garbage.th").write_bytes(b"not a state dict")
    with pytest.raises(ValueError, match="garbage.th: not a plain weights file"):
        averaged_weights([first, str(tmp_path / "garbage.th")])


def test_the_archive_keeps_every_other_member(tmp_path):
    archive = str(tmp_path / "model.tar.gz")
    _archive(archive, {"config.json": b"{}", "weights.th": b"old", "vocabulary/labels.txt": b"O\nB-V\n"})
    output = str(tmp_path / "averaged.tar.gz")
    write_with_weights(archive, {"w": torch.ones(2)}, output)
    with tarfile.open(output) as tar:
        assert sorted(tar.getnames()) == ["config.json", "vocabulary/labels.txt", "weights.th"]
        labels = tar.extractfile("vocabulary/labels.txt")
        assert labels is not None and labels.read() == b"O\nB-V\n"
    assert torch.equal(_weights_of(output)["w"], torch.ones(2))
    not_a_model = str(tmp_path / "other.tar.gz")
    _archive(not_a_model, {"config.json": b"{}"})
    with pytest.raises(ValueError, match="other.tar.gz: no weights.th"):
        write_with_weights(not_a_model, {}, str(tmp_path / "never.tar.gz"))
    assert not os.path.exists(tmp_path / "never.tar.gz")


def test_the_command_averages_the_epochs_asked_for(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    for epoch in (1, 2, 3):
        _save(str(run / f"model_state_e{epoch}_b0.th"), {"w": torch.full((2,), float(epoch))})
    _save(str(run / "model_state_e3_b40.th"), {"w": torch.full((2,), 99.0)})  # mid-epoch: not an epoch's end
    assert sorted(epoch_states(str(run))) == [1, 2, 3]
    with pytest.raises(SystemExit, match="model.tar.gz: no such archive"):
        main([str(run), "--epochs", "2", "3", "--output", str(tmp_path / "out.tar.gz")])
    _archive(str(tmp_path / "started_from.tar.gz"), {"config.json": b"{}", "weights.th": b"old"})
    main(
        [
            str(run),
            "--epochs",
            "1",
            "--output",
            str(tmp_path / "one.tar.gz"),
            "--archive",
            str(tmp_path / "started_from.tar.gz"),
        ]
    )
    assert torch.equal(_weights_of(str(tmp_path / "one.tar.gz"))["w"], torch.ones(2))
    _archive(str(run / "model.tar.gz"), {"config.json": b"{}", "weights.th": b"old"})
    main([str(run), "--epochs", "2", "3", "--output", str(tmp_path / "out.tar.gz")])
    assert torch.equal(_weights_of(str(tmp_path / "out.tar.gz"))["w"], torch.full((2,), 2.5))
    assert "the mean of epochs 2, 3" in capsys.readouterr().out
    with pytest.raises(SystemExit, match=r"no weights kept after epoch 4 \(kept: 1, 2, 3\)"):
        main([str(run), "--epochs", "3", "4", "--output", str(tmp_path / "out.tar.gz")])
