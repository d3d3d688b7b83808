"""The `word_pieces` token indexer: each word's word pieces from the transformer folder's `tokenizer.json`, split by
the runtime's own `WordPieces` (one tokenizer call per sentence), laid out as allennlp's
`pretrained_transformer_mismatched` indexer lays them out, so that its embedder (and srl_zoo's adapted one) reads
them unchanged. Training and labeling thus split words into pieces in one place (allennlp's indexer asks the Hugging
Face tokenizer once per word and, with `max_length`, builds the special tokens with a method transformers 5 removed)."""

from typing import Any, Optional

import torch
from allennlp.common.util import pad_sequence_to_length
from allennlp.data import Vocabulary
from allennlp.data.token_indexers import TokenIndexer
from allennlp.data.token_indexers.token_indexer import IndexedTokenList
from allennlp.data.tokenizers import Token

from srl_zoo.pretrained.word_pieces import WordPieces


@TokenIndexer.register("word_pieces")
class WordPieceIndexer(TokenIndexer):
    """Words to the word pieces of a local transformer (its folder's `tokenizer.json`), each word split on its own,
    with the special tokens around the sentence, or around each segment of at most `max_length` pieces (a longer
    sentence is cut, as the embedder with the same `max_length` folds it; a sentence none of whose words has a piece
    is one segment of special tokens, where allennlp's indexer gives its embedder an empty row). Use it with the
    `pretrained_transformer_mismatched` or `pretrained_transformer_adapted` embedder of the same `model_name`.

    ```jsonnet
    "token_indexers": {"tokens": {"type": "word_pieces", "model_name": "/path/to/minilm", "max_length": 512}}
    ```

    # Parameters

    model_name : the transformer's folder (`tokenizer.json` in it), as the embedder names it.
    max_length : the most pieces of one segment, special tokens included (None: a sentence is one segment).
    token_min_padding_length : the fewest positions a batch pads to (allennlp's).
    """

    def __init__(self, model_name: str, max_length: Optional[int] = None, token_min_padding_length: int = 0) -> None:
        super().__init__(token_min_padding_length)
        self.model_name = model_name
        self.max_length = max_length
        self.pieces = WordPieces(model_name, max_length)

    def count_vocab_items(self, token: Token, counter: dict[str, dict[str, int]]) -> None:
        """Nothing: word pieces come from the tokenizer, not the vocabulary."""

    def tokens_to_indices(self, tokens: list[Token], vocabulary: Vocabulary) -> IndexedTokenList:
        """`token_ids` (the segments, each between special tokens), `type_ids`, `offsets` (each word's first and last
        piece, counted without the segments' inner special tokens; `(-1, -1)` for a word without pieces), `mask`
        (per word), `wordpiece_mask` and, with `max_length`, `segment_concat_mask`."""
        [(ids, word_of_piece)] = self.pieces.split([[token.ensure_text() for token in tokens]])
        folded = [piece for segment in self.pieces.segments(len(ids)) for piece in self.pieces.row(ids, segment)]
        output: IndexedTokenList = {
            "token_ids": folded,
            "mask": [True] * len(tokens),
            "type_ids": [0] * len(folded),
            "offsets": word_offsets(word_of_piece, len(tokens), len(self.pieces.start)),
            "wordpiece_mask": [True] * (len(self.pieces.start) + len(ids) + len(self.pieces.end)),
        }
        if self.max_length is not None:
            output["segment_concat_mask"] = [True] * len(folded)
        return output

    def get_empty_token_list(self) -> IndexedTokenList:
        """No words: every list empty."""
        keys = ["token_ids", "mask", "type_ids", "offsets", "wordpiece_mask"]
        return {key: [] for key in keys + (["segment_concat_mask"] if self.max_length is not None else [])}

    def as_padded_tensor_dict(self, tokens: IndexedTokenList, padding_lengths: dict[str, int]) -> dict[str, Any]:
        """Each list padded to its length in `padding_lengths`: piece ids with the tokenizer's padding id, type ids
        with 0, offsets with `(0, 0)`, masks with False."""
        tensors: dict[str, Any] = {}
        for key, values in tokens.items():
            padding: Any = 0
            if key == "offsets":
                padding = (0, 0)
            elif key == "token_ids":
                padding = self.pieces.pad_id
            elif key.endswith("mask"):
                padding = False
            padded = pad_sequence_to_length(values, padding_lengths[key], default_value=lambda value=padding: value)
            tensors[key] = (torch.BoolTensor if padding is False else torch.LongTensor)(padded)
        return tensors

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WordPieceIndexer):
            return NotImplemented
        return (self.model_name, self.max_length, self._token_min_padding_length) == (
            other.model_name,
            other.max_length,
            other._token_min_padding_length,
        )


def word_offsets(word_of_piece: list[Optional[int]], num_words: int, first: int) -> list[tuple[int, int]]:
    """Each word's first and last piece (inclusive), the pieces numbered from `first` (after the start tokens);
    `(-1, -1)` for a word without pieces (the embedder gives it zeros).

    # Parameters

    word_of_piece : the word of each piece (None for a piece of no word).
    num_words : how many words.
    first : the number of the first piece.
    """
    offsets = [(-1, -1)] * num_words
    for position, word in enumerate(word_of_piece, start=first):
        if word is not None:
            begin = offsets[word][0]
            offsets[word] = (position if begin == -1 else begin, position)
    return offsets
