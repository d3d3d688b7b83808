"""Raw text to labeled sentences, once for both labelers (the runtime's and the allennlp `Labeler`): texts checked
and buffered, split into sentences by a blank spaCy pipeline, batched by length within the labeler's budget, and
given character offsets. A labeler gives `budget`, `language` and `label_words`."""

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional

from srl_zoo.data.formats import READERS
from srl_zoo.data.formats.conll_kind import detect_format
from srl_zoo.data.formats.encodable_text import check_encodable
from srl_zoo.front.batch_budget import BatchBudget, check_batch_size
from srl_zoo.front.text import (
    Sentence,
    blank_pipeline,
    checked_buffers,
    label_by_text,
    split_sentences,
    split_words,
    with_char_offsets,
)


class TextLabeling:
    """The text side of a labeler; subclasses set `budget` (a `BatchBudget`) and `language` (spaCy's code of the
    blank tokenizer) and label tokenized sentences in `label_words`."""

    budget: BatchBudget
    language: str

    def label_words(
        self,
        sentences: Sequence[list[str]],
        predicates: Optional[Sequence[Optional[list[int]]]] = None,
        budget: Optional[BatchBudget] = None,
    ) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each tokenized sentence, batched by length within `budget` (None: the labeler's);
        `predicates`: each sentence's predicate indices, None where the model is to find them."""
        raise NotImplementedError

    @property
    def batch_size(self) -> int:
        """Sentences per model call (the budget's)."""
        return self.budget.sentences

    @functools.cached_property
    def nlp(self) -> Any:
        """spaCy's blank pipeline with its sentencizer, made for the first raw text: a labeler given tokens and
        predicates needs no spaCy."""
        return blank_pipeline(self.language)

    def __call__(self, text: str) -> list[dict[str, Any]]:
        """The labeled sentences of one text (`ValueError` for a character UTF-8 cannot encode)."""
        return next(self.pipe([text]))

    def pipe(
        self, texts: Iterable[str], batch_size: int = 0, buffer_texts: int = 256
    ) -> Iterator[list[dict[str, Any]]]:
        """Labeled sentences of each text, in input order; sentences of up to `buffer_texts` texts
        are sorted by length and labeled in batches of `batch_size` (default: the labeler's) and of at
        most the budget's padded characters, so a long text takes no more memory than its
        sentences given one by one.

        A text that is not a string is a `TypeError`, one with a lone surrogate a `ValueError` naming
        its index in `texts` and the character offset, raised before the texts buffered with it are
        labeled (a list is checked whole before any labeling)."""
        if batch_size:
            check_batch_size(batch_size)
        for buffer in checked_buffers(texts, buffer_texts):
            yield from self.label_texts(buffer, batch_size or self.batch_size)

    def label_file(self, path: str, batch_size: int = 0) -> Iterator[dict[str, Any]]:
        """`{"words", "frames"}` of each sentence of a CoNLL-2005, 2012 or 2009 file (its format told from the
        file), at the file's predicates, in file order, in calls of at most `batch_size` sentences (default: the
        labeler's). The whole file is read first: bad input is a `ValueError` (`ConllFormatError`) naming the file
        and line, before any labeling."""
        check_encodable(path, "path")
        if batch_size:
            check_batch_size(batch_size)
        sentences = list(READERS[detect_format(path)](path))
        budget = self.budget.with_sentences(batch_size or self.batch_size)
        step = budget.sentences * 16  # a few calls' worth at a time: sorted by length within it, yielded in order
        for start in range(0, len(sentences), step):
            part = sentences[start : start + step]
            yield from self.label_words(
                [sentence.tokens for sentence in part], [[f.index for f in s.frames] for s in part], budget
            )

    def split(self, text: str) -> list[Sentence]:
        """Sentences of `text` as words (whitespace and tokens of only control or zero-width characters
        dropped) with their character offsets."""
        return split_sentences(self.nlp, text)

    def tokenize(self, text: str) -> list[str]:
        """The words of `text` (`split`'s, its sentences joined): how a `{"sentence"}` request is tokenized."""
        return split_words(self.nlp, text)

    def label_sentences(
        self,
        sentences: Sequence[Sentence],
        texts: Sequence[str],
        budget: Optional[BatchBudget] = None,
        predicates: Optional[Sequence[Optional[list[int]]]] = None,
    ) -> list[dict[str, Any]]:
        """Label pre-split sentences (`texts[i]` is the string sentence i's offsets point into),
        batched by length within `budget` (None: the labeler's); results in input order. `predicates`:
        each sentence's predicate indices, if given (otherwise the model finds them)."""
        outputs = self.label_words([words for words, _ in sentences], predicates, budget)
        return [
            with_char_offsets(output, offsets, text)
            for output, (_, offsets), text in zip(outputs, sentences, texts, strict=True)
        ]

    def label_texts(self, texts: list[str], batch_size: int) -> Iterator[list[dict[str, Any]]]:
        """The labeled sentences of each text, in order; all texts' sentences batched by length together, in calls
        of at most `batch_size` sentences."""
        budget = self.budget.with_sentences(batch_size)
        yield from label_by_text(texts, self.split, lambda flat, owners: self.label_sentences(flat, owners, budget))
