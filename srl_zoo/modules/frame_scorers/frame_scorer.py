"""The registrable frame scorer: how the shared Model conditions on predicates and scores BIO tags."""

from typing import Any, Dict, List, Optional

import torch
from allennlp.common import Registrable
from torch import nn

from srl_zoo.modules.encoded_sentences import EncodedSentences


class FrameScorer(nn.Module, Registrable):
    """Turns embedded words, their mask and predicate positions into per-frame BIO tag logits.

    `forward(embedded (batch, seq_len, dim), mask (batch, seq_len), predicate_indices (batch, num_frames),
    sentences, frame_features)` returns a list of logits `(batch, num_frames, seq_len, num_labels)`: one element, or
    one per layer when the scorer is trained with a loss at every layer. Padded frames
    (`predicate_indices == -1`) get zeros. `encode_sentences` reads each sentence once with no
    predicate marked, for the heads (predicate identification, auxiliary tasks) and, in scorers that
    score all predicates from one pass (`bilinear`), for the frames themselves.

    Implementations: `"indicator"` (one encoder row per (sentence, predicate), DeepAtt style) and
    `"bilinear"` (LISA: one pass per sentence, bilinear predicate × token scores).
    """

    default_implementation = "indicator"

    #: whether `forward` needs `encode_sentences`' output (then the Model always computes it)
    scores_from_sentences: bool = False
    #: width of the per-frame token features `forward` reads (e.g. AMN's memory); 0: none
    frame_feature_dim: int = 0

    def get_input_dim(self) -> int:
        """Width of the word embeddings the scorer reads."""
        raise NotImplementedError

    def check_input_dim(self, embedding_dim: int) -> None:
        """Raise a clear `ValueError` when the embedder's width does not fit the scorer."""
        if embedding_dim != self.get_input_dim():
            raise ValueError(
                f"the frame scorer reads {self.get_input_dim()}-d words but the embedder gives {embedding_dim}"
            )

    def check_frame_feature_dim(self, feature_dim: int) -> None:
        """Raise a clear `ValueError` when the scorer was not built for features of this width."""
        if feature_dim != self.frame_feature_dim:
            raise ValueError(
                f"the frame scorer was built for {self.frame_feature_dim}-d frame features (frame_feature_dim) "
                f"but the model gives {feature_dim}-d ones"
            )

    def get_sentence_output_dim(self) -> int:
        """Width of `encode_sentences`' layers."""
        raise NotImplementedError

    def encode_sentences(
        self, embedded: torch.Tensor, mask: torch.Tensor, context: Optional[Dict[str, Any]] = None
    ) -> EncodedSentences:
        """
        # Parameters

        embedded : `(batch, seq_len, dim)` word embeddings.
        mask : `(batch, seq_len)` bool.
        context : side inputs some encoders use, e.g. `{"heads": (batch, seq_len), "use_heads": (batch,)}`
            for LISA's syntax head.
        """
        raise NotImplementedError

    def forward(
        self,
        embedded: torch.Tensor,
        mask: torch.Tensor,
        predicate_indices: torch.Tensor,
        sentences: Optional[EncodedSentences] = None,
        frame_features: Optional[torch.Tensor] = None,
    ) -> List[torch.Tensor]:
        """`frame_features (batch, num_frames, seq_len, frame_feature_dim)`: extra per-frame token
        features (AMN's memory), when the scorer was built for them."""
        raise NotImplementedError
