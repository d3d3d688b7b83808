"""Labeling with an adapted encoder's low-rank adapters merged into its linear layers (what the runtime loads) against
the adapters kept (three matrix products a layer): tokens/s of each, measured alternately in one process on one
thread, the ratio, and the share of frames tagged alike (float32, the file's predicates).

    python -m benchmarks adapter_merge models/ewt-english-accurate.tar.gz data/ewt/conll2012/dev.gold_conll.gz
"""

import platform
from unittest import mock

import torch

from benchmarks.alternating_runs import best_of_alternating_runs, print_against
from benchmarks.arguments import archive_parser


def cpu_name() -> str:
    """The CPU's model name (`/proc/cpuinfo`), else the machine's architecture."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            names = [line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")]
    except OSError:
        names = []
    return names[0] if names else platform.machine()


def main() -> None:
    parser = archive_parser(__doc__)
    parser.add_argument("--sentences", type=int, default=200, help="the file's first N sentences")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    from srl_zoo.data.formats import READERS
    from srl_zoo.data.formats.conll_kind import detect_format
    from srl_zoo.runtime.labeler import load

    sentences = list(READERS[detect_format(args.data)](args.data))[: args.sentences]
    words = [s.tokens for s in sentences]
    predicates = [[f.index for f in s.frames] for s in sentences]
    merged = load(args.archive, precision="float32")
    with mock.patch("srl_zoo.runtime.load.merge_low_rank_adapters", lambda module: 0):
        kept = load(args.archive, precision="float32")
    size = args.batch_size
    batches = [list(range(start, min(start + size, len(words)))) for start in range(0, len(words), size)]

    def runner(labeler):  # type: ignore[no-untyped-def]
        return lambda batch: labeler.label_words([words[i] for i in batch], [predicates[i] for i in batch])

    runs = {"adapters kept": runner(kept), "adapters merged": runner(merged)}
    tokens = sum(len(w) for w in words)
    best, tags = best_of_alternating_runs(runs, batches, tokens, args.rounds)
    print(f"{args.archive}, {len(words)} sentences ({tokens} tokens), one thread of {cpu_name()}")
    print_against("adapters kept", best, tags)


if __name__ == "__main__":
    main()
