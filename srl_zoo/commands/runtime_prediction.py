"""`srl-zoo predict` without allennlp: allennlp's `predict` command line (JSON lines in and out, or a CoNLL file with
`--use-dataset-reader`) served by the runtime's labeler with the same output lines, wherever the runtime builds the
archive and no flag asks for allennlp itself (config overrides, another weights file or predictor, predictor
options the runtime does not take, ...); `srl_zoo.cli` hands every other `predict` to allennlp."""

import argparse
import json
import logging
import sys
from collections.abc import Iterator
from typing import IO, Any, Optional

from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.labeling.errors import LabelRunError

#: `--predictor-args` keys the runtime's labeler takes (any other, e.g. `output_format`, is the allennlp predictor's)
RUNTIME_PREDICTOR_ARGS = frozenset({"precision", "min_score", "readable_frames", "language"})
#: the names srl_zoo's predictor is registered under
SRL_ZOO_PREDICTORS = (None, "srl_zoo", "srl")
logger = logging.getLogger(__name__)

#: requests labeled per labeler call (each call batched by length within `--batch-size` sentences)
LINES_PER_CALL = 256


def predict_arguments(argv: list[str]) -> Optional[argparse.Namespace]:
    """allennlp `predict`'s arguments of `argv` (the allennlp command line without the program name) where the
    runtime can serve them, else None."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("archive_file")
    parser.add_argument("input_file")
    parser.add_argument("--output-file")
    parser.add_argument("--weights-file")
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--silent", action="store_true")
    parser.add_argument("--cuda-device", type=int, default=-1)
    parser.add_argument("--use-dataset-reader", action="store_true")
    parser.add_argument("--dataset-reader-choice", default="validation")
    parser.add_argument("--multitask-head")
    parser.add_argument("-o", "--overrides", default="")
    parser.add_argument("--predictor")
    parser.add_argument("--predictor-args", default="")
    parser.add_argument("--file-friendly-logging", action="store_true")
    parser.add_argument("--include-package", action="append", default=[])
    if not argv or argv[0] != "predict":
        return None
    try:
        args, unknown = parser.parse_known_args(argv[1:])
    except SystemExit:  # allennlp's parser says what is wrong
        return None
    try:
        options = json.loads(args.predictor_args) if args.predictor_args.strip() else {}
    except json.JSONDecodeError:
        return None
    if (
        unknown
        or args.overrides.strip()
        or args.weights_file
        or args.multitask_head
        or args.predictor not in SRL_ZOO_PREDICTORS
        or set(args.include_package) - {"srl_zoo"}
        or not isinstance(options, dict)
        or set(options) - RUNTIME_PREDICTOR_ARGS
        or args.batch_size < 1
        or (args.silent and not args.output_file)
    ):
        return None
    args.options = options
    return args


def predict(args: argparse.Namespace) -> bool:
    """Run `srl-zoo predict` with the runtime's labeler; False (nothing done) where it does not build the archive and
    allennlp is installed to do it."""
    import importlib.util

    from srl_zoo.runtime.labeler import load
    from srl_zoo.runtime.load import NotCovered

    try:
        labeler = load(args.archive_file, args.cuda_device, args.batch_size, **args.options)
    except NotCovered:
        if importlib.util.find_spec("allennlp") is None:
            raise
        return False
    logger.info(
        "labeling with the allennlp-free runtime: %s, %s (%s)", args.archive_file, labeler.precision,
        labeler.precision_reason,
    )  # fmt: skip
    outputs: Iterator[tuple[Optional[dict[str, Any]], dict[str, Any]]]
    if args.use_dataset_reader:
        outputs = ((None, output) for output in labeler.label_file(args.input_file, args.batch_size))
    else:
        outputs = _label_lines(labeler, args.input_file)
    if args.output_file is None:
        _write(outputs, None, args.silent)
        return True
    with atomic_write(args.output_file) as output:  # a failed run leaves no partial output
        _write(outputs, output, args.silent)
    return True


def _label_lines(labeler: Any, path: str) -> Iterator[tuple[Optional[dict[str, Any]], dict[str, Any]]]:
    """(request, output) of each non-blank JSON line of `path` ("-": standard input); a line that is not a request
    is a `LabelRunError` naming the file and line before it is labeled."""
    lines = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115  (closed below)
    try:
        chunk: list[tuple[dict[str, Any], Any]] = []
        for number, line in enumerate(lines, start=1):
            if line.isspace() or not line:
                continue
            try:
                value = json.loads(line)
                if not isinstance(value, dict):
                    raise ValueError("expected a JSON object")
                chunk.append((value, labeler.parse_request(value)))
            except json.JSONDecodeError as error:
                where = f"{error.msg} at column {error.colno}"
                raise LabelRunError(f"{path}:{number}: not valid JSON: {where} (nothing was written)") from None
            except ValueError as error:
                raise LabelRunError(f"{path}:{number}: {error} (nothing was written)") from None
            if len(chunk) == LINES_PER_CALL:
                yield from _labeled(labeler, chunk)
                chunk = []
        yield from _labeled(labeler, chunk)
    finally:
        if lines is not sys.stdin:
            lines.close()


def _labeled(labeler: Any, chunk: list[tuple[dict[str, Any], Any]]) -> Iterator[tuple[dict[str, Any], Any]]:
    outputs = labeler.label_requests([request for _, request in chunk]) if chunk else []
    yield from zip([value for value, _ in chunk], outputs, strict=True)


def _write(
    outputs: Iterator[tuple[Optional[dict[str, Any]], dict[str, Any]]], output: Optional[IO[str]], silent: bool
) -> None:
    """Each output as allennlp's predict writes it: a JSON line to `output`, and unless `silent` the input and the
    prediction on standard output."""
    for index, (request, result) in enumerate(outputs):
        line = json.dumps(result) + "\n"
        if not silent:
            if request is not None:
                print(f"input {index}: ", json.dumps(request))
            print("prediction: ", line)
        if output is not None:
            output.write(line)
