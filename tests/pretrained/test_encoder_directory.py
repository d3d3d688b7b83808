"""An encoder folder that cannot be written (a full disk, no permission) is one line naming it and the command
that builds it, with nothing half-written left beside it."""

import errno
import os

import pytest
import torch

from srl_zoo.pretrained import encoder_directory
from srl_zoo.pretrained.encoder_directory import EncoderBuildError, write_encoder_directory

FILES = {"config.json": b"{}", "tokenizer.json": b"{}"}
STATE = {"weight": torch.zeros(2, 2)}


def test_a_full_disk_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    def full_disk(*arguments, **settings):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(encoder_directory.torch, "save", full_disk)
    output = str(tmp_path / "mpnet")
    with pytest.raises(EncoderBuildError) as refused:
        write_encoder_directory(FILES, STATE, {}, output, "srl-zoo fetch mpnet")
    assert str(refused.value) == (
        f"{output}: cannot write the encoder folder (No space left on device); free space or choose a writable "
        "folder (--output), then run `srl-zoo fetch mpnet` again"
    )
    assert os.listdir(tmp_path) == []


def test_an_existing_folder_survives_a_failed_rebuild(tmp_path, monkeypatch):
    output = str(tmp_path / "mpnet")
    write_encoder_directory(FILES, STATE, {}, output, "srl-zoo fetch mpnet")
    monkeypatch.setattr(encoder_directory.torch, "save", lambda *a, **k: (_ for _ in ()).throw(OSError(28, "full")))
    with pytest.raises(EncoderBuildError):
        write_encoder_directory(FILES, STATE, {}, output, "srl-zoo fetch mpnet")
    assert sorted(os.listdir(tmp_path)) == ["mpnet"] and os.path.isfile(os.path.join(output, "pytorch_model.bin"))
