"""`srl-zoo teach`: a teacher model's tag distributions for the gold frames of a data file, which a smaller model
then learns beside the gold tags (knowledge distillation; docs/training.md, "Distilling a model")."""

import argparse

from allennlp.commands.subcommand import Subcommand

from srl_zoo.commands.verbosity import add_verbosity
from srl_zoo.training.teacher_distributions import write_distributions


@Subcommand.register("srl-teach")
class SrlTeach(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Run a teacher model over a data file's gold predicates and write its tag distributions, which a "
            "training config's reader reads beside that file (`teacher_files`) to distil the teacher."
        )
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("teacher", metavar="MODEL", help="the teacher: an srl_zoo model.tar.gz")
        subparser.add_argument("data", metavar="DATA_FILE", help="the data file (read by the teacher's reader)")
        subparser.add_argument("--output", "-o", required=True, help="the teacher file (.npz), written atomically")
        subparser.add_argument("--top-k", type=int, default=4, help="the most probable tags kept per token")
        subparser.add_argument("--batch-words", type=int, default=2000, help="padded words per batch")
        add_verbosity(subparser, _run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    count = write_distributions(args.teacher, args.data, args.output, args.top_k, args.batch_words)
    print(f"{args.output}: the teacher's distributions for the frames of {count} sentences")
