"""`allennlp srl-label`: label a whole corpus with a trained model, with progress, resumably.

    allennlp srl-label model.tar.gz corpus.txt -o corpus.srl.jsonl [--cuda-device 0] [--output-format json]

Input: plain text, one document per line (split into sentences and words offline), or JSONL
(`.jsonl`/`.json`, or `--input-format jsonl`) whose lines are `{"text": "..."}` documents or the
`srl` predictor's inputs (`{"sentence": ...}`, `{"tokens": [...], "predicates"?, "heads"?}`).
Output, one record per input line: `json` (`{"line": n, "sentences": [...]}`, sentences as
`srl_zoo.load(...)(text)` gives them, with character offsets; pre-tokenized inputs as the
predictor gives them), `allennlp_models` (`{"line": n, "sentences": [{"verbs", "words"}]}`) or
`conll2005` (props blocks, one per sentence) or `conll2009` (CoNLL-2009 rows, for dependency models).

Resumable: after every chunk of input lines the output is flushed to disk and `OUTPUT.progress`
records how many input lines and output bytes are done; a rerun after an interruption cuts the
output back to the last complete chunk and goes on from there, so the output equals that of an
uninterrupted run. A malformed input line is reported with its line number and skipped
(`--on-error stop` stops instead, after writing every line before it).
"""

import argparse
import json
import logging
import os
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from tqdm import tqdm

from srl_zoo.api import Labeler, load
from srl_zoo.data.formats.io_utils import open_binary
from srl_zoo.predictors.allennlp_models_format import allennlp_models_json
from srl_zoo.predictors.srl_predictor import conll2005_lines, conll2009_lines

logger = logging.getLogger(__name__)

OUTPUT_FORMATS = ("json", "allennlp_models", "conll2005", "conll2009")
INPUT_FORMATS = ("text", "jsonl")


class BadLine(ValueError):
    """An input line that cannot be labeled; the message names the file and line."""


@Subcommand.register("srl-label")
class SrlLabel(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Label a corpus (plain text or JSONL) with a trained srl_zoo model, resumably."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", help="the trained model (model.tar.gz)")
        subparser.add_argument("input_file", help="plain text (one document per line) or JSONL")
        subparser.add_argument("-o", "--output-file", required=True, help="where to write (appended to on resume)")
        subparser.add_argument("--input-format", choices=INPUT_FORMATS, default=None, help="default: by extension")
        subparser.add_argument("--output-format", choices=OUTPUT_FORMATS, default="json")
        subparser.add_argument("--batch-size", type=int, default=64, help="sentences per model call")
        subparser.add_argument("--chunk-lines", type=int, default=256, help="input lines per saved step")
        subparser.add_argument("--cuda-device", type=int, default=-1)
        subparser.add_argument("--mixed-precision", action="store_true", help="bfloat16 autocast of the model")
        subparser.add_argument("--on-error", choices=("skip", "stop"), default="skip", help="for malformed lines")
        subparser.add_argument("--overwrite", action="store_true", help="start over even if OUTPUT exists")
        subparser.add_argument("--no-progress", action="store_true", help="no progress bar")
        subparser.set_defaults(func=_run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    labeler = load(
        args.archive_file,
        cuda_device=args.cuda_device,
        batch_size=args.batch_size,
        mixed_precision=args.mixed_precision,
    )
    started = time.perf_counter()
    summary = label_corpus(
        labeler,
        args.input_file,
        args.output_file,
        input_format=args.input_format,
        output_format=args.output_format,
        chunk_lines=args.chunk_lines,
        on_error=args.on_error,
        overwrite=args.overwrite,
        progress=not args.no_progress,
    )
    seconds = time.perf_counter() - started
    summary.update(seconds=round(seconds, 1), sentences_per_s=round(summary["sentences"] / max(seconds, 1e-9), 1))
    print(json.dumps(summary))


def label_corpus(
    labeler: Labeler,
    input_file: str,
    output_file: str,
    input_format: Optional[str] = None,
    output_format: str = "json",
    chunk_lines: int = 256,
    on_error: str = "skip",
    overwrite: bool = False,
    progress: bool = True,
) -> Dict[str, Any]:
    """Label every line of `input_file` into `output_file` (see the module docstring); returns counts
    (`lines`, `sentences`, `skipped`, `resumed_from_line`).

    # Parameters

    labeler : from `srl_zoo.load`.
    input_format : `"text"` or `"jsonl"` (default: `jsonl` for `.jsonl`/`.json` files).
    output_format : `"json"`, `"allennlp_models"` or `"conll2005"`.
    chunk_lines : input lines per saved step (the unit of resumption).
    on_error : `"skip"` (report and go on) or `"stop"` for malformed lines.
    overwrite : start over even if the output exists.
    """
    if output_format not in OUTPUT_FORMATS:
        raise ConfigurationError(f"output format must be one of {OUTPUT_FORMATS}, got {output_format!r}")
    input_format = input_format or ("jsonl" if input_file.endswith((".jsonl", ".json")) else "text")
    if input_format not in INPUT_FORMATS:
        raise ConfigurationError(f"input format must be one of {INPUT_FORMATS}, got {input_format!r}")
    if not os.path.isfile(input_file):
        raise ConfigurationError(f"{input_file}: no such file")
    done_lines, done_bytes = _resume_point(output_file, overwrite)
    if done_lines < 0:
        logger.info("%s is complete (see %s); nothing to do", output_file, _progress_file(output_file))
        return {"lines": 0, "sentences": 0, "skipped": 0, "resumed_from_line": None, "complete": True}
    counts = {"lines": 0, "sentences": 0, "skipped": 0, "resumed_from_line": done_lines + 1 if done_lines else None}
    with open(output_file, "ab") as sink:
        sink.truncate(done_bytes)  # drop whatever an interrupted run wrote after its last saved chunk
        bar = tqdm(desc="labeling", unit=" sentences", disable=not progress, dynamic_ncols=True)
        line_number = done_lines
        for chunk in _chunks(input_file, done_lines, chunk_lines):
            requests, error = [], None
            for line_number, line in chunk:
                try:
                    if isinstance(line, BadLine):
                        raise line
                    requests.append((line_number, _parse(line, input_format, labeler, input_file, line_number)))
                except BadLine as bad:
                    if on_error == "stop":
                        error = bad
                        break
                    logger.warning("skipping %s", bad)
                    counts["skipped"] += 1
            records, sentences = _label(labeler, requests, output_format)
            sink.write(records.encode("utf-8"))
            sink.flush()
            os.fsync(sink.fileno())
            counts["lines"] += len(requests)
            counts["sentences"] += sentences
            bar.update(sentences)
            if error is not None:
                _save_progress(output_file, line_number - 1, sink.tell(), input_file)
                raise error
            _save_progress(output_file, line_number, sink.tell(), input_file)
        bar.close()
        _save_progress(output_file, -1, sink.tell(), input_file)
    return counts


Request = Tuple[str, Any]  # ("text", document) or ("tokens", predictor input)


def _parse(line: str, input_format: str, labeler: Labeler, path: str, number: int) -> Request:
    """What one input line asks for; `BadLine` naming the file and line when malformed."""
    if input_format == "text":
        return ("text", line.rstrip("\n"))
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadLine(f"{path}:{number}: not valid JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(value, dict):
        raise BadLine(f"{path}:{number}: expected a JSON object, got {type(value).__name__}")
    if "text" in value or "sentence" in value:
        text = value.get("text", value.get("sentence"))
        if not isinstance(text, str):
            raise BadLine(f"{path}:{number}: 'text' must be a string")
        return ("text", text)
    try:
        labeler.predictor._request(value)  # the predictor's own checks of tokens, predicates, heads
    except ValueError as error:
        raise BadLine(f"{path}:{number}: {error}") from None
    return ("tokens", value)


def _label(labeler: Labeler, requests: List[Tuple[int, Request]], output_format: str) -> Tuple[str, int]:
    """The output text of a chunk's requests and its number of sentences."""
    documents = {i: request[1] for i, (_, request) in enumerate(requests) if request[0] == "text"}
    by_request = dict(zip(documents, labeler.label_texts(list(documents.values()), labeler.batch_size)))
    tokenized = [(i, request[1]) for i, (_, request) in enumerate(requests) if request[0] == "tokens"]
    if tokenized:
        outputs = labeler.predictor.predict_batch_json([r for _, r in tokenized])
        for (i, _), output in zip(tokenized, outputs):
            by_request[i] = [output]
    pieces, sentences = [], 0
    for i, (line_number, _) in enumerate(requests):
        results = by_request[i]
        sentences += len(results)
        pieces.append(_render(line_number, results, output_format))
    return "".join(pieces), sentences


def _render(line_number: int, sentences: List[Dict[str, Any]], output_format: str) -> str:
    if output_format in ("conll2005", "conll2009"):
        lines = conll2005_lines if output_format == "conll2005" else conll2009_lines
        return "".join("\n".join(lines(sentence)) + "\n\n" for sentence in sentences)
    if output_format == "allennlp_models":
        sentences = [allennlp_models_json(sentence) for sentence in sentences]
    return json.dumps({"line": line_number, "sentences": sentences}, ensure_ascii=False) + "\n"


Line = Union[str, BadLine]  # the text of a line, or why it cannot be read


def _chunks(path: str, skip: int, size: int) -> Iterator[List[Tuple[int, Line]]]:
    """Numbered (1-based) lines after the first `skip`, `size` at a time (gzip-compressed if the name
    ends in `.gz`); blank lines are skipped, a line that is not UTF-8 comes as a `BadLine`."""
    chunk: List[Tuple[int, Line]] = []
    with open_binary(path) as handle:
        for number, raw in enumerate(handle, start=1):
            if number <= skip or not raw.strip():
                continue
            try:
                line: Line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as error:
                line = BadLine(f"{path}:{number}: invalid UTF-8 at byte {error.start} of the line")
            chunk.append((number, line))
            if len(chunk) == size:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def _progress_file(output_file: str) -> str:
    return output_file + ".progress"


def _resume_point(output_file: str, overwrite: bool) -> Tuple[int, int]:
    """(input lines done, output bytes to keep): (0, 0) for a fresh start, (-1, _) when complete."""
    progress = _progress_file(output_file)
    if overwrite or not os.path.exists(output_file):
        if os.path.exists(progress):
            os.remove(progress)
        if overwrite and os.path.exists(output_file):
            os.remove(output_file)
        return 0, 0
    if not os.path.exists(progress):
        raise ConfigurationError(
            f"{output_file} exists but {progress} does not, so where to resume is unknown: "
            "pass --overwrite to start over, or another output file"
        )
    with open(progress, encoding="utf-8") as handle:
        state = json.load(handle)
    return int(state["lines_done"]), int(state["output_bytes"])


def _save_progress(output_file: str, lines_done: int, output_bytes: int, input_file: str) -> None:
    """Atomically record how far the run got (lines_done -1: complete)."""
    progress = _progress_file(output_file)
    temporary = progress + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump({"input_file": input_file, "lines_done": lines_done, "output_bytes": output_bytes}, handle)
    os.replace(temporary, progress)
