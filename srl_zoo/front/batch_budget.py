"""The one batching policy of every path that labels many sentences (the Python API, `srl-zoo label`, the spaCy
component, the service): sentences sorted by size and cut into model calls within one `BatchBudget`."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Optional

#: a call holds at most this many (sentence, word, word) cells: sentences x longest length squared bounds the
#: (sentence, frame, token) cells of its frames, so a very long sentence goes (nearly) alone
MAX_BATCH_CELLS = 1_000_000
#: and at most this many padded characters, counted twice: sentences x the most characters of one, and
#: sentences x longest length x longest word. A sub-word encoder pads every sentence to the batch's
#: longest in word pieces and every word to the batch's longest word in pieces (to pool them), and
#: characters bound word pieces without a tokenizer. Words alone do not: in the EWT dev text pasted as
#: one string, a 49-word sentence of 895 characters (URLs) is 443 word pieces (its batch took 485 MB per
#: attention tensor), and a batch holding a line of 89 "=" signs and a 48-piece word took 400 MB to pool
MAX_BATCH_CHARACTERS = 12_000


class SentenceShape(NamedTuple):
    """What a sentence adds to a batch's padded tensors: its words, its characters (a bound of its word
    pieces) and its longest word's characters (a bound of the pieces one word is pooled from)."""

    words: int
    characters: int = 0
    longest_word: int = 0

    @classmethod
    def of(cls, words: Sequence[str]) -> "SentenceShape":
        return cls(len(words), sum(map(len, words)), max(map(len, words), default=0))

    def padded(self, other: "SentenceShape") -> "SentenceShape":
        """The shape both sentences are padded to in one batch."""
        return SentenceShape(*(max(mine, theirs) for mine, theirs in zip(self, other, strict=False)))


@dataclass(frozen=True)
class BatchBudget:
    """The bounds of one model call, counted on the call's padded shape; a sentence past them goes alone.

    # Parameters

    sentences : sentences per call (the batch size).
    cells : sentences x longest sentence's words², at most (bounds the frames' (sentence, frame, token) cells).
    characters : sentences x the most characters of one, and sentences x longest length x longest word, at
        most (bounds a sub-word encoder's word pieces and their pooling); None: no character bound.
    """

    sentences: int = 64
    cells: int = MAX_BATCH_CELLS
    characters: Optional[int] = MAX_BATCH_CHARACTERS

    def __post_init__(self) -> None:
        check_batch_size(self.sentences)

    def with_sentences(self, sentences: int) -> "BatchBudget":
        """This budget with `sentences` per call."""
        return replace(self, sentences=sentences)

    def fits(self, count: int, shape: SentenceShape) -> bool:
        """Whether `count` sentences padded to `shape` fit."""
        if count > self.sentences or count * shape.words**2 > self.cells:
            return False
        if self.characters is None:
            return True
        return max(count * shape.characters, count * shape.words * shape.longest_word) <= self.characters

    def cut(self, order: Sequence[int], shapes: Sequence[SentenceShape]) -> Iterator[list[int]]:
        """Consecutive calls of `order` (indices into `shapes`, sorted by size) within the budget."""
        batch: list[int] = []
        padded = SentenceShape(0)
        for i in order:
            grown = padded.padded(shapes[i])
            if batch and not self.fits(len(batch) + 1, grown):
                yield batch
                batch, grown = [], shapes[i]
            batch.append(i)
            padded = grown
        if batch:
            yield batch

    def calls(self, sentences: Sequence[Sequence[str]]) -> Iterator[list[int]]:
        """The model calls of `sentences` (each a list of words): their indices sorted by size (characters,
        then words: similar sentences share a call, with little padding), cut within the budget."""
        shapes = [SentenceShape.of(words) for words in sentences]
        yield from self.cut(by_size(shapes), shapes)


def by_size(shapes: Sequence[SentenceShape]) -> list[int]:
    """The indices of `shapes` from the smallest sentence to the largest (characters, then words)."""
    return sorted(range(len(shapes)), key=lambda i: (shapes[i].characters, shapes[i].words))


def check_batch_size(batch_size: object) -> None:
    """`ValueError` unless `batch_size` is a whole number of sentences, at least 1."""
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size must be a whole number of sentences, at least 1; got {batch_size!r}")
