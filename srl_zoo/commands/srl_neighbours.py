"""`allennlp srl-neighbours`: AMN's training neighbours computed once and cached for training runs."""

import argparse
import json
import time

from allennlp.commands.subcommand import Subcommand

from srl_zoo.amn.memory_bank import MemoryBank
from srl_zoo.amn.neighbour_cache import fingerprint, training_neighbours, write_cache
from srl_zoo.amn.selectors import NeighbourSelector
from srl_zoo.commands.verbosity import add_verbosity

POS_SELECTORS = ("edit_distance", "random")


@Subcommand.register("srl-neighbours")
class SrlNeighbours(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Find AMN's m nearest training (sentence, predicate) pairs for every predicate of a training file "
            "and write them where an `associated_memory`'s `neighbour_cache` reads them."
        )
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument(
            "train_file", metavar="TRAIN_FILE", help="the training data (the memory's train_data_path)"
        )
        subparser.add_argument("--format", required=True, help="its dataset reader type: conll2009, conll2012, ...")
        subparser.add_argument("--output", required=True, help="the cache file (JSON), written atomically")
        subparser.add_argument(
            "--selector",
            choices=POS_SELECTORS,
            default="edit_distance",
            help="selectors that do not need the model's word vectors (sif/relaxed_wmd run inside training)",
        )
        subparser.add_argument("--num-neighbours", "-m", type=int, default=4)
        add_verbosity(subparser, _run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    bank = MemoryBank.read(args.train_file, {"type": args.format})
    selector = NeighbourSelector.by_name(args.selector)()
    selector.build(bank)
    read = time.perf_counter()
    neighbours = training_neighbours(bank, selector, args.num_neighbours)
    write_cache(args.output, fingerprint(bank, selector, args.num_neighbours), neighbours)
    summary = {
        "predicates": len(bank),
        "sentences": len(bank.words),
        "read_seconds": round(read - started, 1),
        "search_seconds": round(time.perf_counter() - read, 1),
        "output": args.output,
    }
    print(json.dumps(summary))
