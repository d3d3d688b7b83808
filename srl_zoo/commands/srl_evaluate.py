"""`allennlp srl-evaluate`: predict a CoNLL file, write CoNLL-2005 props, score with Python and srl-eval.pl."""

import argparse
import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from typing import Optional

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader
from allennlp.models import Model

from srl_zoo.archives import load_model_archive
from srl_zoo.commands.conll2009_evaluation import evaluate_conll2009, report_conll2009
from srl_zoo.commands.evaluation_loop import score_predictions, write_error_report
from srl_zoo.commands.verbosity import add_verbosity
from srl_zoo.data.format_detection import FORMATS, detect_format, reader_for_file
from srl_zoo.data.formats import write_conll2005
from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.metrics import SrlSpanF1, run_srl_eval
from srl_zoo.nn.inference_speed import bfloat16_autocast, quantize_linear_layers
from srl_zoo.nn.precision import ALLENNLP_PRECISIONS, add_precision_argument, uses_bfloat16

logger = logging.getLogger(__name__)


def srl_evaluate(
    model: Model,
    reader: DatasetReader,
    data_path: str,
    output_dir: str,
    batch_size: int = 64,
    scorer: Optional[str] = None,
    report_dir: Optional[str] = None,
) -> dict[str, object]:
    """Write `gold.props` and `predicted.props` to `output_dir`; return Python and srl-eval.pl scores.

    # Parameters

    report_dir : where to write the error-analysis report (`srl_zoo.analysis.write_report`), if given.
    """
    gold_sentences, predicted_sentences, scores = score_predictions(model, reader, data_path, batch_size, SrlSpanF1())
    os.makedirs(output_dir, exist_ok=True)
    gold_path, predicted_path = os.path.join(output_dir, "gold.props"), os.path.join(output_dir, "predicted.props")
    write_conll2005(gold_sentences, gold_path, props_only=True)
    write_conll2005(predicted_sentences, predicted_path, props_only=True)
    result: dict[str, object] = {
        "sentences": len(gold_sentences),
        "predicates": sum(len(sentence.frames) for sentence in gold_sentences),
        "python": scores,
        "model": model.get_metrics(reset=True),  # the model's own metrics, e.g. POS accuracy, parse UAS/LAS
        "gold_props": gold_path,
        "predicted_props": predicted_path,
    }
    try:
        official = run_srl_eval(gold_path, predicted_path, scorer)
    except FileNotFoundError as error:
        logger.warning("not running srl-eval.pl: %s", error)
    else:
        result["srl_eval"] = {
            "precision": official.precision,
            "recall": official.recall,
            "f1": official.f1,
            "perfect_propositions": official.perfect_propositions,
        }
        with atomic_write(os.path.join(output_dir, "srl-eval.txt")) as handle:
            handle.write(official.output)
    if report_dir is not None:
        official_scores: Optional[dict[str, float]] = result.get("srl_eval")  # type: ignore[assignment]
        result["report"] = write_error_report(
            gold_sentences, predicted_sentences, data_path, report_dir, official_scores
        )
    return result


@Subcommand.register("srl-evaluate")
class SrlEvaluate(Subcommand):
    """Evaluate an archived srl model on a CoNLL file with the official CoNLL-2005 scorer."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Predict a span-SRL data file (gold predicates) with an archived model, write gold and "
            "predicted CoNLL-2005 props files, and print srl_zoo's metric next to srl-eval.pl's."
        )
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", metavar="MODEL", help="the trained model (model.tar.gz)")
        subparser.add_argument(
            "input_file", metavar="GOLD_FILE", help="a CoNLL-2005, 2012 or 2009 file with gold frames (maybe .gz)"
        )
        subparser.add_argument(
            "--output-dir",
            default=None,
            help="where gold.props, predicted.props and metrics.json go (default: nowhere, the scores are printed)",
        )
        subparser.add_argument(
            "--report",
            default=None,
            metavar="DIR",
            help="also write an error analysis to DIR: per-label P/R/F1, role confusions, F1 by sentence length "
            "and by distance to the predicate, He et al. (2017)'s oracle transformations (PNG plots, report.md)",
        )
        subparser.add_argument(
            "--format",
            choices=FORMATS,
            default=None,
            help="the input file's format (default: detected from its first lines); another span format than "
            "the model's is read with the model's label spelling (A0 or ARG0) and token settings",
        )
        subparser.add_argument("--batch-size", type=int, default=64, help="sentences per model call")
        subparser.add_argument("--cuda-device", type=int, default=-1, help="GPU index, -1 for the CPU")
        subparser.add_argument(
            "--scorer", default=None, help="path to srl-eval.pl (default: $SRL_EVAL_PL or .cache/srl-eval)"
        )
        subparser.add_argument(
            "--decoding",
            choices=["argmax", "viterbi", "valid_frames"],
            default=None,
            help="override the model's decoding (e.g. to compare argmax with Viterbi on one model, or a CRF's "
            "Viterbi with valid_frames: each core role once, C-/R- roles with their base)",
        )
        subparser.add_argument(
            "--predicate-source",
            choices=["gold", "predicted"],
            default=None,
            help="override the model's predicate_source; 'predicted' needs a model with predicate_identification. "
            "srl_zoo's F1 then counts arguments of missed and of spurious predicates as errors, while "
            "srl-eval.pl skips spurious propositions",
        )
        subparser.add_argument(
            "--parse-source",
            choices=["predicted", "given"],
            default=None,
            help="models with a syntax head (LISA): attend to the parser's own parse ('predicted') or to "
            "the dependency trees read with the data ('given', e.g. CoNLL-2009 gold trees)",
        )
        subparser.add_argument(
            "--parse-file",
            default=None,
            help="a CoNLL-U or CoNLL-2009 file with dependency trees of the same sentences as input_file, "
            "injected into the syntax head in place of the model's own parse (implies --parse-source given)",
        )
        subparser.add_argument(
            "--int8", action="store_true", help="quantize the model's linear layers to int8 (CPU) before predicting"
        )
        add_precision_argument(subparser, names=ALLENNLP_PRECISIONS, old_bfloat16_flag="--bf16")
        add_verbosity(subparser, _run)
        return subparser


@contextlib.contextmanager
def flag_error(flag: str) -> Iterator[None]:
    """A model's refusal of a setting (`ValueError`) as a `ConfigurationError` naming the flag."""
    try:
        yield
    except ValueError as error:
        raise ConfigurationError(f"{flag}: {error}") from None


def _run(args: argparse.Namespace) -> None:
    args.format = args.format or detect_format(args.input_file)  # told before the model loads
    if args.output_dir is not None:
        _evaluate(args, args.output_dir)
        return
    with tempfile.TemporaryDirectory(prefix="srl-evaluate-") as scratch:  # the scores are printed
        _evaluate(args, scratch)


def _evaluate(args: argparse.Namespace, output_dir: str) -> None:
    archive = load_model_archive(args.archive_file, cuda_device=args.cuda_device)
    if args.int8:
        quantize_linear_layers(archive.model)
    with flag_error("--predicate-source"):
        if args.predicate_source is not None:
            archive.model.set_predicate_source(args.predicate_source)
    with flag_error("--decoding"):
        if args.decoding is not None:
            archive.model.set_decoding(args.decoding)
    reader = reader_for_file(archive.validation_dataset_reader, archive.model.vocab, args.input_file, args.format)
    if args.parse_file is not None or args.parse_source is not None:
        with flag_error("--parse-file" if args.parse_file is not None else "--parse-source"):
            archive.model.set_parse_source("given" if args.parse_file is not None else args.parse_source)
        if args.parse_file is not None:
            reader.add_dependency_file(args.input_file, args.parse_file)
    dependency = reader.dependency_srl  # dependency SRL: eval09.pl's layout and scores
    bfloat16 = uses_bfloat16(args.precision, args.cuda_device, archive.model.f1_per_precision)
    with bfloat16_autocast(bfloat16, "cpu" if args.cuda_device < 0 else "cuda"):
        if dependency:
            result = evaluate_conll2009(
                archive.model, reader, args.input_file, output_dir, args.batch_size, args.report
            )
        else:
            result = srl_evaluate(
                archive.model, reader, args.input_file, output_dir, args.batch_size, args.scorer, args.report
            )
    with atomic_write(os.path.join(output_dir, "metrics.json")) as handle:
        json.dump(result, handle, indent=2)
    if dependency:
        print(report_conll2009(result))
        _print_heads(result)
        _print_report_path(result)
        return
    python = result["python"]
    counts = f"{result['sentences']:,} sentences, {result['predicates']:,} gold predicates"
    print(f"scored      {counts} of {args.input_file}")
    print(
        f"srl_zoo     P {100 * python['precision-overall']:.2f}  R {100 * python['recall-overall']:.2f}  "
        f"F1 {100 * python['f1-measure-overall']:.2f}  Comp. {100 * python['perfect-propositions']:.2f}  "
        f"(predicates P {100 * python['predicate-precision']:.2f} R {100 * python['predicate-recall']:.2f} "
        f"F1 {100 * python['predicate-f1']:.2f})"
    )
    _print_heads(result)
    if "srl_eval" in result:
        official = result["srl_eval"]
        print(
            f"srl-eval.pl P {official['precision']:.2f}  R {official['recall']:.2f}  F1 {official['f1']:.2f}  "
            f"Comp. {official['perfect_propositions']:.2f}"
        )
    _print_report_path(result)


def _print_heads(result: dict[str, object]) -> None:
    """The heads line: the POS tagger's and the parser's scores, where the model has them (LISA)."""
    extra = {k: v for k, v in result["model"].items() if k.startswith(("pos-", "parse-"))}  # type: ignore[attr-defined]
    if extra:
        print("heads       " + "  ".join(f"{k} {100 * v:.2f}" for k, v in sorted(extra.items())))


def _print_report_path(result: dict[str, object]) -> None:
    if "report" in result:
        print(f"error analysis: {result['report']}")
