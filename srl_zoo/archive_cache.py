"""Archives kept extracted: the runtime reads an archive's files from a folder made the first time this archive (its
path, size and modification time) was loaded, so a later start skips decompressing and writing it (0.3-0.5 s of the
default model's 35 MiB). The folder lives in srl_zoo's cache (`cache_directory`), or where `SRL_ZOO_ARCHIVE_CACHE`
points; `SRL_ZOO_ARCHIVE_CACHE=off` extracts to a temporary folder each time, as before."""

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Mapping
from typing import Optional

from srl_zoo.archive_files import ArchiveError, extract_archive
from srl_zoo.cache_directory import cache_directory

#: the variable that moves the folder of extracted archives, or turns it off
CACHE_VARIABLE = "SRL_ZOO_ARCHIVE_CACHE"
#: the file in each extracted folder naming the archive it came from
SOURCE_FILE = "srl_zoo-archive-source.json"


def archive_cache_root(environment: Mapping[str, str] = os.environ) -> Optional[str]:
    """The folder that holds extracted archives, or None when `SRL_ZOO_ARCHIVE_CACHE` is `off`.

    # Parameters

    environment : the variables to read (`os.environ` by default).
    """
    given = environment.get(CACHE_VARIABLE, "")
    if given.lower() == "off":
        return None
    return given or os.path.join(cache_directory(environment), "extracted-archives")


def _key(path: str) -> tuple[str, dict[str, object]]:
    """A folder name for this version of the archive at `path` (its real path, size and modification time)."""
    real = os.path.realpath(path)
    status = os.stat(real)
    source = {"archive": real, "bytes": status.st_size, "modified_ns": status.st_mtime_ns}
    return hashlib.sha256(json.dumps(source, sort_keys=True).encode()).hexdigest()[:24], source


def kept_extracted(path: str, environment: Mapping[str, str] = os.environ) -> Optional[str]:
    """The folder holding the files of the archive `path`, extracted (every member checked, `extract_archive`) the
    first time this version of it is asked for; None where there is no cache (turned off, or its folder cannot be
    written), so the caller extracts it itself. The folder appears whole or not at all (extracted beside it, then
    renamed); folders of earlier versions of the same archive path are removed.

    # Parameters

    path : a model archive (`model.tar.gz`).
    environment : the variables to read (`os.environ` by default).
    """
    if not os.path.isfile(path):
        raise ArchiveError(path, "no such archive file")
    root = archive_cache_root(environment)
    if root is None:
        return None
    key, source = _key(path)
    folder = os.path.join(root, key)
    if os.path.isfile(os.path.join(folder, SOURCE_FILE)):
        return folder
    try:
        os.makedirs(root, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".extracting-", dir=root)
    except OSError:
        return None
    try:
        extract_archive(path, staging)
        with open(os.path.join(staging, SOURCE_FILE), "w", encoding="utf-8") as handle:
            json.dump(source, handle)
        os.rename(staging, folder)
    except OSError:  # another process renamed its copy first, or the disk refused: use theirs, or none
        shutil.rmtree(staging, ignore_errors=True)
        return folder if os.path.isfile(os.path.join(folder, SOURCE_FILE)) else None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _remove_earlier_versions(root, key, str(source["archive"]))
    return folder


#: a staging folder this old was left by a process that stopped while extracting
ABANDONED_SECONDS = 24 * 3600


def _remove_earlier_versions(root: str, key: str, archive: str) -> None:
    """Remove the folders in `root` extracted from earlier versions of `archive`, and staging folders abandoned
    a day ago or more (best effort)."""
    for name in os.listdir(root):
        if name == key:
            continue
        if name.startswith(".extracting-"):
            try:
                if time.time() - os.path.getmtime(os.path.join(root, name)) > ABANDONED_SECONDS:
                    shutil.rmtree(os.path.join(root, name), ignore_errors=True)
            except OSError:
                pass
            continue
        try:
            with open(os.path.join(root, name, SOURCE_FILE), encoding="utf-8") as handle:
                earlier = json.load(handle).get("archive")
        except (OSError, ValueError, AttributeError):
            continue
        if earlier == archive:
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)
