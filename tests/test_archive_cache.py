"""Archives kept extracted: made once per version of an archive, whole or not at all, earlier versions removed."""

import io
import json
import os
import tarfile

import pytest

import srl_zoo.archive_cache as archive_cache
from srl_zoo.archive_cache import SOURCE_FILE, archive_cache_root, kept_extracted
from srl_zoo.archive_files import ArchiveError


def _archive(path, config: dict, extra: tuple = ()) -> str:
    with tarfile.open(path, "w:gz") as tar:
        data = json.dumps(config).encode()
        info = tarfile.TarInfo("config.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for member in extra:
            tar.addfile(member)
    return str(path)


def test_extracted_once_then_read_from_the_folder(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(root)}
    archive = _archive(tmp_path / "model.tar.gz", {"model": 1})
    folder = kept_extracted(archive, environment)
    assert folder is not None and os.path.dirname(folder) == str(root)
    with open(os.path.join(folder, "config.json"), encoding="utf-8") as handle:
        assert json.load(handle) == {"model": 1}
    with open(os.path.join(folder, SOURCE_FILE), encoding="utf-8") as handle:
        assert json.load(handle)["archive"] == os.path.realpath(archive)

    def no_second_extraction(*args):
        raise AssertionError("extracted again")

    monkeypatch.setattr(archive_cache, "extract_archive", no_second_extraction)
    assert kept_extracted(archive, environment) == folder
    assert sorted(os.listdir(root)) == [os.path.basename(folder)]


def test_a_new_version_of_the_archive_replaces_the_old_folder(tmp_path):
    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(tmp_path / "cache")}
    archive = _archive(tmp_path / "model.tar.gz", {"model": 1})
    other = _archive(tmp_path / "other.tar.gz", {"model": 3})
    first = kept_extracted(archive, environment)
    kept_other = kept_extracted(other, environment)
    _archive(tmp_path / "model.tar.gz", {"model": 2, "retrained": True})
    os.utime(archive, ns=(1, 1))
    second = kept_extracted(archive, environment)
    assert second != first and first is not None and not os.path.exists(first)
    with open(os.path.join(str(second), "config.json"), encoding="utf-8") as handle:
        assert json.load(handle) == {"model": 2, "retrained": True}
    assert kept_other is not None and os.path.isdir(kept_other)  # another archive's folder stays


def test_off_or_unwritable_means_no_folder(tmp_path):
    archive = _archive(tmp_path / "model.tar.gz", {})
    assert archive_cache_root({"SRL_ZOO_ARCHIVE_CACHE": "off"}) is None
    assert kept_extracted(archive, {"SRL_ZOO_ARCHIVE_CACHE": "OFF"}) is None
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    assert kept_extracted(archive, {"SRL_ZOO_ARCHIVE_CACHE": str(blocked / "cache")}) is None
    assert archive_cache_root({"SRL_ZOO_CACHE": str(tmp_path / "c")}) == str(tmp_path / "c" / "extracted-archives")


def test_a_bad_archive_is_one_error_and_leaves_nothing(tmp_path):
    root = tmp_path / "cache"
    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(root)}
    link = tarfile.TarInfo("vocabulary/labels.txt")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    unsafe = _archive(tmp_path / "unsafe.tar.gz", {}, (link,))
    with pytest.raises(ArchiveError, match="unsafe.tar.gz.*nothing was extracted"):
        kept_extracted(unsafe, environment)
    assert os.listdir(root) == []
    with pytest.raises(ArchiveError, match="missing.tar.gz: no such archive file"):
        kept_extracted(str(tmp_path / "missing.tar.gz"), environment)
    whole = _archive(tmp_path / "t.tar.gz", {})
    (tmp_path / "truncated.tar.gz").write_bytes((tmp_path / "t.tar.gz").read_bytes()[:30])
    assert os.path.getsize(whole) > 30
    with pytest.raises(ArchiveError, match="truncated.tar.gz"):
        kept_extracted(str(tmp_path / "truncated.tar.gz"), environment)
    assert os.listdir(root) == []


def test_a_staging_folder_abandoned_a_day_ago_is_removed(tmp_path):
    root = tmp_path / "cache"
    abandoned, recent = root / ".extracting-old", root / ".extracting-new"
    abandoned.mkdir(parents=True)
    recent.mkdir()
    os.utime(abandoned, (0, 0))
    kept_extracted(_archive(tmp_path / "model.tar.gz", {}), {"SRL_ZOO_ARCHIVE_CACHE": str(root)})
    assert not abandoned.exists() and recent.exists()
