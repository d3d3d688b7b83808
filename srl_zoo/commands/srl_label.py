"""`allennlp srl-label`: label a whole corpus with a trained model, with progress, resumably.

    allennlp srl-label model.tar.gz corpus.txt -o corpus.srl.jsonl [--cuda-device 0] [--output-format json]

Input: plain text, one document per line (split into sentences and words offline), or JSONL
(`.jsonl`/`.json`, or `--input-format jsonl`) whose lines are `{"text": "..."}` documents or the
`srl` predictor's inputs (`{"sentence": ...}`, `{"tokens": [...], "predicates"?, "heads"?}`).
Output, one record per non-blank input line: `json` (`{"line": n, "sentences": [...]}`, sentences as
`srl_zoo.load(...)(text)` gives them, with character offsets; pre-tokenized inputs as the
predictor gives them), `allennlp_models` (`{"line": n, "sentences": [{"verbs", "words"}]}`) or
`conll2005` (props blocks, one per sentence) or `conll2009` (CoNLL-2009 rows, for dependency models).

Resumable: `OUTPUT.progress` is written before the output, and after every chunk of input lines the
output is flushed to disk and the record updated (atomically) with how many input lines and output
bytes are done; a rerun after a kill at any moment cuts the output back to the last complete chunk
and goes on from there, so the output equals that of an uninterrupted run. The record also holds the
input's real path, a SHA-256 of the lines already labeled and both formats: a rerun with another
input, changed lines or other formats is refused. `OUTPUT.lock` makes a second run on the same output
fail at once. A line that cannot be labeled (malformed JSON or fields, bad UTF-8, text that cannot be
written, any error while labeling it) is reported as `FILE:LINE: reason` and skipped (`--on-error
stop` stops instead, after writing every line before it).
"""

import argparse
import hashlib
import json
import logging
import os
import time
from dataclasses import asdict, dataclass
from typing import Any, BinaryIO, Dict, Iterator, List, Optional, Tuple, Union

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from tqdm import tqdm

from srl_zoo.api import Labeler, load
from srl_zoo.commands.corpus_progress import (
    OutputLock,
    Progress,
    check_resumable,
    numbered_raw_lines,
    prefix_sha256,
    progress_path,
    read_progress,
    write_progress,
)
from srl_zoo.commands.verbosity import add_verbosity
from srl_zoo.predictors.allennlp_models_format import allennlp_models_json
from srl_zoo.predictors.srl_predictor import OUTPUT_FORMATS, conll2005_lines, conll2009_lines

logger = logging.getLogger(__name__)

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
        add_verbosity(subparser, _run)
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
    output_format : `"json"`, `"allennlp_models"`, `"conll2005"` or `"conll2009"`.
    chunk_lines : input lines per saved step (the unit of resumption).
    on_error : `"skip"` (report and go on) or `"stop"` for lines that cannot be labeled.
    overwrite : start over even if the output exists.
    """
    if output_format not in OUTPUT_FORMATS:
        raise ConfigurationError(f"output format must be one of {OUTPUT_FORMATS}, got {output_format!r}")
    input_format = input_format or ("jsonl" if input_file.endswith((".jsonl", ".json")) else "text")
    if input_format not in INPUT_FORMATS:
        raise ConfigurationError(f"input format must be one of {INPUT_FORMATS}, got {input_format!r}")
    if not os.path.isfile(input_file):
        raise ConfigurationError(f"{input_file}: no such file")
    with OutputLock(output_file):
        start = _start_point(output_file, input_file, input_format, output_format, overwrite)
        if start.complete:
            logger.info("%s is complete (see %s); nothing to do", output_file, progress_path(output_file))
            return {"lines": 0, "sentences": 0, "skipped": 0, "resumed_from_line": None, "complete": True}
        resumed = start.lines_consumed + 1 if start.lines_consumed else None
        counts = {"lines": 0, "sentences": 0, "skipped": 0, "resumed_from_line": resumed}
        with open(output_file, "ab") as sink:
            sink.truncate(start.output_bytes)  # drop whatever an interrupted run wrote after its last saved chunk
            bar = tqdm(desc="labeling", unit=" sentences", disable=not progress, dynamic_ncols=True)
            for chunk in _chunks(input_file, start.lines_consumed, chunk_lines):
                pieces: List[bytes] = []
                for number, outcome in _label_chunk(labeler, chunk.lines, input_format, output_format, input_file):
                    if isinstance(outcome, BadLine):
                        if on_error == "stop":
                            _append_output(sink, b"".join(pieces))
                            done = prefix_sha256(input_file, number - 1)
                            _save_progress(output_file, start, number - 1, done, False, sink)
                            raise outcome
                        logger.warning("skipping %s", outcome)
                        counts["skipped"] += 1
                        continue
                    record, sentences = outcome
                    pieces.append(record)
                    counts["lines"] += 1
                    counts["sentences"] += sentences
                    bar.update(sentences)
                _append_output(sink, b"".join(pieces))
                _save_progress(output_file, start, chunk.consumed, chunk.sha256, chunk.at_end, sink)
            bar.close()
    return counts


def _start_point(output_file: str, input_file: str, input_format: str, output_format: str, overwrite: bool) -> Progress:
    """Where this run starts: a checked earlier record to resume, or a fresh record written before
    anything else (so that a kill at any later moment can be resumed)."""
    record = None if overwrite else read_progress(output_file)
    if record is not None:
        check_resumable(record, output_file, input_file, input_format, output_format)
        written = os.path.getsize(output_file) if os.path.exists(output_file) else 0
        if written < record.output_bytes:
            raise ConfigurationError(
                f"{output_file} holds {written} bytes but {progress_path(output_file)} records "
                f"{record.output_bytes}: the output was changed; pass --overwrite to start over"
            )
        return record
    if not overwrite and os.path.exists(output_file):
        raise ConfigurationError(
            f"{output_file} exists but {progress_path(output_file)} does not, so where to resume is unknown: "
            "pass --overwrite to start over, or another output file"
        )
    fresh = Progress(
        input_file=os.path.realpath(input_file),
        input_format=input_format,
        output_format=output_format,
        lines_consumed=0,
        consumed_sha256=hashlib.sha256().hexdigest(),
        output_bytes=0,
    )
    write_progress(output_file, fresh)
    if os.path.exists(output_file):
        os.remove(output_file)
    return fresh


def _append_output(sink: BinaryIO, data: bytes) -> None:
    """Append to the output and make it durable before the progress record says so."""
    sink.write(data)
    sink.flush()
    os.fsync(sink.fileno())


def _save_progress(
    output_file: str, run: Progress, lines_consumed: int, consumed_sha256: str, complete: bool, sink: BinaryIO
) -> None:
    """Record that `run`'s first `lines_consumed` input lines are in the output (written up to `sink`'s position)."""
    changes = {
        "lines_consumed": lines_consumed,
        "consumed_sha256": consumed_sha256,
        "output_bytes": sink.tell(),
        "complete": complete,
        "input_size": os.path.getsize(run.input_file),
    }
    write_progress(output_file, Progress(**{**asdict(run), **changes}))


Request = Tuple[str, Any]  # ("text", document) or ("tokens", predictor input)
Outcome = Union[Tuple[bytes, int], "BadLine"]  # (the line's output record, its sentences) or why it failed


def _label_chunk(
    labeler: Labeler, lines: List[Tuple[int, "Line"]], input_format: str, output_format: str, path: str
) -> List[Tuple[int, Outcome]]:
    """Each line's outcome, in order: any exception while parsing, labeling or writing one line becomes
    that line's `BadLine` (a chunk that fails as a whole is labeled again line by line to find it)."""
    outcomes: Dict[int, Outcome] = {}
    requests: List[Tuple[int, Request]] = []
    for number, line in lines:
        try:
            if isinstance(line, BadLine):
                raise line
            requests.append((number, _parse(line, input_format, labeler, path, number)))
        except Exception as error:
            outcomes[number] = _bad_line(error, path, number)
    try:
        labeled = _label(labeler, requests, output_format)
    except Exception:
        labeled = []
        for number, request in requests:
            try:
                labeled.extend(_label(labeler, [(number, request)], output_format))
            except Exception as error:
                outcomes[number] = _bad_line(error, path, number)
    for number, record, sentences in labeled:
        outcomes[number] = (record, sentences)
    return sorted(outcomes.items())


def _bad_line(error: Exception, path: str, number: int) -> "BadLine":
    if isinstance(error, BadLine):
        return error
    reason = (str(error).strip().splitlines() or [""])[0][:300]
    return BadLine(f"{path}:{number}: {type(error).__name__}{': ' + reason if reason else ''}")


def _parse(line: str, input_format: str, labeler: Labeler, path: str, number: int) -> Request:
    """What one input line asks for; `BadLine` naming the file and line when malformed."""
    if input_format == "text":
        return ("text", line.rstrip("\n"))
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadLine(f"{path}:{number}: not valid JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise BadLine(f"{path}:{number}: JSON nested too deeply") from None
    if not isinstance(value, dict):
        raise BadLine(f"{path}:{number}: expected a JSON object, got {type(value).__name__}")
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        raise BadLine(f"{path}:{number}: not valid Unicode text ({error.reason}: a lone surrogate escape?)") from None
    if "text" in value or "sentence" in value:
        text = value.get("text", value.get("sentence"))
        if not isinstance(text, str):
            raise BadLine(f"{path}:{number}: 'text' must be a string")
        return ("text", text)
    try:
        labeler.check_request(value)  # the predictor's own checks of tokens, predicates, heads
    except ValueError as error:
        raise BadLine(f"{path}:{number}: {error}") from None
    return ("tokens", value)


def _label(labeler: Labeler, requests: List[Tuple[int, Request]], output_format: str) -> List[Tuple[int, bytes, int]]:
    """`(line number, output record as UTF-8, number of sentences)` of each request (encoding inside, so
    that a record that cannot be written fails its line like any other labeling error)."""
    documents = {i: request[1] for i, (_, request) in enumerate(requests) if request[0] == "text"}
    by_request = dict(zip(documents, labeler.label_texts(list(documents.values()), labeler.batch_size)))
    tokenized = [(i, request[1]) for i, (_, request) in enumerate(requests) if request[0] == "tokens"]
    if tokenized:
        for (i, _), output in zip(tokenized, labeler.label_tokenized([r for _, r in tokenized])):
            by_request[i] = [output]
    return [
        (line_number, _render(line_number, by_request[i], output_format).encode("utf-8"), len(by_request[i]))
        for i, (line_number, _) in enumerate(requests)
    ]


def _render(line_number: int, sentences: List[Dict[str, Any]], output_format: str) -> str:
    if output_format in ("conll2005", "conll2009"):
        lines = conll2005_lines if output_format == "conll2005" else conll2009_lines
        return "".join("\n".join(lines(sentence)) + "\n\n" for sentence in sentences)
    if output_format == "allennlp_models":
        sentences = [allennlp_models_json(sentence) for sentence in sentences]
    return json.dumps({"line": line_number, "sentences": sentences}, ensure_ascii=False) + "\n"


Line = Union[str, BadLine]  # the text of a line, or why it cannot be read


@dataclass
class Chunk:
    """Numbered input lines to label, and how far into the input they reach: `consumed` raw lines
    (blank ones included) whose bytes hash to `sha256`; `at_end` for the input's last chunk."""

    lines: List[Tuple[int, Line]]
    consumed: int
    sha256: str
    at_end: bool


def _chunks(path: str, skip: int, size: int) -> Iterator[Chunk]:
    """The non-blank lines after the first `skip`, `size` at a time, and a last (maybe empty) chunk
    at the end of the input; a line that is not UTF-8 comes as a `BadLine`."""
    digest = hashlib.sha256()
    lines: List[Tuple[int, Line]] = []
    number = 0
    for number, raw in numbered_raw_lines(path):
        digest.update(raw)
        if number <= skip or not raw.strip():
            continue
        try:
            line: Line = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as error:
            line = BadLine(f"{path}:{number}: invalid UTF-8 at byte {error.start} of the line")
        lines.append((number, line))
        if len(lines) == size:
            yield Chunk(lines, number, digest.hexdigest(), at_end=False)
            lines = []
    yield Chunk(lines, max(number, skip), digest.hexdigest(), at_end=True)
