"""The `bilinear` frame scorer (LISA): one encoder pass per sentence, every (predicate, token) pair scored (plain
torch; `srl_zoo.modules.frame_scorers.bilinear` registers it)."""

from typing import Any, Optional

import torch

from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.encoders.sentence_encoder import SentenceEncoder
from srl_zoo.parts.layers.biaffine import LabeledBilinear, mlp
from srl_zoo.parts.layers.relative_position_bias import RelativePositionBias
from srl_zoo.parts.outputs.tag_output import TagOutput
from srl_zoo.parts.scorers.frame_scorer import FrameScorer


class BilinearFrameScorer(FrameScorer):
    """Encodes each sentence once (no predicate marked), projects one layer through a predicate MLP and
    a role MLP, and scores every tag for every (predicate, token) pair with a bilinear map (with
    biases): `logits[b, f, t, l] = [p_f; 1]ᵀ W_l [r_t; 1]`. All predicates of a sentence cost one
    encoder pass, however many there are.

    # Parameters

    encoder : a `SentenceEncoder` (any allennlp `Seq2SeqEncoder` in a config), read through its `encode`; `lisa`'s
        gets the batch's side inputs and exposes every layer to the heads.
    tag_output : the output layer (`TagOutput`), built over the `num_labels` tags (in a config: `output`).
    num_labels : how many BIO tags (the label namespace's size).
    mlp_dim : width of the predicate and role MLPs (LISA: 200).
    dropout : dropout after the MLPs.
    layer : which of the encoder's layers the roles are read from (default the top one).
    label_namespace : vocabulary namespace of the tags.
    frame_feature_dim : width of per-frame token features (AMN's memory); the role MLP then reads each
        token's state with its features for that frame, so roles are computed per (predicate, token).
    position_bias : add a learned score per label for each token's bucketed offset from the predicate
        (`RelativePositionBias`); off by default (LISA has none).
    """

    scores_from_sentences = True

    def __init__(
        self,
        encoder: SentenceEncoder,
        tag_output: TagOutput,
        num_labels: int,
        mlp_dim: int = 200,
        dropout: float = 0.1,
        layer: int = -1,
        label_namespace: str = "labels",
        frame_feature_dim: int = 0,
        position_bias: bool = False,
    ) -> None:
        super().__init__()
        self.label_namespace = label_namespace
        self.tag_output = tag_output
        self.encoder = encoder
        self.layer = layer
        self.frame_feature_dim = frame_feature_dim
        self.predicate_mlp = mlp(encoder.get_output_dim(), mlp_dim, dropout)
        self.role_mlp = mlp(encoder.get_output_dim() + frame_feature_dim, mlp_dim, dropout)
        self.bilinear = LabeledBilinear(mlp_dim, mlp_dim, num_labels)
        self.position_bias = RelativePositionBias(num_labels) if position_bias else None

    @classmethod
    def encoder_input_widths(cls, word_dim: int, settings: dict[str, Any]) -> dict[str, int]:
        """The words alone: frame features go to the role MLP, not the encoder."""
        return {"words": word_dim}

    def get_input_dim(self) -> int:
        return self.encoder.get_input_dim()

    def get_sentence_output_dim(self) -> int:
        return self.encoder.get_output_dim()

    def encode_sentences(
        self, embedded: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
    ) -> EncodedSentences:
        return self.encoder.encode(embedded, mask, context)

    def forward(
        self,
        embedded: torch.Tensor,
        mask: torch.Tensor,
        predicate_indices: torch.Tensor,
        sentences: Optional[EncodedSentences] = None,
        frame_features: Optional[torch.Tensor] = None,
    ) -> list[torch.Tensor]:
        """Logits `(batch, num_frames, seq_len, num_labels)` (zeros for padded frames)."""
        if sentences is None:
            sentences = self.encode_sentences(embedded, mask)
        states = sentences.layers[self.layer]  # (batch, seq_len, dim)
        frame_mask = predicate_indices >= 0
        gather = predicate_indices.clamp(min=0).unsqueeze(-1).expand(-1, -1, states.size(-1))
        predicates = self.predicate_mlp(states.gather(1, gather))  # (batch, num_frames, mlp_dim)
        if predicates.size(1) == 0:
            return [states.new_zeros(states.size(0), 0, states.size(1), self.bilinear.get_num_labels())]
        if self.frame_feature_dim:
            if frame_features is None:
                frame_features = states.new_zeros(frame_mask.shape + (states.size(1), self.frame_feature_dim))
            per_frame = states.unsqueeze(1).expand(-1, predicates.size(1), -1, -1)  # (batch, frames, len, dim)
            roles = self.role_mlp(torch.cat([per_frame, frame_features.to(states.dtype)], -1))
            logits = self.bilinear.paired(predicates, roles)  # (batch, num_frames, seq_len, num_labels)
        else:
            roles = self.role_mlp(states)  # (batch, seq_len, mlp_dim)
            logits = self.bilinear(predicates, roles)  # (batch, num_frames, seq_len, num_labels)
        if self.position_bias is not None:
            logits = logits + self.position_bias(predicate_indices, states.size(1)).to(logits.dtype)
        return [logits * frame_mask[..., None, None].to(logits.dtype)]
