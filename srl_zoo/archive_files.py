"""Model archives read safely without allennlp: every member is checked before anything is written, weights are
read with `torch.load(weights_only=True)`, and a bad archive gives one `ArchiveError` naming the file. Used by the
runtime (`srl_zoo.runtime`) and, through `srl_zoo.archives`, by allennlp's loading path."""

import bz2
import contextlib
import gzip
import hashlib
import io
import json
import lzma
import os
import tarfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Optional

from srl_zoo.archive_contents import json_member_problem, member_kind_problem
from srl_zoo.archive_settings import CALIBRATION_KEY

#: the config key of an archive's score calibration (`{"temperature", "ece", ...}`), read when it loads (its
#: values are checked at extraction: `srl_zoo.archive_settings`)
SCORE_CALIBRATION_KEY = CALIBRATION_KEY

#: the prefix of the temporary folders archives are extracted into (`safe_extracted_archive`)
EXTRACTION_PREFIX = "srl_zoo-archive-"
#: an archive up to this size unpacked is decompressed once, in memory, for both the check of its members and their
#: extraction (read from the file, it is decompressed twice: 0.35 s of the default model's start)
IN_MEMORY_BYTES = 256 * 1024 * 1024


#: the reason given for a file that is not a model archive, before what is wrong with it
NOT_AN_ARCHIVE = "not a model archive (model.tar.gz from `srl-zoo train`)"
#: the reason given for an archive without its config
MISSING_CONFIG = f"no config.json: {NOT_AN_ARCHIVE}"


class ArchiveError(ValueError):
    """A model archive that cannot be loaded safely; the message names the file and the reason."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")

    def __reduce__(self):  # type: ignore[override]
        return type(self), (self.path, self.reason)


def named_by_archive(error: ArchiveError, archive_file: str, extracted_in: Optional[str] = None) -> ArchiveError:
    """`error`, about a file extracted from `archive_file` into a temporary folder (or into `extracted_in`), as one
    naming `archive_file` and the member (`model.tar.gz: weights.th: ...`), not the extracted copy; any other error
    as it is."""
    if extracted_in is not None and os.path.normpath(error.path).startswith(os.path.normpath(extracted_in) + os.sep):
        member = os.path.relpath(error.path, extracted_in).replace(os.sep, "/")
        return ArchiveError(archive_file, f"{member}: {error.reason}")
    parts = os.path.normpath(error.path).split(os.sep)
    inside = [i for i, part in enumerate(parts) if part.startswith(EXTRACTION_PREFIX)]
    if not inside or error.path == archive_file:
        return error
    return ArchiveError(archive_file, f"{'/'.join(parts[inside[-1] + 1 :])}: {error.reason}")


def member_problem(member: tarfile.TarInfo) -> Optional[str]:
    """Why extracting `member` would be unsafe (a path leaving the folder, a link, a device...), else None."""
    name = member.name
    if not name or "\x00" in name:
        return f"member {name!r} has an empty or invalid name"
    if name.startswith(("/", "\\")) or os.path.isabs(name) or (len(name) > 1 and name[1] == ":"):
        return f"member {name!r} has an absolute path"
    if ".." in name.replace("\\", "/").split("/"):
        return f"member {name!r} points outside the archive's folder ('..')"
    if member.issym() or member.islnk():
        return f"member {name!r} is a link (to {member.linkname!r}); model archives hold only files and folders"
    if not (member.isfile() or member.isdir()):
        return f"member {name!r} is a device, pipe or other special file"
    return None


def checked_members(archive: tarfile.TarFile, path: str, limit: Optional[int] = None) -> list[tarfile.TarInfo]:
    """Every member of the open `archive`, or `ArchiveError` for the first unsafe one (nothing is extracted): a path
    or kind that is unsafe to write (`member_problem`), a file that is neither one a model needs nor data (code),
    a config that asks for remote code (`srl_zoo.archive_contents`), or members larger than `limit` in all."""
    members = archive.getmembers()
    declared = 0
    for member in members:
        problem = member_problem(member) or member_kind_problem(member)
        if problem is not None:
            raise ArchiveError(path, f"unsafe archive, nothing was extracted: {problem}")
        declared += member.size
    if limit is not None and declared > limit:
        raise ArchiveError(path, _over_limit(limit))
    for member in members:
        problem = json_member_problem(archive, member)
        if problem is not None:
            raise ArchiveError(path, f"refused, nothing was extracted: {problem}")
    return members


def extract_archive(path: str, directory: str, environment: Mapping[str, str] = os.environ) -> str:
    """Extract the tar `path` (gzipped, or not) into `directory` after checking every member (`checked_members`),
    decompressing at most `max_archive_bytes` (counted as they are read, whatever the archive's headers claim).
    Returns the SHA-256 (hex) of the bytes it read: the file is opened once, so a file swapped or rewritten
    meanwhile is either wholly the one extracted or not read at all.

    Raises `ArchiveError` for a missing, truncated, corrupt or too large archive, and for unsafe members.
    """
    if not os.path.isfile(path):
        raise ArchiveError(path, "no such archive file")
    limit = max_archive_bytes(environment)
    try:
        with open(path, "rb") as handle:
            read = _HashingFile(handle)
            with _opened(read, path, limit) as archive:
                members = checked_members(archive, path, limit)
                # the "data" filter checks again (and drops permissions bits such as set-uid) as it writes
                archive.extractall(directory, members=members, filter="data")
            return read.digest()
    except ArchiveError:
        raise
    except (tarfile.TarError, EOFError, OSError, zlib.error, lzma.LZMAError) as error:
        first_line = str(error).splitlines()[0].rstrip(":") if str(error) else type(error).__name__
        raise ArchiveError(path, f"{NOT_AN_ARCHIVE}, or one truncated or corrupt: {first_line}") from None


class _HashingFile:
    """An open binary file whose SHA-256 is taken of the bytes as they are first read (a seek back reads again,
    adding nothing; a seek forward reads what it skips): `digest()` is that of every byte from the start to the end.

    # Parameters

    handle : the file, open for reading at its start.
    """

    def __init__(self, handle: Any) -> None:
        self.handle = handle
        self.hashed = 0
        self.sha256 = hashlib.sha256()

    def _take(self, start: int, data: bytes) -> None:
        end = start + len(data)
        if start <= self.hashed < end:
            self.sha256.update(data[self.hashed - start :])
            self.hashed = end

    def _hash_up_to(self, target: Optional[int]) -> None:
        """Read and hash from the first unhashed byte up to `target` (None: the end), then return to where it was."""
        position = self.handle.tell()
        self.handle.seek(self.hashed)
        while target is None or self.hashed < target:
            size = 1024 * 1024 if target is None else min(1024 * 1024, target - self.hashed)
            data = self.handle.read(size)
            if not data:
                break
            self._take(self.hashed, data)
        self.handle.seek(position)

    def read(self, size: int = -1) -> bytes:
        start = self.handle.tell()
        if start > self.hashed:
            self._hash_up_to(start)
        data = self.handle.read(size)
        self._take(start, data)
        return data

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self.handle.seek(offset, whence)

    def tell(self) -> int:
        return self.handle.tell()

    def seekable(self) -> bool:  # bz2's and lzma's readers ask before they seek
        return True

    def digest(self) -> str:
        """The SHA-256 of the whole file, in hex (what was not read yet is read now)."""
        self._hash_up_to(None)
        return self.sha256.hexdigest()


#: the variable that sets `max_archive_bytes`
MAX_BYTES_VARIABLE = "SRL_ZOO_MAX_ARCHIVE_BYTES"
#: the most bytes an archive may decompress to unless `SRL_ZOO_MAX_ARCHIVE_BYTES` says otherwise: the shipped models
#: unpack to 40 and 11 MiB, a fine-tuned large encoder's archive in float32 to ~1.4 GB
DEFAULT_MAX_ARCHIVE_BYTES = 4 * 1024**3


def bytes_setting(environment: Mapping[str, str], variable: str, default: int, minimum: int = 0) -> int:
    """A number of bytes the variable `variable` of `environment` sets (`1_000_000` may be written with
    underscores), else `default`; `ValueError` naming the variable for a value that is not one of at least
    `minimum`."""
    given = environment.get(variable, "").strip().replace("_", "")
    if not given:
        return default
    if not given.isdigit() or int(given) < minimum:
        raise ValueError(f"{variable}={environment[variable]!r}: expected a number of bytes")
    return int(given)


def max_archive_bytes(environment: Mapping[str, str] = os.environ) -> int:
    """The most bytes one archive may decompress to: `SRL_ZOO_MAX_ARCHIVE_BYTES` (a whole number of bytes, not 0),
    else `DEFAULT_MAX_ARCHIVE_BYTES`; `ValueError` naming the variable for a value that is not one."""
    return bytes_setting(environment, MAX_BYTES_VARIABLE, DEFAULT_MAX_ARCHIVE_BYTES, minimum=1)


def read_config(archive: str, directory: str) -> dict[str, Any]:
    """The config of `archive`, extracted in `directory` (its JSON was checked when it was extracted);
    `ArchiveError` naming `archive` where it has none or it is not a JSON object."""
    path = os.path.join(directory, "config.json")
    if not os.path.isfile(path):
        raise ArchiveError(archive, MISSING_CONFIG)
    with open(path, encoding="utf-8") as handle:
        config = json.load(handle)
    if not isinstance(config, dict):
        raise ArchiveError(archive, f"config.json: a JSON {type(config).__name__}, not an object")
    return config


def _over_limit(limit: int) -> str:
    return (
        f"decompresses to more than {limit:,} bytes, the limit on an archive's size unpacked (a compression bomb, "
        f"or a larger model: {MAX_BYTES_VARIABLE} raises the limit)"
    )


class _BoundedReader:
    """A decompressed stream (`gzip`, `bz2` or `lzma` file object, or a plain file) that refuses, with `ArchiveError`,
    to read or seek past `limit` bytes of its output: the bound counts what is decompressed, not what a header or
    trailer says.

    # Parameters

    stream : the seekable file object to read. limit : the most bytes of output. path : the archive, for errors.
    """

    def __init__(self, stream: Any, limit: int, path: str) -> None:
        self.stream = stream
        self.limit = limit
        self.path = path

    def read(self, size: int = -1) -> bytes:
        room = self.limit - self.stream.tell()
        data = self.stream.read(room + 1 if size is None or size < 0 else min(size, room + 1))
        if self.stream.tell() > self.limit:
            raise ArchiveError(self.path, _over_limit(self.limit))
        return data

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_END:
            raise OSError("a compressed archive is not read from its end")
        target = offset + (self.stream.tell() if whence == os.SEEK_CUR else 0)
        if target > self.limit:
            raise ArchiveError(self.path, _over_limit(self.limit))
        return self.stream.seek(target)

    def tell(self) -> int:
        return self.stream.tell()


#: the decompressing readers by the first bytes of a file, each over an open binary file
_COMPRESSIONS: tuple[tuple[bytes, Callable[[Any], Any]], ...] = (
    (b"\x1f\x8b", lambda handle: gzip.GzipFile(fileobj=handle, mode="rb")),
    (b"BZh", lambda handle: bz2.BZ2File(handle, mode="rb")),
    (b"\xfd7zXZ\x00", lambda handle: lzma.LZMAFile(handle, mode="rb")),  # noqa: SIM115 (`_opened` closes it)
)


@contextlib.contextmanager
def _opened(handle: Any, path: str, limit: int) -> Iterator[tarfile.TarFile]:
    """The tar file read from the open binary file `handle` (of `path`; gzip, bzip2, xz or none), decompressed at
    most `limit` bytes (`_BoundedReader`): into memory, once for both the check of its members and their extraction,
    where it unpacks to at most `IN_MEMORY_BYTES`; else read from the file as tarfile seeks."""
    start = handle.read(tarfile.BLOCKSIZE)
    handle.seek(0)
    opener = next((open_ for magic, open_ in _COMPRESSIONS if start.startswith(magic)), None)
    if opener is None and start[257:262] != b"ustar":
        raise ArchiveError(
            path, f"{NOT_AN_ARCHIVE}, or one truncated or corrupt: neither gzip, bzip2 nor xz, nor a tar file"
        )
    with opener(handle) if opener else contextlib.nullcontext(handle) as stream:
        reader = _BoundedReader(stream, limit, path)
        chunks, unpacked = [], 0
        while unpacked <= IN_MEMORY_BYTES:
            chunk = reader.read(1024 * 1024)
            if not chunk:
                break
            chunks.append(chunk)
            unpacked += len(chunk)
        else:  # larger than IN_MEMORY_BYTES: read from the file again, as tarfile asks
            chunks.clear()
            reader.seek(0)
            with tarfile.open(fileobj=reader, mode="r:") as archive:  # type: ignore[call-overload]
                yield archive
            return
    with tarfile.open(fileobj=io.BytesIO(b"".join(chunks)), mode="r:") as archive:
        yield archive


#: the folder of an archive holding its transformer's config and tokenizer files, and the file in it
#: naming the directory they were copied from (`srl_zoo.training.transformer_files`)
ARCHIVED_TRANSFORMER = "transformer"
TRANSFORMER_SOURCE = "SOURCE.json"


def load_weights(path: str, cuda_device: int = -1) -> dict[str, Any]:
    """A state dict read with `weights_only=True` whatever `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` says:
    a pickled payload is refused, not run (its values are torch tensors). `ArchiveError` names the file when it is
    not plain weights. (torch is imported here: the graph runtime reads archives without it.)"""
    import torch

    location = "cpu" if cuda_device < 0 else f"cuda:{cuda_device}"
    try:
        state = torch.load(path, map_location=location, weights_only=True)
    except Exception as error:  # pickle.UnpicklingError, a truncated file, a zip that is not torch's...
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ArchiveError(str(path), f"not a plain weights file (refused to load it): {reason}") from None
    if not isinstance(state, dict):
        raise ArchiveError(str(path), f"expected a state dict of tensors, found a {type(state).__name__}")
    return OrderedDict(state)


def shapes_problem(mismatched: list[tuple[str, str, str]]) -> Optional[str]:
    """The one-line reason for weights of another shape than the model's: `mismatched` lists (name, shape in the
    weights, shape in the model), shapes written `[25, 16]`; None where it is empty."""
    if not mismatched:
        return None
    name, saved, expected = mismatched[0]
    return (
        f"the weights do not fit the model's config: {len(mismatched)} of another shape (first: {name} is "
        f"{saved} in the weights, {expected} in the model): weights of another model?"
    )


def keys_problem(missing: list[str], unexpected: list[str]) -> Optional[str]:
    """The one-line reason for weights whose keys are `missing` from and `unexpected` by a model, else None."""
    found = [(kind, sorted(keys)) for kind, keys in (("missing", missing), ("unexpected", unexpected)) if keys]
    if not found:
        return None
    parts = [f"{len(keys)} {kind} (first: {', '.join(keys[:3])})" for kind, keys in found]
    return f"the weights do not fit the model: {'; '.join(parts)}"
