"""The adapted transformer's frozen weights: read from the encoder folder as plain tensors whatever the environment
says, and a damaged folder is one line naming it and the command that rebuilds it."""

import os
import pickle

import pytest
from transformers import AutoConfig, AutoModel

from srl_zoo.archive_files import ArchiveError
from srl_zoo.parts.embedders import adapted_transformer
from srl_zoo.parts.embedders.adapted_transformer import freeze_and_adapt
from tests.tiny_bert import SPLITTING_PIECES, write_tiny_bert


class _Payload:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return exec, (f"open({self.marker!r}, 'w').write('ran')",)


@pytest.fixture
def tiny_encoder(tmp_path, monkeypatch) -> str:
    (tmp_path / "tiny").mkdir()
    directory = write_tiny_bert(str(tmp_path / "tiny"), SPLITTING_PIECES, hidden=8, layers=2)
    monkeypatch.setitem(adapted_transformer.FROZEN_ENCODERS, "tiny", lambda: directory)
    return directory


def adapt(directory: str) -> list[str]:
    transformer = AutoModel.from_config(AutoConfig.from_pretrained(directory))
    return freeze_and_adapt(transformer, "tiny", "float32", (2, 4.0, 0.0), "encoder.layer")


def test_the_frozen_weights_are_those_of_the_folder(tiny_encoder):
    frozen = adapt(tiny_encoder)
    assert "embeddings.word_embeddings.weight" in frozen


def test_a_pickled_weights_file_never_runs_even_with_the_variable_set(tiny_encoder, tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    marker = str(tmp_path / "payload_ran")
    with open(os.path.join(tiny_encoder, "pytorch_model.bin"), "wb") as handle:
        pickle.dump(_Payload(marker), handle)
    with pytest.raises(ArchiveError) as refused:
        adapt(tiny_encoder)
    assert str(refused.value).startswith(f"{tiny_encoder}: a damaged encoder folder (")
    assert str(refused.value).endswith("`srl-zoo fetch tiny` rebuilds it") and "\n" not in str(refused.value)
    assert not os.path.exists(marker)


def test_truncated_weights_name_the_folder_and_the_command(tiny_encoder):
    path = os.path.join(tiny_encoder, "pytorch_model.bin")
    with open(path, "rb") as handle:
        data = handle.read()
    with open(path, "wb") as handle:
        handle.write(data[: len(data) // 2])
    with pytest.raises(ArchiveError, match="a damaged encoder folder .*`srl-zoo fetch tiny` rebuilds it"):
        adapt(tiny_encoder)
