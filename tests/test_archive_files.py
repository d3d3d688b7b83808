"""Archives are extracted the same whichever way they are read: a gzipped one decompressed once in memory, or read
from the file (too large for memory, or not gzipped)."""

import hashlib
import io
import os
import tarfile
from pathlib import Path

import pytest

from srl_zoo import archive_files
from srl_zoo.archive_files import ArchiveError, extract_archive

MEMBERS = {"config.json": b'{"model": {}}', "vocabulary/labels.txt": b"O\nB-V\n", "weights.th": bytes(range(256)) * 40}


def archive(path, mode: str) -> str:
    with tarfile.open(path, mode) as tar:
        for name, data in MEMBERS.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return str(path)


def extracted(path: str, directory) -> dict[str, bytes]:
    extract_archive(path, str(directory))
    return {
        os.path.relpath(os.path.join(root, name), directory): Path(root, name).read_bytes()
        for root, _, names in os.walk(directory)
        for name in names
    }


@pytest.mark.parametrize("in_memory_bytes", [archive_files.IN_MEMORY_BYTES, 0], ids=["in memory", "from the file"])
def test_a_gzipped_archive_extracts_the_same_in_memory_or_from_the_file(tmp_path, monkeypatch, in_memory_bytes):
    monkeypatch.setattr(archive_files, "IN_MEMORY_BYTES", in_memory_bytes)
    assert extracted(archive(tmp_path / "model.tar.gz", "w:gz"), tmp_path / "out") == MEMBERS


def test_an_uncompressed_archive_extracts_too(tmp_path):
    assert extracted(archive(tmp_path / "model.tar", "w"), tmp_path / "out") == MEMBERS


def test_a_truncated_gzip_is_one_archive_error(tmp_path):
    whole = Path(archive(tmp_path / "whole.tar.gz", "w:gz")).read_bytes()
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole[: len(whole) // 2] + whole[-8:])  # the trailer kept: the size it names is read first
    with pytest.raises(ArchiveError, match=r"cut.tar.gz: not a model archive .* truncated or corrupt"):
        extract_archive(str(cut), str(tmp_path / "out"))


@pytest.mark.parametrize("mode", ["w:gz", "w:bz2", "w:xz", "w"])
@pytest.mark.parametrize("in_memory", [True, False])
def test_the_digest_extraction_gives_is_that_of_the_whole_file(tmp_path, monkeypatch, mode, in_memory):
    """Whatever the compression, and whether it is decompressed once in memory or read from the file as tarfile
    seeks, the digest is that of every byte of the archive file (the cache names its folder by it)."""
    if not in_memory:
        monkeypatch.setattr(archive_files, "IN_MEMORY_BYTES", 1000)
    archive = str(tmp_path / "model.tar")
    with tarfile.open(archive, mode) as tar:
        for name, data in (("config.json", b"{}"), ("weights.th", os.urandom(50_000))):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    with open(archive, "rb") as handle:
        expected = hashlib.sha256(handle.read()).hexdigest()
    assert archive_files.extract_archive(archive, str(tmp_path / "out")) == expected
    assert os.path.getsize(tmp_path / "out" / "weights.th") == 50_000
