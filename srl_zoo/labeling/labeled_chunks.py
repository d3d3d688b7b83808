"""The model's step of `srl-label`: a prepared chunk's batches through the model (in the one process
that runs it), lines it could not batch labeled through the labeler, and every line's outcome: its
output record, or the `BadLine` saying why it has none."""

from dataclasses import dataclass, field
from typing import Any, Union

from srl_zoo.data.formats.json_values import json_values
from srl_zoo.data.formats.output_formats import render
from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.front.text import with_char_offsets
from srl_zoo.labeling.chunks import BadLine, Request, bad_line
from srl_zoo.labeling.prepared_chunks import PreparedChunk, SentenceKey

Outcome = Union[tuple[bytes, int], BadLine]  # (the line's output record, its sentences) or why it failed


@dataclass
class Labeled:
    """The model's side of a chunk: each text sentence's output, and the lines labeled the slow way
    (pre-tokenized requests, and the lines of a batch that failed) as finished outcomes."""

    sentences: dict[SentenceKey, dict[str, Any]] = field(default_factory=dict)
    lines: dict[int, Outcome] = field(default_factory=dict)


def label_prepared(labeler: TextLabeler, prepared: PreparedChunk, output_format: str, path: str) -> Labeled:
    """Run the model on a prepared chunk's batches (in this process: the model's only user)."""
    labeled = Labeled()
    retry: set[int] = set()
    for batch in prepared.batches:
        try:
            if batch.tensors is None:
                raise ValueError("the batch could not be made tensors")
            labeled.sentences.update(zip(batch.keys, labeler.label_batch(batch.tensors), strict=False))
        except Exception:
            retry.update(number for number, _ in batch.keys)
    requests: list[tuple[int, Request]] = []
    for number in sorted(retry):
        if number in prepared.texts:
            requests.append((number, ("text", prepared.texts[number][0])))
        else:
            requests.append((number, ("tokens", prepared.batched_tokens[number])))
    requests.extend((number, ("tokens", request)) for number, request in prepared.tokenized)
    labeled.lines.update(_label_lines(labeler, requests, output_format, path))
    return labeled


def _label_lines(
    labeler: TextLabeler, requests: list[tuple[int, Request]], output_format: str, path: str
) -> list[tuple[int, Outcome]]:
    """Each request's outcome: any exception while labeling or writing one line becomes that line's
    `BadLine` (requests that fail together are labeled again one by one to find it)."""
    if not requests:
        return []
    try:
        return [(number, (record, sentences)) for number, record, sentences in _label(labeler, requests, output_format)]
    except Exception:
        outcomes: list[tuple[int, Outcome]] = []
        for number, request in requests:
            try:
                outcomes.extend((n, (r, k)) for n, r, k in _label(labeler, [(number, request)], output_format))
            except Exception as error:
                outcomes.append((number, bad_line(error, path, number)))
        return outcomes


def _label(
    labeler: TextLabeler, requests: list[tuple[int, Request]], output_format: str
) -> list[tuple[int, bytes, int]]:
    """`(line number, output record as UTF-8, number of sentences)` of each request, through the
    labeler (one model call per request kind)."""
    documents = {i: request[1] for i, (_, request) in enumerate(requests) if request[0] == "text"}
    by_request = dict(zip(documents, labeler.label_texts(list(documents.values()), labeler.batch_size), strict=False))
    tokenized = [(i, request[1]) for i, (_, request) in enumerate(requests) if request[0] == "tokens"]
    if tokenized:
        for (i, _), output in zip(tokenized, labeler.label_tokenized([r for _, r in tokenized]), strict=False):
            by_request[i] = [output]
    return [
        (line_number, _record(line_number, by_request[i], output_format), len(by_request[i]))
        for i, (line_number, _) in enumerate(requests)
    ]


def _record(line_number: int, sentences: list[dict[str, Any]], output_format: str) -> bytes:
    """The UTF-8 record of one input line's labeled sentences (encoded here, so that a record that cannot
    be written fails like any other labeling error of its line)."""
    return render(sentences, output_format, line=line_number).encode("utf-8")


def outcomes(prepared: PreparedChunk, labeled: Labeled, output_format: str, path: str) -> list[tuple[int, Outcome]]:
    """Every line's outcome, in order: text lines rendered from their sentences' outputs (with
    character offsets), batched pre-tokenized lines from their one sentence's, the rest as they came."""
    outcomes: dict[int, Outcome] = {**prepared.failed, **labeled.lines}
    for number, (text, sentences) in prepared.texts.items():
        if number in outcomes:
            continue
        try:
            outputs = [
                with_char_offsets(json_values(labeled.sentences[(number, place)]), offsets, text)
                for place, (_, offsets) in enumerate(sentences)
            ]
            outcomes[number] = (_record(number, outputs, output_format), len(outputs))
        except Exception as error:
            outcomes[number] = bad_line(error, path, number)
    for number in prepared.batched_tokens:
        if number not in outcomes:
            try:
                outcomes[number] = (_record(number, [json_values(labeled.sentences[(number, 0)])], output_format), 1)
            except Exception as error:
                outcomes[number] = bad_line(error, path, number)
    return sorted(outcomes.items())
