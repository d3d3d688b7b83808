"""The `marked_predicate_transformer` frame features: the Model's own transformer run once more per (sentence,
predicate) row with the predicate marked in its input by token-type id 1 (Shi & Lin 2019's BERT for SRL, what
allennlp-models' `srl_bert` does), its word vectors being the frame's features."""

from typing import Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.modules import TextFieldEmbedder
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder
from torch import nn

from srl_zoo.modules.frame_features import FrameFeatures
from srl_zoo.modules.word_piece_folding import Folding, folding_of, unfolded_positions
from srl_zoo.parts.frame_features.frame_feature_inputs import FrameFeatureInputs


def predicate_type_ids(
    offsets: torch.Tensor, predicates: torch.Tensor, num_wordpieces: int, folding: Optional[Folding] = None
) -> torch.Tensor:
    """Token-type ids marking each row's predicate: 1 on the word pieces of its predicate word, 0 elsewhere.

    # Parameters

    offsets : `(rows, seq_len, 2)` the first and last word piece of each word (the mismatched indexer's).
    predicates : `(rows,)` the predicate's word index in each row.
    num_wordpieces : the rows' word-piece length.
    folding : for an indexer with a `max_length`, `(max_length, start_tokens, end_tokens)`: its word pieces
        are cut into segments of `max_length` that each begin and end with special tokens (allennlp's
        folding), which the offsets do not count.

    # Returns

    `(rows, num_wordpieces)` long.
    """
    span = offsets[torch.arange(offsets.size(0), device=offsets.device), predicates]  # (rows, 2)
    unfolded, special = unfolded_positions(num_wordpieces, folding, offsets.device)
    return ((unfolded >= span[:, :1]) & (unfolded <= span[:, 1:]) & ~special).long()


@FrameFeatures.register("marked_predicate_transformer")
class MarkedPredicateTransformer(FrameFeatures):
    """Runs the Model's `pretrained_transformer_mismatched` embedder (the same weights, trained by both uses)
    over one row per (sentence, predicate) whose predicate's word pieces have token-type id 1, and returns
    each row's word vectors as the frame's features; a frame scorer reading them (e.g. `indicator` with a
    `pass_through` encoder) then tags every word from a predicate-aware encoding, as `srl_bert` does.

    # Parameters

    vocab : the vocabulary (unused; the Model builds every feature source with it).
    word_dim : the embedder's width, which is also the features' width.
    indexer : the name of the transformer's indexer in the `tokens` field.
    dropout : dropout on the features.
    """

    def __init__(self, vocab: Vocabulary, word_dim: int, indexer: str = "tokens", dropout: float = 0.1) -> None:
        super().__init__()
        self.word_dim = word_dim
        self.indexer = indexer
        self.dropout = nn.Dropout(dropout)
        self._transformer: Optional[PretrainedTransformerMismatchedEmbedder] = None

    def get_output_dim(self) -> int:
        return self.word_dim

    def prepare(self, embedder: TextFieldEmbedder, predicts_pos: bool) -> None:
        """Take the embedder's transformer for the marked rows; a `ConfigurationError` if it has none."""
        token_embedders = embedder._token_embedders if isinstance(embedder, BasicTextFieldEmbedder) else {}
        transformer = token_embedders.get(self.indexer)
        if not isinstance(transformer, PretrainedTransformerMismatchedEmbedder):
            raise ConfigurationError(
                f"marked_predicate_transformer needs a `pretrained_transformer_mismatched` embedder named "
                f"{self.indexer!r} in the model's text_field_embedder"
            )
        if transformer._matched_embedder._number_of_token_type_embeddings() < 2:
            raise ConfigurationError("marked_predicate_transformer needs a transformer with 2 token types")
        self.__dict__["_transformer"] = transformer  # shared with the embedder, not registered a second time

    def forward(self, inputs: FrameFeatureInputs) -> torch.Tensor:
        """
        # Parameters

        inputs : the batch; reads `tokens[indexer]` (the word pieces, `(batch, num_wordpieces)`, and
            `offsets`, `(batch, seq_len, 2)`) and `predicate_indices`, `(batch, num_frames)`.

        # Returns

        `(batch, num_frames, seq_len, word_dim)`, zeros for padded frames.
        """
        if self._transformer is None or inputs.tokens is None:
            raise RuntimeError("marked_predicate_transformer was not prepared, or the Model gave it no tokens")
        tokens = inputs.tokens[self.indexer]
        batch, frames = inputs.predicate_indices.shape
        sentence, frame = (inputs.predicate_indices >= 0).nonzero(as_tuple=True)
        if sentence.numel() == 0:  # no predicate in the batch: nothing to encode
            return inputs.embedded.new_zeros(batch, frames, inputs.mask.size(1), self.word_dim)
        rows = {name: tensor[sentence] for name, tensor in tokens.items() if name != "type_ids"}
        rows["type_ids"] = predicate_type_ids(
            rows["offsets"],
            inputs.predicate_indices[sentence, frame],
            rows["token_ids"].size(1),
            folding_of(self._transformer),
        )
        vectors = self.dropout(self._transformer(**rows))  # (rows, seq_len, word_dim)
        features = vectors.new_zeros(batch, frames, vectors.size(1), self.word_dim)
        features[sentence, frame] = vectors
        return features
