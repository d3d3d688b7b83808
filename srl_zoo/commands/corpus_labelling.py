"""`srl-zoo label` without allennlp: its command line and its run (`srl_zoo.commands.srl_label` has the module
docstring: inputs, outputs, resumption, workers, torchrun). The allennlp subcommand `srl-label` and the console
script's allennlp-free path (`srl_zoo.cli`) both build their parser here and call `run`."""

import argparse
import json
import os
import time
from datetime import timedelta
from typing import Any, Optional

import torch
import torch.distributed as dist

from srl_zoo.commands.verbosity import plain_lines_above_the_bar
from srl_zoo.data.formats.output_formats import OUTPUT_FORMATS
from srl_zoo.labelers import load_labeler
from srl_zoo.labeling.chunks import INPUT_FORMATS, MAX_LINE_CHARACTERS
from srl_zoo.labeling.corpus import check_output_free, checked_input_format, label_corpus
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.progress import remove_progress
from srl_zoo.labeling.shares import Share, merge_parts
from srl_zoo.nn.precision import add_precision_argument

#: how long the processes of a multi-process run wait for the slowest one before merging
MERGE_WAIT = timedelta(days=7)

DESCRIPTION = (
    "Label a corpus (plain text, JSONL or a CoNLL-2005/2012/2009 file) with a trained srl_zoo model, resumably."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Give `parser` the arguments of `srl-zoo label` (all but `--verbose`)."""
    parser.add_argument("archive_file", metavar="MODEL", help="the trained model (model.tar.gz)")
    parser.add_argument(
        "input_file",
        metavar="INPUT",
        help="plain text (one document per line), JSONL, or a CoNLL-2005, 2012 or 2009 file (maybe .gz)",
    )
    parser.add_argument(
        "-o",
        "--output",
        "--output-file",
        dest="output_file",
        required=True,
        help="where to write (appended to on resume)",
    )
    parser.add_argument(
        "--format",
        "--input-format",
        dest="input_format",
        choices=INPUT_FORMATS + ("parquet",),
        default=None,
        help="INPUT's format (default: by extension: .jsonl/.json jsonl; .gold_conll/.conll conll, its kind "
        "told from the file; .parquet parquet, with --ray; else text)",
    )
    parser.add_argument(
        "--output-format",
        choices=list(OUTPUT_FORMATS) + ["parquet"],
        default="json",
        help="json (default), allennlp_models, conll2005, conll2009; with --ray: json, allennlp_models or parquet",
    )
    parser.add_argument("--batch-size", type=int, default=64, help="sentences per model call")
    parser.add_argument("--chunk-lines", type=int, default=256, help="input lines per saved step")
    parser.add_argument(
        "--max-line-characters",
        type=int,
        default=MAX_LINE_CHARACTERS,
        help=f"a longer input line is skipped, told with its line (default {MAX_LINE_CHARACTERS:,})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="input-preparing processes beside the model's (0: none; default 1 with a GPU, 0 on the CPU)",
    )
    parser.add_argument(
        "--cuda-device", type=int, default=-1, help="GPU index, -1 for the CPU (under torchrun: GPU LOCAL_RANK)"
    )
    add_precision_argument(parser)
    parser.add_argument(
        "--mixed-precision",
        action="store_const",
        const="bfloat16",
        dest="precision",
        help=argparse.SUPPRESS,  # the old spelling of --precision bfloat16
    )
    parser.add_argument(
        "--min-score",
        type=float,
        default=0.0,
        help="leave out arguments the model scores below this probability (0, the default, keeps every one)",
    )
    parser.add_argument("--on-error", choices=("skip", "stop"), default="skip", help="for malformed lines")
    parser.add_argument("--overwrite", action="store_true", help="start over even if OUTPUT exists")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    ray = parser.add_argument_group("on Ray (pip install 'srl_zoo[ray]'; docs/labeling.md, \"Corpora on a cluster\")")
    ray.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="label on Ray: a local Ray of this machine, or the cluster at ADDRESS ('auto': the one `ray start` "
        "joined). INPUT may be a folder or a URI (text, JSONL or Parquet); OUTPUT is a folder of one file per block",
    )
    ray.add_argument(
        "--processes", type=int, default=None, help="Ray actors, each a model (default: the cluster's CPUs / --threads)"
    )
    ray.add_argument("--threads", type=int, default=1, help="torch threads (CPUs) of each actor (default 1)")
    ray.add_argument(
        "--block-lines", type=int, default=10_000, help="input lines per block, the unit of work (default 10,000)"
    )


def run(args: argparse.Namespace) -> None:
    """Label `args.input_file` into `args.output_file` as the command line says; prints the counts as JSON."""
    if args.ray is not None:
        _run_on_ray(args)
        return
    if args.output_format == "parquet" or args.input_format == "parquet":
        raise LabelRunError("Parquet is read and written by a run on Ray: add --ray (pip install 'srl_zoo[ray]')")
    plain_lines_above_the_bar("srl_zoo.labeling.part_writer")  # skipped lines: FILE:LINE: reason
    share = _join_torchrun()
    cuda_device = args.cuda_device
    if share.world > 1 and cuda_device >= 0:
        cuda_device = int(os.environ.get("LOCAL_RANK", "0"))
    # the input and the output are checked before the model loads (seconds): a mistake is told at once
    checked_input_format(args.input_file, args.input_format, args.output_format)
    if share.world == 1:
        check_output_free(args.output_file, args.overwrite)
    labeler = load_labeler(
        args.archive_file,
        cuda_device=cuda_device,
        batch_size=args.batch_size,
        precision=args.precision,
        min_score=args.min_score,
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
        max_line_characters=args.max_line_characters,
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


def _run_on_ray(args: argparse.Namespace) -> None:
    """`srl-zoo label --ray`: the corpus labeled by Ray actors into a folder (`srl_zoo.labeling.ray_corpus`)."""
    try:
        from srl_zoo.labeling.ray_corpus import RayRun, label_corpus_on_ray, summary_line
    except ImportError as error:
        raise LabelRunError(f"--ray needs Ray Data ({error}): pip install 'srl_zoo[ray]'") from None
    from srl_zoo.labeling.blocks import RunSettings

    settings = RunSettings("", args.output_format, args.batch_size, args.max_line_characters)
    ray_run = RayRun(
        address=args.ray or None,
        processes=args.processes,
        threads=args.threads,
        block_lines=args.block_lines,
        precision=args.precision,
        min_score=args.min_score,
        cuda_device=args.cuda_device,
    )
    started = time.perf_counter()
    totals = label_corpus_on_ray(
        args.archive_file,
        args.input_file,
        args.output_file,
        settings,
        ray_run,
        input_format=args.input_format,
        overwrite=args.overwrite,
        progress=not args.no_progress,
    )
    print(summary_line(totals, time.perf_counter() - started))


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
