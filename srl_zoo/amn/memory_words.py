"""How the associated memory turns words into the vectors its shared encoder reads, for the sentence being
labeled and for the remembered ones alike: the model's own single-id word embedding (GloVe-style models),
or a transformer's word-piece input embeddings averaged over each word's pieces (transformer models: the
same static vectors for both sides, since remembered sentences are not run through the transformer)."""

from collections.abc import Callable, Sequence
from typing import Optional

import torch
from allennlp.data import Vocabulary
from allennlp.modules import TextFieldEmbedder
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder
from torch import nn

from srl_zoo.archive_contents import NO_CODE_NO_DOWNLOAD
from srl_zoo.modules.word_piece_folding import folding_of, unfolded_positions
from srl_zoo.parts.frame_features.frame_feature_inputs import FrameFeatureInputs

#: a word's vector averages at most this many of its pieces (the rest of a very long word is ignored)
MAX_PIECES_PER_WORD = 16


class MemoryWords:
    """Word vectors for the memory: `index` gives the remembered sentences' words ids once, `embed_ids`
    embeds them, `embed_targets` gives the batch's own words."""

    def index(self, sentences: Sequence[Sequence[str]]) -> torch.Tensor:
        """`(sentences, longest)` ids of the remembered sentences' words (0 past each sentence's end)."""
        raise NotImplementedError

    def embed_ids(self, ids: torch.Tensor) -> torch.Tensor:
        """`(..., len)` ids from `index` -> `(..., len, dim)` vectors."""
        raise NotImplementedError

    def embed_targets(self, inputs: FrameFeatureInputs) -> torch.Tensor:
        """The batch's words, `(batch, seq_len, dim)`."""
        raise NotImplementedError

    def vocabulary_vectors(self) -> Optional[torch.Tensor]:
        """`(vocab, dim)` vectors of the `tokens` namespace for word-vector selectors; None if there are none."""
        return None


class ModelWordEmbedding(MemoryWords):
    """The model's single-id `tokens` embedding: remembered words are looked up in the vocabulary, the
    batch's words are the model's embedded words.

    # Parameters

    embedder : the model's text field embedder, with one single-id `tokens` embedding.
    vocab : its vocabulary (namespace `tokens`).
    lowercase : look words up lowercased (as the model's token indexer does).
    """

    def __init__(self, embedder: TextFieldEmbedder, vocab: Vocabulary, lowercase: bool) -> None:
        self.embedder, self.vocab, self.lowercase = embedder, vocab, lowercase

    def word_id(self, word: str) -> int:
        return self.vocab.get_token_index(word.lower() if self.lowercase else word, "tokens")

    def index(self, sentences: Sequence[Sequence[str]]) -> torch.Tensor:
        return _padded_ids(sentences, self.word_id)

    def embed_ids(self, ids: torch.Tensor) -> torch.Tensor:
        return self.embedder({"tokens": {"tokens": ids}})

    def embed_targets(self, inputs: FrameFeatureInputs) -> torch.Tensor:
        return inputs.embedded

    def vocabulary_vectors(self) -> Optional[torch.Tensor]:
        ids = torch.arange(self.vocab.get_vocab_size("tokens"), device=_device_of(self.embedder))
        return self.embed_ids(ids.unsqueeze(0)).squeeze(0).float().cpu()


class TransformerPieceEmbedding(MemoryWords):
    """A word is the mean of its word pieces' input embeddings in the model's transformer (no context):
    the remembered words are split by the transformer's own tokenizer, the batch's words are read from
    its indexed word pieces and their offsets.

    # Parameters

    indexer : the text field's key of the transformer (`tokens`).
    transformer : the model's `pretrained_transformer_mismatched` embedder (its input embeddings are shared).
    """

    def __init__(self, indexer: str, transformer: PretrainedTransformerMismatchedEmbedder) -> None:
        self.indexer = indexer
        self.folding = folding_of(transformer)
        model = transformer._matched_embedder.transformer_model
        self.piece_embedding: nn.Embedding = model.get_input_embeddings()
        self.model_name: str = model.config._name_or_path
        self._pieces: Optional[torch.Tensor] = None  # (word types, MAX_PIECES_PER_WORD) piece ids, -1 padded

    def index(self, sentences: Sequence[Sequence[str]]) -> torch.Tensor:
        """Word-type ids; their pieces (one batched tokenizer call) are kept for `embed_ids`."""
        from allennlp.common import cached_transformers

        types = {word: i for i, word in enumerate(dict.fromkeys(w for words in sentences for w in words))}
        tokenizer = cached_transformers.get_tokenizer(self.model_name, **NO_CODE_NO_DOWNLOAD)
        pieces = tokenizer(list(types), add_special_tokens=False)["input_ids"]
        table = torch.full((len(types), MAX_PIECES_PER_WORD), -1, dtype=torch.long)
        for i, word_pieces in enumerate(pieces):
            word_pieces = word_pieces[:MAX_PIECES_PER_WORD] or [tokenizer.unk_token_id]
            table[i, : len(word_pieces)] = torch.tensor(word_pieces)
        self._pieces = table
        return _padded_ids(sentences, types.__getitem__)

    def embed_ids(self, ids: torch.Tensor) -> torch.Tensor:
        if self._pieces is None:
            raise RuntimeError("TransformerPieceEmbedding.embed_ids before index")
        if self._pieces.device != ids.device:
            self._pieces = self._pieces.to(ids.device)
        pieces = self._pieces[ids]  # (..., len, MAX_PIECES_PER_WORD)
        present = (pieces >= 0).unsqueeze(-1)
        vectors = self.piece_embedding(pieces.clamp(min=0)) * present
        return vectors.sum(-2) / present.sum(-2).clamp(min=1)

    def embed_targets(self, inputs: FrameFeatureInputs) -> torch.Tensor:
        """Each word's mean over its first `MAX_PIECES_PER_WORD` pieces `offsets[w, 0] ..= offsets[w, 1]` of the
        indexed `token_ids` (with the specials of allennlp's folding taken out first)."""
        if inputs.tokens is None:
            raise RuntimeError("the associated memory needs the batch's word pieces (the Model gives them)")
        tokens = inputs.tokens[self.indexer]
        folded = self.piece_embedding(tokens["token_ids"])  # (batch, folded pieces, dim)
        unfolded, special = unfolded_positions(folded.size(1), self.folding, folded.device)
        vectors = folded.new_zeros(folded.size(0), int(folded.size(1)), folded.size(2))
        vectors[:, unfolded[~special]] = folded[:, ~special]  # (batch, pieces, dim): the offsets' numbering
        running = torch.cat([vectors.new_zeros(vectors.size(0), 1, vectors.size(2)), vectors.cumsum(1)], dim=1)
        offsets = tokens["offsets"]  # (batch, seq_len, 2), inclusive
        start = offsets[..., 0]
        end = torch.minimum(offsets[..., 1] + 1, start + MAX_PIECES_PER_WORD)  # as `index` cuts them
        totals = _rows_at(running, end) - _rows_at(running, start)  # (batch, seq_len, dim)
        return totals / (end - start).clamp(min=1).unsqueeze(-1).to(totals.dtype)


def memory_words_of(embedder: TextFieldEmbedder, vocab: Vocabulary, lowercase: bool) -> MemoryWords:
    """The memory's word vectors for this model's embedder; a one-line error for any other embedder."""
    token_embedders = embedder._token_embedders if isinstance(embedder, BasicTextFieldEmbedder) else {}
    if len(token_embedders) == 1:
        ((indexer, only),) = token_embedders.items()
        if isinstance(only, PretrainedTransformerMismatchedEmbedder):
            return TransformerPieceEmbedding(indexer, only)
        if indexer == "tokens" and hasattr(only, "weight"):
            return ModelWordEmbedding(embedder, vocab, lowercase)
    raise ValueError(
        "the associated memory needs a text_field_embedder with exactly one single-id 'tokens' embedding or one "
        f"pretrained_transformer_mismatched embedder (found: {sorted(token_embedders)})"
    )


def _padded_ids(sentences: Sequence[Sequence[str]], id_of: Callable[[str], int]) -> torch.Tensor:
    """`(sentences, longest)` ids `id_of(word)` of each sentence's words, 0 past each sentence's end."""
    ids = torch.zeros(len(sentences), max(len(words) for words in sentences), dtype=torch.long)
    for s, words in enumerate(sentences):
        ids[s, : len(words)] = torch.tensor([id_of(w) for w in words])
    return ids


def _rows_at(values: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """`values[b, index[b, i]]` for `values (batch, n, dim)` and `index (batch, m)`: `(batch, m, dim)`."""
    return values.gather(1, index.unsqueeze(-1).expand(-1, -1, values.size(2)))


def _device_of(module: nn.Module) -> torch.device:
    return next(module.parameters()).device
