"""Whether the allennlp-free runtime labels a whole CoNLL file as the allennlp predictor does: every sentence, once
with the file's predicates and once with the model's own, the runtime in a process where importing allennlp
raises ImportError; counts the frames whose predicate, sense and tags are identical, and the largest score
difference (float32, one thread).

    python -m benchmarks runtime_agreement models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Optional

from benchmarks.arguments import archive_parser

#: the runtime's labels of a request file, in a process without allennlp
RUNTIME = """
import json, sys
sys.modules["allennlp"] = None
import torch
torch.set_num_threads(1)
from srl_zoo.runtime.labeler import load
requests = json.load(open(sys.argv[2]))
labels = load(sys.argv[1], precision="float32").label_words([r[0] for r in requests], [r[1] for r in requests])
json.dump(labels, open(sys.argv[3], "w"))
"""


def requests_of(path: str) -> list[tuple[list[str], Optional[list[int]]]]:
    """Each sentence of the CoNLL file twice, as (words, predicates): with its predicates, then with None (the
    model finds them)."""
    from srl_zoo.data.formats import READERS
    from srl_zoo.data.formats.conll_kind import detect_format

    sentences = list(READERS[detect_format(path)](path))
    given = [(s.tokens, [f.index for f in s.frames]) for s in sentences]
    return given + [(s.tokens, None) for s in sentences]


def compare(mine: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> dict[str, Any]:
    """Frames counted, frames identical (predicate index, sense, tags), and the largest score difference."""
    frames = identical = 0
    largest = 0.0
    for sentence, other in zip(mine, theirs, strict=True):
        frames += max(len(sentence["frames"]), len(other["frames"]))
        if [f["predicate"]["index"] for f in sentence["frames"]] != [f["predicate"]["index"] for f in other["frames"]]:
            continue
        for frame, expected in zip(sentence["frames"], other["frames"], strict=True):
            same = frame["tags"] == expected["tags"] and frame["predicate"].get("sense") == expected["predicate"].get(
                "sense"
            )
            identical += same
            if same:
                scores = [frame["predicate"]["score"]] + [a["score"] for a in frame["arguments"]]
                others = [expected["predicate"]["score"]] + [a["score"] for a in expected["arguments"]]
                largest = max([largest] + [abs(a - b) for a, b in zip(scores, others, strict=True)])
    return {"frames": frames, "identical": identical, "largest_score_difference": largest}


def main() -> None:
    args = archive_parser(__doc__).parse_args()
    requests = requests_of(args.data)
    folder = tempfile.mkdtemp(prefix="runtime_agreement-")
    request_file, runtime_file = os.path.join(folder, "requests.json"), os.path.join(folder, "runtime.json")
    with open(request_file, "w", encoding="utf-8") as handle:
        json.dump(requests, handle)
    start = time.perf_counter()
    environment = {**os.environ, "OMP_NUM_THREADS": "1"}
    subprocess.run(
        [sys.executable, "-c", RUNTIME, args.archive, request_file, runtime_file], check=True, env=environment
    )
    runtime_seconds = time.perf_counter() - start
    import torch

    import srl_zoo.api

    torch.set_num_threads(1)
    start = time.perf_counter()
    labeler = srl_zoo.api.load(args.archive, precision="float32")  # label_words: calls cut by the batch budget
    theirs = labeler.label_words([words for words, _ in requests], [predicates for _, predicates in requests])
    allennlp_seconds = time.perf_counter() - start
    with open(runtime_file, encoding="utf-8") as handle:
        mine = json.load(handle)
    result = {
        "archive": args.archive,
        "data": args.data,
        "requests": len(requests),
        **compare(mine, theirs),
        "runtime_seconds": round(runtime_seconds, 1),
        "allennlp_seconds": round(allennlp_seconds, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
