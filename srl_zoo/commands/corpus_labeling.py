"""`srl-zoo label` without allennlp: its command line and its run (`srl_zoo.commands.srl_label` has the module
docstring: inputs, outputs, resumption, workers, Ray). The allennlp subcommand `srl-label` and the console
script's allennlp-free path (`srl_zoo.cli`) both build their parser here and call `run`."""

import argparse
import json
import sys
import time

from srl_zoo.commands.verbosity import plain_lines_above_the_bar
from srl_zoo.data.formats.output_formats import OUTPUT_FORMATS
from srl_zoo.labelers import load_labeler
from srl_zoo.labeling.chunks import INPUT_FORMATS, MAX_LINE_CHARACTERS
from srl_zoo.labeling.corpus import check_output_free, checked_input_format, label_corpus
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.nn.precision import add_precision_argument

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
        "--cuda-device", type=int, default=-1, help="GPU index, -1 for the CPU (with --ray: one GPU per actor)"
    )
    add_precision_argument(parser, old_bfloat16_flag="--mixed-precision")
    parser.add_argument(
        "--min-score",
        type=float,
        default=0.0,
        help="leave out arguments the model scores below this probability (0, the default, keeps every one)",
    )
    parser.add_argument("--on-error", choices=("skip", "stop"), default="skip", help="for malformed lines")
    parser.add_argument(
        "--restart",
        "--overwrite",
        dest="overwrite",
        action="store_true",
        help="start over even if OUTPUT exists (a Ray run whose model or input has changed goes on only with it)",
    )
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
    # the input and the output are checked before the model loads (seconds): a mistake is told at once
    checked_input_format(args.input_file, args.input_format, args.output_format)
    check_output_free(args.output_file, args.overwrite)
    labeler = load_labeler(
        args.archive_file,
        cuda_device=args.cuda_device,
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
        workers=args.workers if args.workers is not None else int(args.cuda_device >= 0),
        max_line_characters=args.max_line_characters,
    )
    seconds = time.perf_counter() - started
    summary.update(seconds=round(seconds, 1), sentences_per_s=round(summary["sentences"] / max(seconds, 1e-9), 1))
    if not summary["lines"] and not summary["skipped"] and summary["resumed_from_line"] is None:
        print(f"srl-zoo label: {args.input_file} has no lines to label: {args.output_file} is empty", file=sys.stderr)
    print(json.dumps(summary))


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
