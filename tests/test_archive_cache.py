"""Archives kept extracted: made once per version of an archive, whole or not at all, earlier versions removed."""

import io
import json
import os
import tarfile
from dataclasses import dataclass
from typing import Optional

import pytest

import srl_zoo.archive_cache as archive_cache
from srl_zoo.archive_cache import SOURCE_FILE, archive_cache_root, extracted_archive, kept_extracted
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
        source = json.load(handle)
    assert source["archive"] == os.path.realpath(archive) and source["sha256"] == archive_cache.content_digest(archive)

    def no_second_extraction(*args):
        raise AssertionError("extracted again")

    monkeypatch.setattr(archive_cache, "extract_archive", no_second_extraction)
    assert kept_extracted(archive, environment) == folder
    assert sorted(os.listdir(root)) == [os.path.basename(folder)]


def test_an_archive_rewritten_with_its_size_and_time_kept_is_extracted_anew(tmp_path):
    """`cp -p`, `rsync -t` and `tar x` leave a rewritten archive with the size and modification time it had: the
    folder is keyed on the archive's bytes, so the new content is served, never the old."""
    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(tmp_path / "cache")}
    archive = str(tmp_path / "model.tar")
    _plain_archive(archive, {"labels": ["ARG0", "ARG1"]})
    status = os.stat(archive)
    first = kept_extracted(archive, environment)
    _plain_archive(archive, {"labels": ["ARG1", "ARG0"]})
    os.utime(archive, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert os.stat(archive).st_size == status.st_size and os.stat(archive).st_mtime_ns == status.st_mtime_ns
    second = kept_extracted(archive, environment)
    assert second != first
    with open(os.path.join(str(second), "config.json"), encoding="utf-8") as handle:
        assert json.load(handle) == {"labels": ["ARG1", "ARG0"]}


def _plain_archive(path: str, config: dict) -> str:
    """An uncompressed tar holding `config` as config.json (the same size for configs of the same length)."""
    with tarfile.open(path, "w") as tar:
        data = json.dumps(config).encode()
        info = tarfile.TarInfo("config.json")
        info.size, info.mtime = len(data), 0
        tar.addfile(info, io.BytesIO(data))
    return path


def test_the_least_recently_used_folders_go_past_the_bound(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setattr(archive_cache, "IN_USE_SECONDS", -1)  # every folder may be removed at once
    archives = [_archive(tmp_path / f"m{i}.tar.gz", {"model": i, "padding": "x" * 1000}) for i in range(3)]
    one_folder = 1000 + 200  # config.json and the source file
    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(root), "SRL_ZOO_ARCHIVE_CACHE_BYTES": str(2 * one_folder + 100)}
    first, second = (kept_extracted(archive, environment) for archive in archives[:2])
    os.utime(os.path.join(str(first), SOURCE_FILE), (1, 1))
    os.utime(os.path.join(str(second), SOURCE_FILE), (2, 2))
    assert kept_extracted(archives[0], environment) == first  # used again: now the most recent
    third = kept_extracted(archives[2], environment)
    assert sorted(os.listdir(root)) == sorted(os.path.basename(str(f)) for f in (first, third))
    with pytest.raises(ValueError, match="SRL_ZOO_ARCHIVE_CACHE_BYTES='2 GB': expected a number of bytes"):
        archive_cache.cache_bound({"SRL_ZOO_ARCHIVE_CACHE_BYTES": "2 GB"})


def test_an_archive_refused_while_it_loads_leaves_no_folder(tmp_path):
    root = tmp_path / "cache"
    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(root)}
    archive = _archive(tmp_path / "model.tar.gz", {"model": 1})
    with pytest.raises(ArchiveError, match="refused"), extracted_archive(archive, environment) as folder:
        assert os.path.isfile(os.path.join(folder, "config.json"))
        raise ArchiveError(archive, "refused by the loader")
    assert os.listdir(root) == []
    with extracted_archive(archive, environment) as folder:  # accepted: kept
        pass
    assert os.listdir(root) == [os.path.basename(folder)]


def test_two_processes_loading_at_once_both_get_the_folder(tmp_path):
    import concurrent.futures

    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(tmp_path / "cache")}
    archive = _archive(tmp_path / "model.tar.gz", {"model": 1, "padding": "x" * 100_000})
    with concurrent.futures.ProcessPoolExecutor(4) as pool:
        folders = list(pool.map(kept_extracted, [archive] * 8, [environment] * 8))
    assert len(set(folders)) == 1 and folders[0] is not None
    assert os.listdir(tmp_path / "cache") == [os.path.basename(folders[0])]


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


@dataclass
class _Versions:
    """Versions 1 and 2 of one model (archives of the same size) and their digests, with `archive`, the path a
    test loads, holding version 1."""

    first: str
    second: str
    digests: dict[int, str]
    archive: str

    def folder_matches_its_name(self, folder: Optional[str]) -> bool:
        """Whether the cache folder `folder` holds what the archive whose digest names it holds."""
        assert folder is not None
        with open(os.path.join(folder, SOURCE_FILE), encoding="utf-8") as handle:
            digest = json.load(handle)["sha256"]
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as handle:
            version = json.load(handle)["version"]
        return os.path.basename(folder) == digest[:32] and digest == self.digests[version]


def _versions(tmp_path) -> _Versions:  # type: ignore[no-untyped-def]
    paths = [_archive(tmp_path / f"version{version}.tar.gz", {"version": version}) for version in (1, 2)]
    digests = {version: archive_cache.content_digest(path) for version, path in enumerate(paths, start=1)}
    versions = _Versions(paths[0], paths[1], digests, str(tmp_path / "model.tar.gz"))
    _swap_in(versions.first, versions.archive)
    return versions


def _swap_in(source: str, target: str) -> None:
    """Replace `target` by a copy of `source` atomically (a copy beside it, renamed over it)."""
    staged = f"{target}.{os.getpid()}.staged"
    with open(source, "rb") as handle, open(staged, "wb") as copy:
        copy.write(handle.read())
    os.replace(staged, target)


def test_an_archive_swapped_after_its_digest_is_kept_under_the_digest_of_what_was_read(tmp_path, monkeypatch):
    versions = _versions(tmp_path)
    digest_of = archive_cache.content_digest

    def digest_then_swap(path: str) -> str:
        digest = digest_of(path)
        _swap_in(versions.second, path)
        return digest

    monkeypatch.setattr(archive_cache, "content_digest", digest_then_swap)
    folder = kept_extracted(versions.archive, {"SRL_ZOO_ARCHIVE_CACHE": str(tmp_path / "cache")})
    assert versions.folder_matches_its_name(folder)
    assert os.path.basename(str(folder)) == versions.digests[2][:32]


def test_an_archive_swapped_while_it_is_read_is_kept_as_the_file_that_was_open(tmp_path, monkeypatch):
    import srl_zoo.archive_files as archive_files

    versions = _versions(tmp_path)
    check = archive_files.checked_members

    def check_then_swap(*arguments, **settings):  # type: ignore[no-untyped-def]
        _swap_in(versions.second, versions.archive)  # mid-read: the members are listed, not yet extracted
        return check(*arguments, **settings)

    monkeypatch.setattr(archive_files, "checked_members", check_then_swap)
    folder = kept_extracted(versions.archive, {"SRL_ZOO_ARCHIVE_CACHE": str(tmp_path / "cache")})
    assert versions.folder_matches_its_name(folder)
    assert os.path.basename(str(folder)) == versions.digests[1][:32]


def test_no_folder_ever_differs_from_its_name_while_the_archive_is_swapped_back_and_forth(tmp_path):
    """The race as a user met it: one thread swaps the archive between two versions every ~2 ms while it is
    extracted 30 times with the cache emptied in between; every folder made holds the archive its name says."""
    import shutil
    import threading

    root = tmp_path / "cache"
    environment = {"SRL_ZOO_ARCHIVE_CACHE": str(root)}
    versions = _versions(tmp_path)
    stop = threading.Event()

    def swap() -> None:
        count = 0
        while not stop.is_set() and count < 5000:
            _swap_in((versions.first, versions.second)[count % 2], versions.archive)
            count += 1
            stop.wait(0.002)

    swapper = threading.Thread(target=swap)
    swapper.start()
    try:
        for _ in range(30):
            assert versions.folder_matches_its_name(kept_extracted(versions.archive, environment))
            shutil.rmtree(root)
    finally:
        stop.set()
        swapper.join()


def test_folders_made_from_archives_stay_under_the_bound_too(tmp_path, monkeypatch):
    """The int8 graphs' folders (one per archive) are bounded as the extracted archives are."""
    monkeypatch.setattr(archive_cache, "IN_USE_SECONDS", -1)
    graphs = tmp_path / "onnx-encoders"
    environment = {"SRL_ZOO_ARCHIVE_CACHE_BYTES": "2500"}
    for number in range(4):
        folder = graphs / f"digest{number}"
        folder.mkdir(parents=True)
        (folder / "encoder.onnx").write_bytes(bytes(1000))
        archive_cache.keep_made_folder(str(folder), environment)
        os.utime(folder / SOURCE_FILE, (number, number))  # used in this order
    assert sorted(os.listdir(graphs)) == ["digest2", "digest3"]
