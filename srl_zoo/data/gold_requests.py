"""A gold file's first sentences as predictor requests at their gold predicates, batched by length: what the
leaderboard's speed column and the prediction benchmarks label."""

from typing import Any, Optional

from srl_zoo.data.formats import READERS, SrlSentence
from srl_zoo.data.formats.conll_kind import detect_format

Request = dict[str, Any]


def gold_sentence_batches(
    path: str, format: Optional[str] = None, sentences: int = 500, batch_size: int = 64
) -> tuple[list[list[SrlSentence]], int]:
    """The first `sentences` sentences of `path` (in `format`, told from the file when None), sorted by length
    and cut into batches of `batch_size`; and their tokens."""
    first: list[SrlSentence] = []
    for sentence in READERS[format or detect_format(path)](path):
        if len(first) == sentences:
            break
        first.append(sentence)
    first.sort(key=len)
    batches = [first[start : start + batch_size] for start in range(0, len(first), batch_size)]
    return batches, sum(len(sentence) for sentence in first)


def as_request(sentence: SrlSentence) -> Request:
    """A predictor request `{"tokens", "predicates", "pos"}` for `sentence` at its gold predicates (with the
    file's POS tags where it has them: AMN's memory finds its neighbours by them, other models ignore them)."""
    request: Request = {"tokens": sentence.tokens, "predicates": [frame.index for frame in sentence.frames]}
    if sentence.pos:
        request["pos"] = sentence.pos
    return request


def gold_predicate_batches(
    path: str, format: Optional[str] = None, sentences: int = 500, batch_size: int = 64
) -> tuple[list[list[Request]], int]:
    """`gold_sentence_batches` as requests (`as_request`)."""
    batches, tokens = gold_sentence_batches(path, format, sentences, batch_size)
    return [[as_request(sentence) for sentence in batch] for batch in batches], tokens
