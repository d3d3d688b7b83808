"""`srl-zoo teach`: a teacher model's tag distributions for data files, which a smaller model then learns beside
the gold tags (knowledge distillation; docs/training.md, "Distilling a model")."""

import argparse

from allennlp.commands.subcommand import Subcommand

from srl_zoo.commands.verbosity import add_verbosity
from srl_zoo.nn.precision import PRECISIONS
from srl_zoo.training.teacher_distributions import write_distributions


@Subcommand.register("srl-teach")
class SrlTeach(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Run a teacher model over data files and write its tag distributions, which a training config's "
            "reader reads beside the data (`teacher_files`) to distil the teacher. A CoNLL file's gold predicates "
            "are scored; plain text (one tokenized sentence per line) gets the teacher's predicates and tags, "
            "written with every input's frames to --frames-output. A stopped run resumes from OUTPUT.parts/."
        )
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("teacher", metavar="MODEL", help="the teacher: an srl_zoo model.tar.gz")
        subparser.add_argument("data", metavar="DATA_FILE", nargs="+", help="CoNLL files or tokenized text, in order")
        subparser.add_argument("--output", "-o", required=True, help="the teacher file (.npz), written atomically")
        subparser.add_argument(
            "--frames-output",
            metavar="CONLL_FILE",
            help="write every input's frames (gold, or the teacher's for text) to this CoNLL-2012 file, which the "
            "teacher file belongs to; needed for text or several inputs",
        )
        subparser.add_argument("--top-k", type=int, default=4, help="the most probable tags kept per token")
        subparser.add_argument("--precision", choices=PRECISIONS, default="auto", help="the teacher's precision")
        subparser.add_argument("--batch-size", type=int, default=64, help="sentences per model call, at most")
        add_verbosity(subparser, _run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    count = write_distributions(
        args.teacher, args.data, args.output, args.frames_output, args.top_k, args.precision, args.batch_size
    )
    print(f"{args.output}: the teacher's distributions for the frames of {count} sentences")
