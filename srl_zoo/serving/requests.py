"""What `POST /api/label` accepts and answers: the checks of a request body (each failure a status and
a message a person can act on) and the JSON of a labeled sentence."""

import json
from typing import Any

from srl_zoo.data.formats.encodable_text import unencodable_offset
from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.front.text import Offsets
from srl_zoo.serving.batcher import SentenceItem
from srl_zoo.serving.limits import ServiceLimits


class RequestError(Exception):
    """A request the service refuses: the HTTP status and the message of the JSON error answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def parse_body(body: bytes) -> dict[str, Any]:
    """The request's JSON object; `RequestError` 400 for bad UTF-8 or JSON, 422 for another JSON value."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(400, f"the body is not valid UTF-8 (byte {error.start})") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise RequestError(
            400, f"the body is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise RequestError(400, "the body's JSON is nested too deeply") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise RequestError(400, f"the body's JSON holds a value Python cannot read: {error}") from None
    if not isinstance(value, dict):
        raise RequestError(422, f'expected a JSON object such as {{"text": "..."}}, got {type(value).__name__}')
    return value


def sentence_items(request: dict[str, Any], labeler: TextLabeler, limits: ServiceLimits) -> list[SentenceItem]:
    """The sentences to label of a request `{"text": "..."}` (split as the Python API splits) or
    `{"sentences": [[token, ...], ...], "predicates": [[index, ...] or null, ...]?}`; `RequestError` 422
    for a missing or mistyped field, 413 past `limits.max_request_tokens`, `limits.max_request_row_words` or
    `limits.max_sentence_words`."""
    unknown = sorted(set(request) - {"text", "sentences", "predicates"})
    if unknown:
        raise RequestError(422, f"unknown fields {unknown}: expected 'text', or 'sentences' and 'predicates'")
    if "text" in request and "sentences" in request:
        raise RequestError(422, "give either 'text' (a string) or 'sentences' (a list of token lists), not both")
    if "text" not in request and "sentences" not in request:
        raise RequestError(422, "give 'text' (a string) or 'sentences' (a list of token lists)")
    items = _text_items(request, labeler) if "text" in request else _token_items(request, labeler)
    tokens = sum(len(item.words) for item in items)
    if tokens > limits.max_request_tokens:
        raise RequestError(
            413, f"the request has {tokens} tokens; the limit is {limits.max_request_tokens} (max_request_tokens)"
        )
    row_words = sum(item.row_words for item in items)
    if row_words > limits.max_request_row_words:
        raise RequestError(
            413,
            f"the request costs {row_words} predicate rows x words (each given predicate a row, a quarter of the "
            f"words of a sentence without them); the limit is {limits.max_request_row_words} (max_request_row_words)",
        )
    for index, item in enumerate(items):
        if len(item.words) > limits.max_sentence_words:
            raise RequestError(
                413,
                f"sentence {index} has {len(item.words)} words; the limit is {limits.max_sentence_words} "
                "(max_sentence_words: a longer one would hold the model for too long; `srl-zoo label` takes it)",
            )
    return items


def _text_items(request: dict[str, Any], labeler: TextLabeler) -> list[SentenceItem]:
    text = request["text"]
    if not isinstance(text, str):
        raise RequestError(422, f"'text' must be a string, got {type(text).__name__}")
    if "predicates" in request:
        raise RequestError(422, "'predicates' goes with 'sentences' (token lists), not with 'text'")
    offset = unencodable_offset(text)
    if offset >= 0:
        raise RequestError(422, f"'text': character {offset} ({text[offset]!r}) is a lone surrogate, not text")
    return [SentenceItem(words, offsets, text) for words, offsets in labeler.split(text)]


def _token_items(request: dict[str, Any], labeler: TextLabeler) -> list[SentenceItem]:
    """The tokenized sentences, each checked by the labeler (`parse_request`: its tokens and predicates), a refusal
    naming the sentence."""
    sentences = request["sentences"]
    if not isinstance(sentences, list):
        raise RequestError(422, f"'sentences' must be a list of token lists, got {type(sentences).__name__}")
    predicates = request.get("predicates")
    if predicates is not None and (not isinstance(predicates, list) or len(predicates) != len(sentences)):
        raise RequestError(422, f"'predicates' must be a list with one entry per sentence ({len(sentences)})")
    items = []
    for index, tokens in enumerate(sentences):
        if not isinstance(tokens, list) or not tokens:
            raise RequestError(422, f"sentence {index} must be a non-empty list of tokens")
        given = predicates[index] if predicates is not None else None
        try:
            checked = labeler.parse_request(
                {"tokens": tokens} if given is None else {"tokens": tokens, "predicates": given}
            )
        except ValueError as error:
            raise RequestError(422, f"sentence {index}: {error}") from None
        items.append(SentenceItem(tokens, joined_offsets(tokens), " ".join(tokens), checked.predicates))
    return items


def joined_offsets(tokens: list[str]) -> Offsets:
    """Each token's offsets in the tokens joined by single spaces."""
    offsets, start = [], 0
    for token in tokens:
        offsets.append((start, start + len(token)))
        start += len(token) + 1
    return offsets


def sentence_json(labeled: dict[str, Any], offsets: Offsets) -> dict[str, Any]:
    """A labeled sentence as the service answers it: the Labeler's output (text, offsets, words, frames
    with character offsets, lemmas, rolesets, role descriptions and scores) plus each token with its offsets."""
    tokens = [
        {"text": word, "start_char": s, "end_char": e} for word, (s, e) in zip(labeled["words"], offsets, strict=False)
    ]
    return {**labeled, "tokens": tokens}
