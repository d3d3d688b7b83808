"""Archives kept extracted: the runtime reads an archive's files from a folder made the first time an archive of
these bytes was loaded, so a later start skips decompressing and writing it (0.3-0.5 s of the default model's
35 MiB). A folder is named by the SHA-256 of the archive's bytes, so an archive rewritten in place is extracted
anew whatever its timestamps; a folder is kept only once its archive has been loaded without being refused; the
folders together stay under a bound, the least recently used removed first. They live in srl_zoo's cache
(`cache_directory`), or where `SRL_ZOO_ARCHIVE_CACHE` points; `SRL_ZOO_ARCHIVE_CACHE=off` extracts to a temporary
folder each time."""

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator, Mapping
from typing import Optional

from srl_zoo.archive_files import EXTRACTION_PREFIX, ArchiveError, bytes_setting, extract_archive
from srl_zoo.cache_directory import cache_directory

#: the variable that moves the folder of extracted archives, or turns it off
CACHE_VARIABLE = "SRL_ZOO_ARCHIVE_CACHE"
#: the variable that sets the bound on the folders' size, in bytes
BOUND_VARIABLE = "SRL_ZOO_ARCHIVE_CACHE_BYTES"
#: the folders' size bound unless `SRL_ZOO_ARCHIVE_CACHE_BYTES` says otherwise (the shipped models take 40 and 11 MiB)
DEFAULT_BOUND_BYTES = 2 * 1024**3
#: the file in each extracted folder naming the archive it came from, its digest and size; its modification time is
#: the folder's last use
SOURCE_FILE = "srl_zoo-archive-source.json"
#: a folder used this recently is not removed to keep the bound (another process may be reading it)
IN_USE_SECONDS = 120
#: a staging folder this old was left by a process that stopped while extracting
ABANDONED_SECONDS = 24 * 3600


def archive_cache_root(environment: Mapping[str, str] = os.environ) -> Optional[str]:
    """The folder that holds extracted archives, or None when `SRL_ZOO_ARCHIVE_CACHE` is `off`.

    # Parameters

    environment : the variables to read (`os.environ` by default).
    """
    given = environment.get(CACHE_VARIABLE, "")
    if given.lower() == "off":
        return None
    return given or os.path.join(cache_directory(environment), "extracted-archives")


def cache_bound(environment: Mapping[str, str] = os.environ) -> int:
    """The most bytes the extracted folders may take together (`SRL_ZOO_ARCHIVE_CACHE_BYTES`, else 2 GiB); a value
    that is not a number of bytes is a `ValueError` naming the variable."""
    return bytes_setting(environment, BOUND_VARIABLE, DEFAULT_BOUND_BYTES)


def content_digest(path: str) -> str:
    """The SHA-256 of the file `path`'s bytes, in hex (about 25 ms for the default model's 35 MiB)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def extracted_archive(path: str, environment: Mapping[str, str] = os.environ) -> Iterator[str]:
    """A folder holding the checked files of the archive `path` for the `with` block: the cache's, made the first
    time an archive of these bytes is asked for (`extract_archive` checks every member), or, with the cache off or
    unwritable, a temporary folder removed afterwards. An error raised in the block (the archive refused at any step,
    or failing to load) removes the cache's folder too: the cache keeps only archives that loaded.

    # Parameters

    path : a model archive (`model.tar.gz`).
    environment : the variables to read (`os.environ` by default).
    """
    folder = kept_extracted(path, environment)
    if folder is None:
        directory = tempfile.mkdtemp(prefix=EXTRACTION_PREFIX)
        try:
            extract_archive(path, directory, environment)
            yield directory
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return
    try:
        yield folder
    except Exception:  # refused at any step, or failed: the cache keeps only archives that loaded
        _remove(folder)
        raise


def kept_extracted(path: str, environment: Mapping[str, str] = os.environ) -> Optional[str]:
    """The cache's folder holding the files of the archive `path`, extracted (every member checked) the first time
    an archive of these bytes is asked for; None where there is no cache (turned off, or its folder cannot be
    written). The folder appears whole or not at all (extracted beside it, then renamed under the digest of the
    bytes the extraction read, so that its name always matches its contents), and is marked used;
    then the least recently used folders are removed until all fit `cache_bound`. (`extracted_archive` also
    removes the folder of an archive refused while it loads.)

    # Parameters

    path : a model archive (`model.tar.gz`).
    environment : the variables to read (`os.environ` by default).
    """
    if not os.path.isfile(path):
        raise ArchiveError(path, "no such archive file")
    root = archive_cache_root(environment)
    if root is None:
        return None
    bound = cache_bound(environment)
    digest = content_digest(path)
    folder = os.path.join(root, digest[:32])
    if _mark_used(folder):
        return folder
    try:
        os.makedirs(root, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".extracting-", dir=root)
    except OSError:
        return None
    try:
        extracted = extract_archive(path, staging, environment)  # the digest of the bytes it read
        folder = os.path.join(root, extracted[:32])  # the file may have been swapped since `digest`
        source = {"archive": os.path.realpath(path), "sha256": extracted, "bytes": _folder_bytes(staging)}
        with open(os.path.join(staging, SOURCE_FILE), "w", encoding="utf-8") as handle:
            json.dump(source, handle)
        os.rename(staging, folder)
    except OSError:  # another process renamed its copy first, or the disk refused: use theirs, or none
        shutil.rmtree(staging, ignore_errors=True)
        return folder if _mark_used(folder) else None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _keep_within_bound(root, folder, bound)
    return folder


def keep_made_folder(folder: str, environment: Mapping[str, str] = os.environ) -> None:
    """Record `folder`, one of srl_zoo's cache holding what was made from one archive (its int8 graphs), as used now
    with its size, then remove the least recently used folders beside it until they all fit `cache_bound`, as the
    extracted archives do: that cache is bounded too."""
    with open(os.path.join(folder, SOURCE_FILE), "w", encoding="utf-8") as handle:
        json.dump({"bytes": _folder_bytes(folder)}, handle)
    _keep_within_bound(os.path.dirname(folder), folder, cache_bound(environment))


def _mark_used(folder: str) -> bool:
    """Whether `folder` is a whole extracted archive; if so its last use becomes now."""
    try:
        os.utime(os.path.join(folder, SOURCE_FILE))
        return True
    except OSError:
        return False


def _folder_bytes(folder: str) -> int:
    """The bytes of the files under `folder`."""
    return sum(
        os.path.getsize(os.path.join(directory, name)) for directory, _, names in os.walk(folder) for name in names
    )


def _remove(folder: str) -> None:
    """Remove `folder` whole: renamed away first, so that no process finds it half removed (best effort)."""
    doomed = os.path.join(os.path.dirname(folder), f".removing-{os.path.basename(folder)}-{os.getpid()}")
    try:
        os.rename(folder, doomed)
    except OSError:
        return
    shutil.rmtree(doomed, ignore_errors=True)


def _keep_within_bound(root: str, added: str, bound: int) -> None:
    """Remove the least recently used folders of `root` (never `added`, nor one used in the last `IN_USE_SECONDS`)
    until the folders take at most `bound` bytes, and staging folders abandoned a day ago or more."""
    now = time.time()
    entries: list[tuple[float, int, str]] = []  # (last use, bytes, folder)
    for name in os.listdir(root):
        folder = os.path.join(root, name)
        try:
            if name.startswith((".extracting-", ".removing-")):
                if now - os.path.getmtime(folder) > ABANDONED_SECONDS:
                    shutil.rmtree(folder, ignore_errors=True)
                continue
            with open(os.path.join(folder, SOURCE_FILE), encoding="utf-8") as handle:
                size = int(json.load(handle).get("bytes", 0))
            entries.append((os.path.getmtime(os.path.join(folder, SOURCE_FILE)), size, folder))
        except (OSError, ValueError, AttributeError, TypeError):
            continue
    total = sum(size for _, size, _ in entries)
    for used, size, folder in sorted(entries):
        if total <= bound:
            break
        if folder != added and now - used > IN_USE_SECONDS:
            _remove(folder)
            total -= size
