"""What `srl-label` keeps beside its output to resume safely: the progress record (how far the run got,
on which input and with which settings), the input's identity, and a lock against concurrent runs."""

import errno
import fcntl
import hashlib
import json
import os
from dataclasses import asdict, dataclass
from typing import IO, Any, Optional

from srl_zoo.data.formats.io_utils import atomic_write, numbered_raw_lines
from srl_zoo.labeling.errors import LabelRunError

PROGRESS_VERSION = 2


@dataclass(frozen=True)
class Progress:
    """How far a run got. `lines_consumed` input lines (blank ones included) are done; their bytes hash
    to `consumed_sha256`; the output's first `output_bytes` bytes hold their records; `complete` when
    the whole input was done."""

    input_file: str  # the input's real path
    input_format: str
    output_format: str
    lines_consumed: int
    consumed_sha256: str
    output_bytes: int
    complete: bool = False
    input_size: int = 0  # of the whole input when the record was written (informative, and for `complete`)
    version: int = PROGRESS_VERSION
    chunks_consumed: int = 0  # input chunks within `lines_consumed`


def progress_path(output_file: str) -> str:
    return output_file + ".progress"


def lock_path(output_file: str) -> str:
    return output_file + ".lock"


def remove_progress(output_file: str) -> None:
    """Tidy up after a finished run: its progress record goes (nothing is left to resume)."""
    if os.path.exists(progress_path(output_file)):
        os.remove(progress_path(output_file))


def read_progress(output_file: str) -> Optional[Progress]:
    """The progress record of `output_file`, None if there is none; `LabelRunError` if unreadable."""
    path = progress_path(output_file)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            state: dict[str, Any] = json.load(handle)
        if state.get("version") != PROGRESS_VERSION:
            raise ValueError(f"version {state.get('version')!r}, expected {PROGRESS_VERSION}")
        if state.pop("share", ""):
            raise ValueError("a part of a torchrun run, which srl-zoo label no longer makes (label on Ray: --ray)")
        for retired in ("index_bytes", "chunk_lines"):  # fields of the parts of torchrun runs
            state.pop(retired, None)
        return Progress(**state)
    except (ValueError, TypeError) as error:
        raise LabelRunError(
            f"{path}: not a progress record this srl_zoo can resume from ({error}); "
            "pass --overwrite to start over, or another output file"
        ) from None


def write_progress(output_file: str, progress: Progress) -> None:
    """Record `progress` atomically (a temporary file renamed over the old record)."""
    with atomic_write(progress_path(output_file)) as handle:
        json.dump(asdict(progress), handle)


def prefix_sha256(path: str, lines: int) -> str:
    """The SHA-256 of the first `lines` raw lines of `path`."""
    digest = hashlib.sha256()
    for number, line, ending in numbered_raw_lines(path):
        if number > lines:
            break
        digest.update(line + ending)
    return digest.hexdigest()


def check_resumable(
    progress: Progress,
    output_file: str,
    input_file: str,
    input_format: str,
    output_format: str,
) -> None:
    """Refuse (`LabelRunError`) to resume `output_file`'s `progress` with another input, other
    formats, or an input whose already-labeled lines changed."""
    problems = []
    if os.path.realpath(input_file) != progress.input_file:
        problems.append(f"it was made from {progress.input_file}, not {os.path.realpath(input_file)}")
    if input_format != progress.input_format:
        problems.append(f"it read the input as {progress.input_format!r}, not {input_format!r}")
    if output_format != progress.output_format:
        problems.append(f"it wrote {progress.output_format!r} output, not {output_format!r}")
    if not problems and prefix_sha256(input_file, progress.lines_consumed) != progress.consumed_sha256:
        problems.append(f"the input's first {progress.lines_consumed} lines changed since they were labeled")
    if not problems and progress.complete and os.path.getsize(input_file) != progress.input_size:
        problems.append("the input grew or shrank since the run completed")
    if problems:
        raise LabelRunError(
            f"{progress_path(output_file)} does not match this run: "
            + "; ".join(problems)
            + ". Pass --overwrite to start over, or choose another output file"
        )


class OutputLock:
    """An exclusive, non-blocking lock on `OUTPUT.lock` for the duration of a run (released by the
    kernel when the process dies, so a killed run leaves no stale lock)."""

    def __init__(self, output_file: str) -> None:
        self.path = lock_path(output_file)
        self.handle: Optional[IO[str]] = None

    def __enter__(self) -> "OutputLock":
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            handle.close()
            if error.errno in (errno.EAGAIN, errno.EACCES):
                raise LabelRunError(
                    f"{self.path}: another srl-label run is writing this output right now; "
                    "wait for it or choose another output file"
                ) from None
            raise
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self.handle = handle
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self.handle is not None:
            os.unlink(self.path)
            self.handle.close()  # closing releases the lock
            self.handle = None
