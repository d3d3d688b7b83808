"""Model archives read safely without allennlp: every member is checked before anything is written, weights are
read with `torch.load(weights_only=True)`, and a bad archive gives one `ArchiveError` naming the file. Used by the
runtime (`srl_zoo.runtime`) and, through `srl_zoo.archives`, by allennlp's loading path."""

import gzip
import io
import os
import tarfile
import zlib
from collections import OrderedDict
from typing import Optional

import torch

#: the config key of an archive's score calibration (`{"temperature", "ece", ...}`), read when it loads
SCORE_CALIBRATION_KEY = "srl_zoo_score_calibration"

#: the prefix of the temporary folders archives are extracted into (`safe_extracted_archive`)
EXTRACTION_PREFIX = "srl_zoo-archive-"
#: a gzipped archive up to this size unpacked is decompressed once, in memory, for both the check of its members
#: and their extraction (reading it from the file decompressed it twice: 0.35 s of the default model's start)
IN_MEMORY_BYTES = 512 * 1024 * 1024


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


def checked_members(archive: tarfile.TarFile, path: str) -> list[tarfile.TarInfo]:
    """Every member of the open `archive`, or `ArchiveError` for the first unsafe one (nothing is extracted)."""
    members = archive.getmembers()
    for member in members:
        problem = member_problem(member)
        if problem is not None:
            raise ArchiveError(path, f"unsafe archive, nothing was extracted: {problem}")
    return members


def extract_archive(path: str, directory: str) -> None:
    """Extract the gzipped tar `path` into `directory` after checking every member (see `member_problem`).

    Raises `ArchiveError` for a missing, truncated or corrupt archive, and for unsafe members.
    """
    if not os.path.isfile(path):
        raise ArchiveError(path, "no such archive file")
    try:
        with _opened(path) as archive:
            members = checked_members(archive, path)
            # the "data" filter checks again (and drops permissions bits such as set-uid) as it writes
            archive.extractall(directory, members=members, filter="data")
    except ArchiveError:
        raise
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        first_line = str(error).splitlines()[0].rstrip(":") if str(error) else type(error).__name__
        raise ArchiveError(
            path, f"not a model archive (model.tar.gz from `srl-zoo train`), or one truncated or corrupt: {first_line}"
        ) from None


def _opened(path: str) -> tarfile.TarFile:
    """The tar file `path`: a gzipped one of at most `IN_MEMORY_BYTES`, packed and unpacked (its gzip trailer's
    size), decompressed once into memory; any other read from the file."""
    with open(path, "rb") as handle:
        if handle.read(2) == b"\x1f\x8b" and 18 <= os.path.getsize(path) <= IN_MEMORY_BYTES:
            handle.seek(-4, os.SEEK_END)
            if int.from_bytes(handle.read(4), "little") <= IN_MEMORY_BYTES:  # the size modulo 2^32
                handle.seek(0)
                return tarfile.open(fileobj=io.BytesIO(gzip.decompress(handle.read())), mode="r:")
    return tarfile.open(path, "r:*")


#: the folder of an archive holding its transformer's config and tokenizer files, and the file in it
#: naming the directory they were copied from (`srl_zoo.training.transformer_files`)
ARCHIVED_TRANSFORMER = "transformer"
TRANSFORMER_SOURCE = "SOURCE.json"


def load_weights(path: str, cuda_device: int = -1) -> dict[str, torch.Tensor]:
    """A state dict read with `weights_only=True` whatever `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` says:
    a pickled payload is refused, not run. `ArchiveError` names the file when it is not plain weights."""
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
