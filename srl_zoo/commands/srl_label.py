"""`allennlp srl-label`: label a whole corpus with a trained model, with progress, resumably.

    allennlp srl-label model.tar.gz corpus.txt -o corpus.srl.jsonl [--cuda-device 0] [--output-format json]

Input: plain text, one document per line (split into sentences and words offline), or JSONL
(`.jsonl`/`.json`, or `--format jsonl`) whose lines are `{"text": "..."}` documents or the
`srl` predictor's inputs (`{"sentence": ...}`, `{"tokens": [...], "predicates"?, "heads"?}`), or a
CoNLL-2005, 2012 or 2009 file (`--format conll`, the kind told from the file, or named), whose
sentences are labeled at the file's predicates whatever format the model was trained on; a sentence
then counts as a line, numbered by its first line.
Output, one record per non-blank input line: `json` (`{"line": n, "sentences": [...]}`, sentences as
`srl_zoo.load(...)(text)` gives them, with character offsets; pre-tokenized inputs as the
predictor gives them), `allennlp_models` (`{"line": n, "sentences": [{"verbs", "words"}]}`) or
`conll2005` (props blocks, one per sentence) or `conll2009` (CoNLL-2009 rows, for dependency models).

Resumable: `OUTPUT.progress` is written before the output, and after every chunk of input lines the
output is flushed to disk and the record updated (atomically) with how many input lines and output
bytes are done; a rerun after a kill at any moment cuts the output back to the last complete chunk
and goes on from there, so the output equals that of an uninterrupted run. The record also holds the
input's real path, a SHA-256 of the lines already labeled and both formats: a rerun with another
input, changed lines or other formats is refused. A finished run removes its record; an output
without one (finished, or not written by srl-label) is never written over unless `--overwrite`.
`OUTPUT.lock` makes a second run on the same output fail at once. A line that cannot be labeled
(malformed JSON or fields, bad UTF-8, text that cannot be written, any error while labeling it) is
reported as `FILE:LINE: reason` and skipped (`--on-error stop` stops instead, after writing every
line before it).

Pipelined: `--workers N` processes read, split, tokenize and tensorize the input chunks ahead of the
model (`srl_zoo.labeling.prepared_chunks`; default 1 with a GPU, none on the CPU, where the model
takes >90% of the time and a worker only competes for the cores), and a writer thread renders and
writes each chunk while the model labels the next; the output is the same with any number of workers.

Several processes: under `torchrun --nproc_per_node N [--nnodes M ...]` each process labels every
N-th chunk of the input into `OUTPUT.partR-of-N` (with its own progress record and chunk index, so
each resumes on its own), and process 0 merges the parts, once all are complete, into OUTPUT: byte
for byte what one process writes (`srl_zoo.labeling.shares`). CPU processes use one thread each
unless OMP_NUM_THREADS says otherwise; with `--cuda-device`, process R uses GPU LOCAL_RANK. The
processes talk over torch.distributed (gloo): OUTPUT must be on a file system they all see.
"""

import argparse
import hashlib
import json
import logging
import os
import time
from datetime import timedelta
from typing import Any, Optional

import torch
import torch.distributed as dist
from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError

from srl_zoo.api import Labeler, load
from srl_zoo.commands.verbosity import add_verbosity, plain_lines_above_the_bar
from srl_zoo.data.format_detection import conll_format_of, detect_format
from srl_zoo.labeling.chunks import CONLL_FORMATS, INPUT_FORMATS
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
from srl_zoo.labeling.shares import Share, index_path, merge_parts, part_path
from srl_zoo.nn.precision import add_precision_argument
from srl_zoo.predictors.srl_predictor import OUTPUT_FORMATS

logger = logging.getLogger(__name__)

#: how long the processes of a multi-process run wait for the slowest one before merging
MERGE_WAIT = timedelta(days=7)


@Subcommand.register("srl-label")
class SrlLabel(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Label a corpus (plain text, JSONL or a CoNLL-2005/2012/2009 file) with a trained srl_zoo model, resumably."
        )
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", metavar="MODEL", help="the trained model (model.tar.gz)")
        subparser.add_argument(
            "input_file",
            metavar="INPUT",
            help="plain text (one document per line), JSONL, or a CoNLL-2005, 2012 or 2009 file (maybe .gz)",
        )
        subparser.add_argument(
            "-o",
            "--output",
            "--output-file",
            dest="output_file",
            required=True,
            help="where to write (appended to on resume)",
        )
        subparser.add_argument(
            "--format",
            "--input-format",
            dest="input_format",
            choices=INPUT_FORMATS,
            default=None,
            help="INPUT's format (default: by extension: .jsonl/.json jsonl; .gold_conll/.conll conll, its kind "
            "told from the file; else text)",
        )
        subparser.add_argument("--output-format", choices=OUTPUT_FORMATS, default="json")
        subparser.add_argument("--batch-size", type=int, default=64, help="sentences per model call")
        subparser.add_argument("--chunk-lines", type=int, default=256, help="input lines per saved step")
        subparser.add_argument(
            "--workers",
            type=int,
            default=None,
            help="input-preparing processes beside the model's (0: none; default 1 with a GPU, 0 on the CPU)",
        )
        subparser.add_argument(
            "--cuda-device", type=int, default=-1, help="GPU index, -1 for the CPU (under torchrun: GPU LOCAL_RANK)"
        )
        add_precision_argument(subparser)
        subparser.add_argument(
            "--mixed-precision",
            action="store_const",
            const="bfloat16",
            dest="precision",
            help=argparse.SUPPRESS,  # the old spelling of --precision bfloat16
        )
        subparser.add_argument("--on-error", choices=("skip", "stop"), default="skip", help="for malformed lines")
        subparser.add_argument("--overwrite", action="store_true", help="start over even if OUTPUT exists")
        subparser.add_argument("--no-progress", action="store_true", help="no progress bar")
        add_verbosity(subparser, _run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    plain_lines_above_the_bar("srl_zoo.labeling.part_writer")  # skipped lines: FILE:LINE: reason
    share = _join_torchrun()
    cuda_device = args.cuda_device
    if share.world > 1 and cuda_device >= 0:
        cuda_device = int(os.environ.get("LOCAL_RANK", "0"))
    # the input and the output are checked before the model loads (seconds): a mistake is told at once
    checked_input_format(args.input_file, args.input_format, args.output_format)
    if share.world == 1:
        check_output_free(args.output_file, args.overwrite)
    labeler = load(
        args.archive_file,
        cuda_device=cuda_device,
        batch_size=args.batch_size,
        precision=args.precision,
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
        workers=args.workers if args.workers is not None else int(cuda_device >= 0),
        share=share,
    )
    if share.world > 1:
        summary = _merge_shares(summary, args.output_file, share)
        if share.rank == 0:
            remove_progress(args.output_file)  # merged: nothing to resume
    if share.rank == 0:
        seconds = time.perf_counter() - started
        summary.update(seconds=round(seconds, 1), sentences_per_s=round(summary["sentences"] / max(seconds, 1e-9), 1))
        print(json.dumps(summary))
    if share.world > 1:
        dist.destroy_process_group()


def _join_torchrun() -> Share:
    """This process's share: the whole input, or (started by torchrun, WORLD_SIZE > 1) share RANK of
    WORLD_SIZE, after joining the process group (gloo)."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world == 1:
        return Share()
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    dist.init_process_group("gloo", timeout=MERGE_WAIT)
    return Share(dist.get_rank(), dist.get_world_size())


def _merge_shares(summary: dict[str, Any], output_file: str, share: Share) -> dict[str, Any]:
    """Once every process is done (a barrier), process 0 merges the parts; the counts summed over processes."""
    counts = torch.tensor([summary["lines"], summary["sentences"], summary["skipped"]], dtype=torch.long)
    dist.all_reduce(counts)  # also the barrier: every part is complete (or its process failed) here
    if share.rank == 0 and not summary.get("complete_before"):
        merge_parts(output_file, share.world)
    resumed: list[Optional[int]] = [None] * share.world
    dist.all_gather_object(resumed, summary["resumed_from_line"])  # also the barrier after the merge
    lines, sentences, skipped = counts.tolist()
    totals = {"lines": lines, "sentences": sentences, "skipped": skipped, "resumed_from_line": resumed}
    return {**summary, **totals, "processes": share.world}


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
    workers: int = 0,
    share: Share = Share(),
) -> dict[str, Any]:
    """Label every line of `input_file` into `output_file` (see the module docstring); returns counts
    (`lines`, `sentences`, `skipped`, `resumed_from_line`).

    # Parameters

    labeler : from `srl_zoo.load`.
    input_format : `"text"` or `"jsonl"` (default: `jsonl` for `.jsonl`/`.json` files).
    output_format : `"json"`, `"allennlp_models"`, `"conll2005"` or `"conll2009"`.
    chunk_lines : input lines per saved step (the unit of resumption).
    on_error : `"skip"` (report and go on) or `"stop"` for lines that cannot be labeled.
    overwrite : start over even if the output exists.
    workers : processes that prepare input chunks ahead of the model (0: this process does).
    share : the chunks this process labels, into its part (`srl_zoo.labeling.shares`); the default is
        all of them, into `output_file`. The caller merges the parts (`merge_parts`).
    """
    input_format = checked_input_format(input_file, input_format, output_format)
    if share.world > 1 and _merged_before(output_file, input_file, input_format, output_format, share, overwrite):
        return {**_nothing_to_do(output_file), "complete_before": True}
    part = part_path(output_file, share)
    with OutputLock(part):
        start = _start_point(part, input_file, input_format, output_format, overwrite, share, chunk_lines)
        if start.complete:  # killed between its last chunk and tidying up
            if share.world == 1:
                remove_progress(part)
            return _nothing_to_do(part)
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
            share,
        )
        with PartWriter(part, start, share, counts, output_format, on_error, progress) as writer:
            pinned = labeler.predictor.cuda_device >= 0
            for prepared in prepared_chunks(dataset, workers, pin_memory=pinned):
                writer.submit(prepared, label_prepared(labeler, prepared, output_format, input_file))
        if share.world == 1:
            remove_progress(part)  # finished: nothing to resume (the parts of several processes wait for the merge)
    return counts


def checked_input_format(input_file: str, input_format: Optional[str], output_format: str) -> str:
    """The format `input_file` is read in (`text`, `jsonl` or a CoNLL format), checked against the file's
    first lines before any model loads; `ConfigurationError` (or `ConllFormatError`) saying what to pass."""
    if output_format not in OUTPUT_FORMATS:
        raise ConfigurationError(f"output format must be one of {OUTPUT_FORMATS}, got {output_format!r}")
    named = input_format is None
    input_format = input_format or _format_by_name(input_file)
    if input_format not in INPUT_FORMATS:
        raise ConfigurationError(f"input format must be one of {INPUT_FORMATS}, got {input_format!r}")
    if not os.path.isfile(input_file):
        raise ConfigurationError(f"{input_file}: no such file")
    check_content(input_file, input_format, named)
    return detect_format(input_file) if input_format == "conll" else input_format


def check_output_free(output_file: str, overwrite: bool) -> None:
    """`ConfigurationError` for an output that exists without the progress record of an unfinished run
    (a finished output, or a file srl-zoo label did not write), unless `overwrite`."""
    if not overwrite and os.path.exists(output_file) and read_progress(output_file) is None:
        raise ConfigurationError(
            f"{output_file} exists and no unfinished run of srl-zoo label is recorded for it "
            f"({progress_path(output_file)}): pass --overwrite to label again, or choose another output"
        )


def check_content(input_file: str, input_format: str, named: bool) -> None:
    """`ConfigurationError` when the file's first lines do not fit the format it is read as: CoNLL rows
    taken for text because of the file's name, or text (or another CoNLL format) read as CoNLL."""
    if input_format == "text" and named:
        looks = conll_format_of(input_file)
        if looks is not None:
            raise ConfigurationError(
                f"{input_file} looks like {looks} rows, not text: pass --format conll to label it at its "
                "predicates (or --format text to label its lines as text anyway)"
            )
    elif input_format in CONLL_FORMATS:
        looks = conll_format_of(input_file)
        if looks != input_format:
            seen = f"fit {looks}" if looks else "are not CoNLL rows (plain text?)"
            raise ConfigurationError(
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


def _merged_before(
    output_file: str, input_file: str, input_format: str, output_format: str, share: Share, overwrite: bool
) -> bool:
    """Whether a multi-process run finds its output already merged (nothing to do); refuses an output
    that it would otherwise replace (no progress record, or a one-process run's unfinished one)."""
    record = read_progress(output_file)
    if overwrite:
        if share.rank == 0 and record is not None:
            os.remove(progress_path(output_file))  # the parts start over: an earlier merge no longer stands
        return False
    check_output_free(output_file, overwrite)
    if record is not None and not record.complete:
        raise ConfigurationError(
            f"{output_file} is an unfinished one-process run: resume it with one process, or pass --overwrite"
        )
    if record is not None:
        check_resumable(record, output_file, input_file, input_format, output_format)
    return record is not None


def _start_point(
    output_file: str,
    input_file: str,
    input_format: str,
    output_format: str,
    overwrite: bool,
    share: Share = Share(),
    chunk_lines: int = 0,
) -> Progress:
    """Where this run starts: a checked earlier record to resume, or a fresh record written before
    anything else (so that a kill at any later moment can be resumed)."""
    record = None if overwrite else read_progress(output_file)
    if record is not None:
        chunking = chunk_lines if share.world > 1 else 0
        check_resumable(record, output_file, input_file, input_format, output_format, share.name, chunking)
        written = os.path.getsize(output_file) if os.path.exists(output_file) else 0
        if written < record.output_bytes:
            raise ConfigurationError(
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
        share=share.name,
        chunk_lines=chunk_lines if share.world > 1 else 0,
    )
    write_progress(output_file, fresh)
    for path in (output_file, index_path(output_file)):
        if os.path.exists(path):
            os.remove(path)
    return fresh
