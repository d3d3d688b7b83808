"""The input pipeline of `srl-label`: reading, parsing, sentence splitting, instance building and
tensorisation of each chunk of input lines, in DataLoader worker processes, so that the process that
runs the model only runs the model (and copies batches to its device from pinned memory).

A chunk comes out as a `PreparedChunk`: lines that failed already (`BadLine`s), each text line's text
and sentences (words with character offsets), pre-tokenized requests, and the sentences of its text
lines and of its pre-tokenized requests without heads or POS tags as tensor batches of similar length
(requests with heads or POS tags are labeled as given by the predictor, a batch needing the same
fields throughout)."""

import os
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from torch.utils.data import DataLoader, IterableDataset, get_worker_info

from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.front.requests import SrlRequest
from srl_zoo.front.text import Sentence
from srl_zoo.labeling.chunks import (
    CONLL_FORMATS,
    MAX_LINE_CHARACTERS,
    BadLine,
    Chunk,
    bad_line,
    parse_line,
    read_chunks,
)
from srl_zoo.nn.pinned import pin

SentenceKey = tuple[int, int]  # (input line number, the sentence's place in that line)


@dataclass
class SentenceBatch:
    """Sentences of text lines (`keys`) as the model's input; `tensors` None if they could not be made
    tensors together (the main process then labels their lines one by one)."""

    keys: list[SentenceKey]
    tensors: Any  # the labeler's prepared batch


@dataclass
class PreparedChunk:
    """A chunk of input lines made ready for the model (see the module docstring)."""

    chunk: Chunk
    failed: dict[int, BadLine] = field(default_factory=dict)
    texts: dict[int, tuple[str, list[Sentence]]] = field(default_factory=dict)
    batched_tokens: dict[int, dict[str, Any]] = field(default_factory=dict)  # words (+ predicates): in the batches
    tokenized: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # with heads or POS: as given
    batches: list[SentenceBatch] = field(default_factory=list)

    def pin_memory(self) -> "PreparedChunk":
        """The same chunk with its tensors in page-locked memory (DataLoader's `pin_memory` calls this)."""
        return replace(self, batches=[SentenceBatch(b.keys, pin(b.tensors)) for b in self.batches])


def prepare_chunk(
    labeler: TextLabeler,
    chunk: Chunk,
    input_format: str,
    path: str,
    batch_size: int,
    max_line_characters: int = MAX_LINE_CHARACTERS,
) -> PreparedChunk:
    """Parse, split and tensorize one chunk; any error on a line becomes that line's `BadLine`."""
    prepared = PreparedChunk(chunk)
    keys: list[SentenceKey] = []
    words: list[list[str]] = []
    requests: list[SrlRequest] = []
    for number, line in chunk.lines:
        try:
            if isinstance(line, BadLine):
                raise line
            kind, value = parse_line(line, input_format, labeler.check_request, path, number, max_line_characters)
            if kind == "tokens":
                request = labeler.parse_request(value)
                if request.heads is not None or request.pos is not None or not request.words:
                    prepared.tokenized.append((number, value))  # fields a batch must share: labeled as given
                    continue
                made = [request]
                prepared.batched_tokens[number] = value
                sentences: list[Any] = [(request.words, [])]
            else:
                sentences = labeler.split(value)
                made = [SrlRequest(words) for words, _ in sentences]
                prepared.texts[number] = (value, sentences)
        except Exception as error:
            prepared.failed[number] = bad_line(error, path, number)
            continue
        keys.extend((number, place) for place in range(len(sentences)))
        words.extend(sentence_words for sentence_words, _ in sentences)
        requests.extend(made)
    for members in labeler.budget.with_sentences(batch_size).calls(words):
        try:
            tensors: Any = labeler.prepare_batch([requests[i] for i in members])
        except Exception:
            tensors = None
        prepared.batches.append(SentenceBatch([keys[i] for i in members], tensors))
    return prepared


@dataclass
class PreparedChunks(IterableDataset):
    """The prepared chunks of an input, in input order, from `start_line` on (that many raw lines are done,
    holding `start_chunk` chunks). With several DataLoader workers, worker `w` of `n` prepares every `n`-th
    chunk from the `w`-th; the DataLoader asks its workers in turn, so the chunks come out in order."""

    labeler: TextLabeler
    path: str
    input_format: str
    start_line: int
    start_chunk: int
    chunk_lines: int
    batch_size: int
    max_line_characters: int = MAX_LINE_CHARACTERS

    def __iter__(self) -> Iterator[PreparedChunk]:
        worker = get_worker_info()
        worker_id, workers = (worker.id, worker.num_workers) if worker is not None else (0, 1)
        blocks = self.input_format in CONLL_FORMATS
        chunks = read_chunks(self.path, self.start_line, self.chunk_lines, self.start_chunk, blocks)
        for position, chunk in enumerate(chunks):
            if position % workers == worker_id:
                yield prepare_chunk(
                    self.labeler, chunk, self.input_format, self.path, self.batch_size, self.max_line_characters
                )


def _unchanged(prepared: Any) -> Any:
    """The DataLoader's collate function: a prepared chunk is already one batch of its own."""
    return prepared


def _quiet_worker(_: int) -> None:
    os.environ["TOKENIZERS_PARALLELISM"] = "false"  # the Rust tokenizer's threads in a forked worker


def prepared_chunks(dataset: PreparedChunks, workers: int, pin_memory: bool) -> Iterator[PreparedChunk]:
    """`dataset`'s chunks, prepared in `workers` processes (0: in this one), with pinned tensors when
    `pin_memory` (for a GPU)."""
    loader = DataLoader(
        dataset,
        batch_size=None,
        num_workers=workers,
        collate_fn=_unchanged,
        pin_memory=pin_memory,
        worker_init_fn=_quiet_worker if workers else None,
        prefetch_factor=2 if workers else None,
    )
    expected = dataset.start_chunk
    for prepared in loader:
        if prepared.chunk.number < expected:
            raise RuntimeError(f"input chunk {prepared.chunk.number} came after chunk {expected - 1}: out of order")
        expected = prepared.chunk.number + 1
        yield prepared
