"""The corpus loop of `srl-zoo label`: one input file labeled into one output, resumably: its input and output
checked first, its progress record, its chunks prepared, labeled and written in order. `srl_zoo.commands.srl_label`
adds the command line around it (and `--ray`, `srl_zoo.labeling.ray_corpus`, the same over Ray actors).
"""

import hashlib
import logging
import os
import zlib
from typing import Any, Optional

from srl_zoo.data.formats.conll_kind import conll_format_of, detect_format
from srl_zoo.data.formats.io_utils import open_binary
from srl_zoo.data.formats.output_formats import OUTPUT_FORMATS
from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.labeling.chunks import CONLL_FORMATS, INPUT_FORMATS, MAX_LINE_CHARACTERS
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.labeled_chunks import label_prepared
from srl_zoo.labeling.part_writer import PartWriter
from srl_zoo.labeling.prepared_chunks import PreparedChunks, prepared_chunks
from srl_zoo.labeling.progress import (
    OutputLock,
    Progress,
    check_resumable,
    progress_path,
    read_progress,
    remove_progress,
    write_progress,
)

logger = logging.getLogger(__name__)


def label_corpus(
    labeler: TextLabeler,
    input_file: str,
    output_file: str,
    input_format: Optional[str] = None,
    output_format: str = "json",
    chunk_lines: int = 256,
    on_error: str = "skip",
    overwrite: bool = False,
    progress: bool = True,
    workers: int = 0,
    max_line_characters: int = MAX_LINE_CHARACTERS,
) -> dict[str, Any]:
    """Label every line of `input_file` into `output_file` (see the module docstring); returns counts
    (`lines`, `sentences`, `skipped`, `resumed_from_line`).

    # Parameters

    labeler : a `TextLabeler`: what `srl_zoo.load` gives (the runtime's or the allennlp one).
    input_format : `"text"` or `"jsonl"` (default: `jsonl` for `.jsonl`/`.json` files).
    output_format : `"json"`, `"allennlp_models"`, `"conll2005"` or `"conll2009"`.
    chunk_lines : input lines per saved step (the unit of resumption).
    on_error : `"skip"` (report and go on) or `"stop"` for lines that cannot be labeled.
    overwrite : start over even if the output exists.
    workers : processes that prepare input chunks ahead of the model (0: this process does).
    max_line_characters : a longer input line is skipped as one that cannot be labeled.

    A run in which every line was skipped (a file that is not text, say) leaves no output and ends in a
    `LabelRunError` naming how many lines and the first; one that cannot write (a full disk, a vanished folder)
    ends in a `LabelRunError` naming the output, its progress kept for the same command to resume.
    """
    input_format = checked_input_format(input_file, input_format, output_format)
    with OutputLock(output_file):
        start = _start_point(output_file, input_file, input_format, output_format, overwrite)
        if start.complete:  # killed between its last chunk and tidying up
            remove_progress(output_file)
            return _nothing_to_do(output_file)
        resumed = start.lines_consumed + 1 if start.lines_consumed else None
        counts = {"lines": 0, "sentences": 0, "skipped": 0, "resumed_from_line": resumed}
        dataset = PreparedChunks(
            labeler,
            input_file,
            input_format,
            start.lines_consumed,
            start.chunks_consumed,
            chunk_lines,
            labeler.batch_size,
            max_line_characters,
        )
        with PartWriter(output_file, start, counts, output_format, on_error, progress) as writer:
            for prepared in prepared_chunks(dataset, workers, pin_memory=labeler.on_gpu):
                writer.submit(prepared, label_prepared(labeler, prepared, output_format, input_file))
        remove_progress(output_file)  # finished: nothing to resume
    if counts["skipped"] and not counts["lines"] and resumed is None and os.path.getsize(output_file) == 0:
        os.remove(output_file)
        raise LabelRunError(
            f"{input_file}: nothing could be labeled: all {counts['skipped']:,} lines were skipped, the first "
            f"{writer.first_skipped}"
        )
    return counts


def checked_input_format(input_file: str, input_format: Optional[str], output_format: str) -> str:
    """The format `input_file` is read in (`text`, `jsonl` or a CoNLL format), checked against the file's
    first lines before any model loads; `LabelRunError` (or `ConllFormatError`) saying what to pass."""
    if output_format not in OUTPUT_FORMATS:
        raise LabelRunError(f"output format must be one of {tuple(OUTPUT_FORMATS)}, got {output_format!r}")
    named = input_format is None
    input_format = input_format or _format_by_name(input_file)
    if input_format not in INPUT_FORMATS:
        raise LabelRunError(f"input format must be one of {INPUT_FORMATS}, got {input_format!r}")
    if not os.path.isfile(input_file):
        raise LabelRunError(f"{input_file}: no such file")
    check_text_file(input_file)
    check_content(input_file, input_format, named)
    return detect_format(input_file) if input_format == "conll" else input_format


def check_output_free(output_file: str, overwrite: bool) -> None:
    """`LabelRunError` for an output that exists without the progress record of an unfinished run
    (a finished output, or a file srl-zoo label did not write), unless `overwrite`."""
    if not overwrite and os.path.exists(output_file) and read_progress(output_file) is None:
        raise LabelRunError(
            f"{output_file} exists and no unfinished run of srl-zoo label is recorded for it "
            f"({progress_path(output_file)}): pass --overwrite to label again, or choose another output"
        )


#: how much of an input is read to tell whether it is text
TEXT_PROBE_BYTES = 64 * 1024


def check_text_file(input_file: str) -> None:
    """`LabelRunError` naming the line of the first NUL byte in the file's first 64 KiB: a binary file, not text
    (a text line that is not UTF-8 is skipped as it comes, with its line)."""
    with open_binary(input_file) as handle:
        try:
            start = handle.read(TEXT_PROBE_BYTES)
        except (OSError, EOFError, zlib.error) as error:
            raise LabelRunError(f"{input_file}: cannot be read as text: {error}") from None
    if b"\x00" in start:
        line = start[: start.index(b"\x00")].count(b"\n") + 1
        raise LabelRunError(
            f"{input_file}:{line}: not a text file (a NUL byte): srl-zoo label reads UTF-8 text, JSONL or CoNLL"
        )


def check_content(input_file: str, input_format: str, named: bool) -> None:
    """`LabelRunError` when the file's first lines do not fit the format it is read as: CoNLL rows
    taken for text because of the file's name, or text (or another CoNLL format) read as CoNLL."""
    if input_format == "text" and named:
        looks = conll_format_of(input_file)
        if looks is not None:
            raise LabelRunError(
                f"{input_file} looks like {looks} rows, not text: pass --format conll to label it at its "
                "predicates (or --format text to label its lines as text anyway)"
            )
    elif input_format in CONLL_FORMATS:
        looks = conll_format_of(input_file)
        if looks != input_format:
            seen = f"fit {looks}" if looks else "are not CoNLL rows (plain text?)"
            raise LabelRunError(
                f"{input_file} does not look like {input_format}: its first lines {seen}; "
                f"pass --format {looks or 'text'}"
            )


def _format_by_name(input_file: str) -> str:
    """`jsonl` for `.jsonl`/`.json`, `conll` for `.gold_conll`/`.conll` (maybe `.gz`), else `text`."""
    name = input_file[: -len(".gz")] if input_file.endswith(".gz") else input_file
    if name.endswith((".jsonl", ".json")):
        return "jsonl"
    return "conll" if name.endswith(("_conll", ".conll")) else "text"


def _nothing_to_do(output_file: str) -> dict[str, Any]:
    logger.info("%s is complete (see %s); nothing to do", output_file, progress_path(output_file))
    return {"lines": 0, "sentences": 0, "skipped": 0, "resumed_from_line": None, "complete": True}


def _start_point(
    output_file: str,
    input_file: str,
    input_format: str,
    output_format: str,
    overwrite: bool,
) -> Progress:
    """Where this run starts: a checked earlier record to resume, or a fresh record written before
    anything else (so that a kill at any later moment can be resumed)."""
    record = None if overwrite else read_progress(output_file)
    if record is not None:
        check_resumable(record, output_file, input_file, input_format, output_format)
        written = os.path.getsize(output_file) if os.path.exists(output_file) else 0
        if written < record.output_bytes:
            raise LabelRunError(
                f"{output_file} holds {written} bytes but {progress_path(output_file)} records "
                f"{record.output_bytes}: the output was changed; pass --overwrite to start over"
            )
        return record
    check_output_free(output_file, overwrite)
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
