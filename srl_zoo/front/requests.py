"""A labeling request checked once: words (given, or split from a sentence), predicates, heads and POS tags, each
field's problem a `BadRequest` naming it. Used by the runtime, the allennlp predictor and the service."""

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Optional

from srl_zoo.data.formats.encodable_text import check_encodable, check_encodable_tokens, check_visible_tokens


class SrlRequest(NamedTuple):
    """One input sentence: words, optional predicate indices, optional 1-based dependency heads (0 = root)."""

    words: list[str]
    predicates: Optional[list[int]] = None
    heads: Optional[list[int]] = None
    heads_given: bool = True  # False: placeholder heads, the model keeps its own parse
    pos: Optional[list[str]] = None  # POS tags (for AMN's memory)


class BadRequest(ValueError):
    """A request the predictor cannot label (a missing or malformed field), with what is wrong."""


def parse_request(json_dict: dict[str, Any], tokenize: Callable[[str], list[str]]) -> SrlRequest:
    """The checked request of one input (`{"sentence"}` or `{"tokens"}`, `"predicates"`?, `"heads"`?, `"pos"`?),
    a `"sentence"` split into words by `tokenize`; `BadRequest` (a `ValueError`) saying which field is wrong."""
    if "tokens" in json_dict:
        words = json_dict["tokens"]
        if not isinstance(words, list):
            raise BadRequest(f"'tokens' must be a list of strings, got {type(words).__name__}")
        for index, word in enumerate(words):
            if not isinstance(word, str) or not word.strip() or word.split() != [word]:
                raise BadRequest(f"'tokens': token {index} ({word!r}): tokens are non-empty strings without whitespace")
        check_encodable_tokens(words, "'tokens': ")
        check_visible_tokens(words, "'tokens': ")
    elif "sentence" in json_dict:
        if not isinstance(json_dict["sentence"], str):
            raise BadRequest("'sentence' must be a string")
        check_encodable(json_dict["sentence"], "'sentence'")
        words = tokenize(json_dict["sentence"])
    else:
        raise BadRequest(
            f"each input needs 'sentence' (a string) or 'tokens' (a list of strings); got keys {sorted(json_dict)}"
        )
    predicates = json_dict.get("predicates")
    if predicates is not None:
        if not isinstance(predicates, list) or not all(_is_index(i) and 0 <= i < len(words) for i in predicates):
            raise BadRequest(f"'predicates' must be a list of token indices between 0 and {len(words) - 1}")
        predicates = sorted(set(predicates))
    heads = json_dict.get("heads")
    if heads is not None and (
        not isinstance(heads, list)
        or len(heads) != len(words)
        or not all(_is_index(h) and 0 <= h <= len(words) for h in heads)
    ):
        raise BadRequest(
            "'heads' must be one 1-based head index (0 = root) per token: "
            f"{len(words)} integers from 0 to {len(words)}"
        )
    pos = json_dict.get("pos")
    if pos is not None and (
        not isinstance(pos, list) or len(pos) != len(words) or not all(isinstance(t, str) and t for t in pos)
    ):
        raise BadRequest(f"'pos' must be one non-empty POS tag string per token ({len(words)} tokens)")
    return SrlRequest(words, predicates, heads, pos=pos)


def parse_requests(requests: Sequence[Any], tokenize: Callable[[str], list[str]]) -> list[SrlRequest]:
    """Every request checked (`parse_request`), in order: a `TypeError` or `ValueError` names the first bad one's
    index and what is wrong with it."""
    parsed = []
    for index, request in enumerate(requests):
        if not isinstance(request, dict):
            raise TypeError(f"request {index}: expected a dict, got {type(request).__name__}")
        try:
            parsed.append(parse_request(request, tokenize))
        except ValueError as error:
            raise ValueError(f"request {index}: {error}") from None
    return parsed


def _is_index(value: Any) -> bool:
    """An int that is not a bool (JSON `true` is not token 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_min_score(min_score: Any) -> float:
    """`min_score` as a float; `ValueError` unless it is a number from 0 to 1."""
    if isinstance(min_score, bool) or not isinstance(min_score, int | float) or not 0 <= min_score <= 1:
        raise ValueError(f"min_score must be a probability from 0 to 1, got {min_score!r}")
    return float(min_score)
