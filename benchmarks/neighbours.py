"""Build time of the AMN neighbour index (training neighbours for every (sentence, predicate)) against
training-set size (with the peak memory the build allocates, traced by tracemalloc), and a power-law
extrapolation to the CoNLL-2009 English train set (~179k predicates).
A benchmark, not a test.

Usage: python -m benchmarks neighbours data/ewt/conll2009/train.txt.gz [--m 4] [--fractions 0.125 0.25 0.5 1]
"""

import argparse
import json
import math
import time
import tracemalloc

from srl_zoo.amn import NeighbourIndex
from srl_zoo.data.formats import read_conll2009


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("train_file")
    parser.add_argument("--m", type=int, default=4)
    parser.add_argument("--fractions", type=float, nargs="+", default=[0.125, 0.25, 0.5, 1.0])
    parser.add_argument("--target", type=int, default=179_000, help="predicates to extrapolate to")
    args = parser.parse_args()
    sentences = list(read_conll2009(args.train_file))
    rows = []
    for fraction in args.fractions:
        subset = sentences[: max(1, int(len(sentences) * fraction))]
        tracemalloc.start()
        started = time.perf_counter()
        index = NeighbourIndex.from_sentences(subset)
        index.training_neighbours(args.m)
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append(
            {
                "sentences": len(subset),
                "predicates": len(index),
                "seconds": round(seconds, 2),
                "peak_mib": round(peak / 2**20, 1),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    (n1, t1), (n2, t2) = [(r["predicates"], r["seconds"]) for r in (rows[-2], rows[-1])]
    exponent = math.log(t2 / t1) / math.log(n2 / n1)
    estimate = t2 * (args.target / n2) ** exponent
    print(
        json.dumps(
            {"exponent": round(exponent, 2), "target_predicates": args.target, "estimated_seconds": round(estimate)}
        )
    )


if __name__ == "__main__":
    main()
