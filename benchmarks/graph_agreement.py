"""Whether an archive's inference graphs label a whole CoNLL file as the torch runtime does in float32: every
sentence with the file's predicates and with the model's own, the graphs in a process where importing torch raises
ImportError (exported into a temporary copy of the archive when it has none); counts identical frames (predicate
index, sense, tags) and the largest score difference (one thread each).

    python -m benchmarks graph_agreement models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz
"""

import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks.arguments import archive_parser
from benchmarks.graph_path import with_graphs
from benchmarks.runtime_agreement import compare, requests_of

#: the graphs' labels of a request file, in a process without torch
GRAPHS = """
import json, sys
sys.modules["torch"] = None
from srl_zoo.graphs.labeler import load
requests = json.load(open(sys.argv[2]))
labels = load(sys.argv[1], threads=1).label_words([r[0] for r in requests], [r[1] for r in requests])
json.dump(labels, open(sys.argv[3], "w"))
"""


def main() -> None:
    args = archive_parser(__doc__).parse_args()
    requests = requests_of(args.data)
    with tempfile.TemporaryDirectory(prefix="graph_agreement-") as folder:
        graphs_archive = with_graphs(args.archive, folder)
        request_file, graphs_file = os.path.join(folder, "requests.json"), os.path.join(folder, "graphs.json")
        with open(request_file, "w", encoding="utf-8") as handle:
            json.dump(requests, handle)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", GRAPHS, graphs_archive, request_file, graphs_file], check=True)
        graphs_seconds = time.perf_counter() - start
        with open(graphs_file, encoding="utf-8") as handle:
            mine = json.load(handle)
    import torch

    from srl_zoo.runtime.labeler import load

    torch.set_num_threads(1)
    start = time.perf_counter()
    theirs = load(args.archive, precision="float32").label_words([w for w, _ in requests], [p for _, p in requests])
    torch_seconds = time.perf_counter() - start
    seconds = {"graphs_seconds": round(graphs_seconds, 1), "torch_seconds": round(torch_seconds, 1)}
    print(json.dumps({"archive": args.archive, "data": args.data, "requests": len(requests), **compare(mine, theirs),
                      **seconds}))  # fmt: skip


if __name__ == "__main__":
    main()
