"""A gold file's first sentences as predictor requests at their gold predicates, batched by length: what the
leaderboard's speed column and the prediction benchmarks label."""

from typing import Any, Optional

from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS

Request = dict[str, Any]


def gold_predicate_batches(
    path: str, format: Optional[str] = None, sentences: int = 500, batch_size: int = 64
) -> tuple[list[list[Request]], int]:
    """The first `sentences` sentences of `path` (in `format`, told from the file when None) as requests
    `{"tokens", "predicates", "pos"}` (the file's POS tags where it has them: AMN's memory finds its neighbours
    by them, other models ignore them), sorted by length and cut into batches of `batch_size`; and their tokens.
    """
    requests: list[Request] = []
    for sentence in READERS[format or detect_format(path)](path):
        if len(requests) == sentences:
            break
        request: Request = {"tokens": sentence.tokens, "predicates": [frame.index for frame in sentence.frames]}
        if sentence.pos:
            request["pos"] = sentence.pos
        requests.append(request)
    requests.sort(key=lambda request: len(request["tokens"]))
    batches = [requests[start : start + batch_size] for start in range(0, len(requests), batch_size)]
    return batches, sum(len(request["tokens"]) for request in requests)
