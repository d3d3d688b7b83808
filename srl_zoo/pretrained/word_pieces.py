"""Words to word pieces with the `tokenizers` library, from a transformer folder's `tokenizer.json` (an archive's
own): one call per batch, special tokens around each segment of at most `max_length` pieces (a longer sentence is
cut into several, as allennlp's indexer folds it), and the word each piece belongs to. The runtime's embedders and
the training side's `word_pieces` indexer (`srl_zoo.pretrained.word_piece_indexer`) both split words here."""

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

from srl_zoo.archive_files import ArchiveError


@dataclass
class PieceBatch:
    """A batch of sentences as transformer rows (one per segment; a sentence of up to `max_length` pieces is one).

    # Parameters

    ids : `(rows, row_length)` int64 piece ids, padded. attention_mask : `(rows, row_length)` bool, real pieces.
    piece_rows, piece_positions : `(num_pieces,)` int64, where each word piece of the batch sits (row, position).
    piece_slots : `(num_pieces,)` int64, its word as `sentence × num_words + word`.
    (numpy arrays: the torch embedder takes them as tensors, the inference graphs as they are)
    num_words : the longest sentence in words. num_sentences : how many sentences.
    """

    ids: np.ndarray
    attention_mask: np.ndarray
    piece_rows: np.ndarray
    piece_positions: np.ndarray
    piece_slots: np.ndarray
    num_words: int
    num_sentences: int


class WordPieces:
    """A transformer's tokenizer, each sentence's words split into pieces (each word on its own).

    # Parameters

    directory : the transformer folder (`tokenizer.json` in it; an archive's `transformer` folder).
    max_length : the most pieces of one transformer row, special tokens included (None: no limit).
    """

    def __init__(self, directory: str, max_length: Optional[int] = None) -> None:
        from tokenizers import Tokenizer

        path = os.path.join(directory, "tokenizer.json")
        if not os.path.isfile(path):
            raise ArchiveError(directory, "no tokenizer.json: word pieces are read from fast-tokenizer files only")
        self.tokenizer = Tokenizer.from_file(path)
        self.max_length = max_length
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.start, self.end = self._special_ids()
        self.pad_id = self._pad_id(directory)
        specials = len(self.start) + len(self.end)
        self.segment = (max_length - specials) if max_length else None

    def _special_ids(self) -> tuple[list[int], list[int]]:
        """The ids the tokenizer puts before and after one sequence (BERT: [CLS] … [SEP]; MPNet: <s> … </s>)."""
        plain = self.tokenizer.encode(["a"], is_pretokenized=True, add_special_tokens=False).ids
        wrapped = self.tokenizer.encode(["a"], is_pretokenized=True, add_special_tokens=True).ids
        at = next(i for i in range(len(wrapped)) if wrapped[i : i + len(plain)] == plain)
        return wrapped[:at], wrapped[at + len(plain) :]

    def _pad_id(self, directory: str) -> int:
        """The padding id (`pad_token` of `special_tokens_map.json`, else 0)."""
        path = os.path.join(directory, "special_tokens_map.json")
        token = None
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                token = json.load(handle).get("pad_token")
            token = token.get("content") if isinstance(token, dict) else token
        found = self.tokenizer.token_to_id(token) if token else None
        return 0 if found is None else found

    def split(self, sentences: Sequence[Sequence[str]]) -> list[tuple[list[int], list[Optional[int]]]]:
        """Each sentence's piece ids (no special tokens) and the word of each piece, in one tokenizer call.

        # Parameters

        sentences : lists of words.
        """
        encodings = self.tokenizer.encode_batch([list(words) for words in sentences], is_pretokenized=True,
                                                add_special_tokens=False)  # fmt: skip
        return [(encoding.ids, encoding.word_ids) for encoding in encodings]

    def segments(self, num_pieces: int) -> list[slice]:
        """Where each segment of a sentence of `num_pieces` pieces lies (one segment, even when empty)."""
        size = self.segment or max(num_pieces, 1)
        return [slice(start, start + size) for start in range(0, max(num_pieces, 1), size)]

    def row(self, pieces: list[int], segment: slice) -> list[int]:
        """The transformer row of one segment of a sentence's `pieces`: the segment between the special tokens."""
        return self.start + pieces[segment] + self.end

    def batch(self, sentences: Sequence[Sequence[str]]) -> PieceBatch:
        """The rows, masks and piece places of `sentences` (each a non-empty list of words)."""
        num_words = max(len(words) for words in sentences)
        rows: list[list[int]] = []
        places: tuple[list[int], list[int], list[int]] = ([], [], [])
        for sentence, (pieces, words) in enumerate(self.split(sentences)):
            for segment in self.segments(len(pieces)):
                row = len(rows)
                rows.append(self.row(pieces, segment))
                for offset, word in enumerate(words[segment]):
                    if word is not None:
                        places[0].append(row)
                        places[1].append(len(self.start) + offset)
                        places[2].append(sentence * num_words + word)
        length = max(len(row) for row in rows)
        ids = np.full((len(rows), length), self.pad_id, dtype=np.int64)
        attention = np.zeros((len(rows), length), dtype=bool)
        for index, row_ids in enumerate(rows):
            ids[index, : len(row_ids)] = row_ids
            attention[index, : len(row_ids)] = True
        piece_rows, piece_positions, piece_slots = (np.array(values, dtype=np.int64) for values in places)
        return PieceBatch(ids, attention, piece_rows, piece_positions, piece_slots, num_words, len(sentences))
