"""Expected failures of a command, told in one line: what went wrong, where (file, line, field), what to
do; no traceback unless `--verbose`. Anything else is a bug and keeps its traceback."""

import re
import sys
import traceback
from typing import Optional

import torch

from srl_zoo.archive_files import ArchiveError
from srl_zoo.data.formats.sentence import ConllFormatError
from srl_zoo.data.formats.teacher_distributions import TeacherFileError
from srl_zoo.dependencies import MissingDependency
from srl_zoo.front.requests import BadRequest
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.pretrained.encoder_directory import EncoderBuildError

#: jsonnet's own error text starts so ("RUNTIME ERROR: ...", "STATIC ERROR: ...")
_JSONNET_ERROR = re.compile(r"^(RUNTIME|STATIC) ERROR: ")
#: a jsonnet stack line: "\tconfig.jsonnet:12:3-40\t..."
_JSONNET_PLACE = re.compile(r"^\s*([^\s:]+\.(?:jsonnet|libsonnet|json)):(\d+):")
#: jsonnet's error in a snippet with no file name, as allennlp evaluates the -o/--overrides text: "1:24: ..."
_SNIPPET_PLACE = re.compile(r"^\d+:\d+(-\d+)?: ")


def one_line(error: BaseException) -> Optional[str]:
    """The one-line message for an expected failure, else None (a bug: let its traceback show)."""
    if isinstance(error, torch.OutOfMemoryError):
        return "out of memory: lower --batch-size (or label on the CPU, which has more memory)"
    if isinstance(error, ArchiveError | ConllFormatError | LabelRunError | MissingDependency | TeacherFileError):
        return _first_line(str(error))
    if _is_configuration_error(error):
        return _first_line(str(error.message))  # type: ignore[attr-defined]
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or type(error).__name__}"
    if isinstance(error, RuntimeError) and _JSONNET_ERROR.match(str(error)):
        return _jsonnet_message(str(error))
    if isinstance(error, EncoderBuildError):  # e.g. the accurate model's frozen MPNet not built: `make mpnet`
        return _first_line(str(error))
    if isinstance(error, BadRequest):
        return f"a request was refused: {_first_line(str(error))} (nothing was written)"
    if isinstance(error, ValueError) and str(error).startswith("overrides dict contains unused keys"):
        keys = str(error).split(":", 1)[1].strip()
        return f"-o/--overrides: {keys} are not in the config (an override can only change a key the config has)"
    if isinstance(error, ValueError) and _raised_while_building(error):
        return f"a setting of the config was refused while building the model: {_first_line(str(error))}"
    if isinstance(error, RuntimeError) and "no NVIDIA driver" in str(error):
        return "no GPU here (CUDA found no driver): leave out --cuda-device, or pass --cuda-device -1"
    return None


def _is_configuration_error(error: BaseException) -> bool:
    """Whether `error` is allennlp's `ConfigurationError` (only a process that imported allennlp can have one,
    so a command that runs without allennlp never imports it here)."""
    checks = sys.modules.get("allennlp.common.checks")
    return checks is not None and isinstance(error, checks.ConfigurationError)


def _raised_while_building(error: BaseException) -> bool:
    """Whether `error` came from a constructor that allennlp called with a config's settings (a part
    refusing a value, e.g. `decoding: "bogus"`), not from training or prediction."""
    frames = traceback.extract_tb(error.__traceback__)
    return any(frame.filename.endswith("allennlp/common/from_params.py") for frame in frames)


def _first_line(message: str) -> str:
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    return lines[0] if lines else message


def _jsonnet_message(message: str) -> str:
    """`CONFIG:LINE: what` from jsonnet's error and its stack (the innermost place named)."""
    lines = message.splitlines()
    what = _JSONNET_ERROR.sub("", lines[0]).strip()
    if _SNIPPET_PLACE.match(what):  # only the overrides are evaluated without a file
        return f"-o/--overrides: not valid JSON at {what}"
    for line in lines[1:]:
        place = _JSONNET_PLACE.match(line)
        if place:
            return f"{place.group(1)}:{place.group(2)}: {what}"
    return what
