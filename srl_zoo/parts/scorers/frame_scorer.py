"""The frame scorer: how the shared Model conditions on predicates and scores BIO tags (plain torch; the registered
scorers of `srl_zoo.modules.frame_scorers` subclass it)."""

from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.encoders.sentence_encoder import SentenceEncoder
from srl_zoo.parts.outputs.tag_output import TagOutput


class FrameScorer(nn.Module):
    """Turns embedded words, their mask and predicate positions into per-frame BIO tag scores, and owns
    what follows from them: the tag loss (`loss`) and decoding (`decode`). The Model composes; it never
    looks inside the scores.

    `forward(embedded (batch, seq_len, dim), mask (batch, seq_len), predicate_indices (batch, num_frames),
    sentences, frame_features)` returns a list of logits `(batch, num_frames, seq_len, num_labels)`: one element, or
    one per layer when the scorer is trained with a loss at every layer. Padded frames
    (`predicate_indices == -1`) get zeros. `encode_sentences` reads each sentence once with no
    predicate marked, for the heads (predicate identification, auxiliary tasks) and, in scorers that
    score all predicates from one pass (`bilinear`), for the frames themselves.

    `loss` and `decode` belong to the scorer's output layer (`TagOutput`), a part of its own configured
    under the scorer's `output` key and built over the scorer's tags: `softmax`
    (per-token cross entropy; argmax, Viterbi or dependency decoding; label smoothing) or `crf` (a
    linear-chain CRF's likelihood and Viterbi over learned transitions). Any scorer gets any output layer.

    Implementations: `"indicator"` (one encoder row per (sentence, predicate), DeepAtt style),
    `"bilinear"` (LISA: one pass per sentence, bilinear predicate × token scores).
    """

    #: the scorer's encoder, as the contract it offers (`srl_zoo.parts.encoders.sentence_encoder`)
    encoder: SentenceEncoder

    #: whether `forward` needs `encode_sentences`' output (then the Model always computes it)
    scores_from_sentences: bool = False
    #: width of the per-frame token features `forward` reads (e.g. AMN's memory); 0: none
    frame_feature_dim: int = 0

    tag_output: TagOutput
    #: vocabulary namespace of the tags
    label_namespace: str = "labels"

    @classmethod
    def encoder_input_widths(cls, word_dim: int, settings: dict[str, Any]) -> dict[str, int]:
        """What the scorer configured by `settings` (its config's keys; defaults where left out) feeds its encoder
        for `word_dim`-wide words, by name: `{"words": 384, "predicate embedding": 32}`; the encoder's input width is
        their sum (the registered scorers build their encoder with it; a config leaves the width out)."""
        raise NotImplementedError

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
        self, embedded: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
    ) -> EncodedSentences:
        """
        # Parameters

        embedded : `(batch, seq_len, dim)` word embeddings.
        mask : `(batch, seq_len)` bool.
        context : the batch's side inputs, for the encoders that read them (LISA's syntax head: the given
            parse); None: none.
        """
        raise NotImplementedError

    def forward(
        self,
        embedded: torch.Tensor,
        mask: torch.Tensor,
        predicate_indices: torch.Tensor,
        sentences: Optional[EncodedSentences] = None,
        frame_features: Optional[torch.Tensor] = None,
    ) -> list[torch.Tensor]:
        """`frame_features (batch, num_frames, seq_len, frame_feature_dim)`: extra per-frame token
        features (AMN's memory), when the scorer was built for them."""
        raise NotImplementedError

    def row_logits(
        self,
        embedded: torch.Tensor,
        mask: torch.Tensor,
        row_sentences: torch.Tensor,
        row_predicates: torch.Tensor,
        row_features: Optional[torch.Tensor] = None,
    ) -> list[torch.Tensor]:
        """The tag logits of frames given as rows, per layer `(rows, seq_len, num_labels)`: what an inference graph
        of the scorer computes (`srl_zoo.runtime.graph_export`); `NotImplementedError` for a scorer without one.

        # Parameters

        embedded : `(batch, seq_len, dim)`; mask : `(batch, seq_len)` bool.
        row_sentences, row_predicates : `(rows,)` each frame's sentence and predicate position.
        row_features : `(rows, seq_len, frame_feature_dim)` or None.
        """
        raise NotImplementedError(f"the {type(self).__name__} frame scorer has no inference-graph form yet")

    def loss(
        self,
        scores: list[torch.Tensor],
        gold_tags: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        teacher_probabilities: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        """The tag loss of `forward`'s scores: a mean over real frames' real tokens.

        # Parameters

        scores : `forward`'s output, per layer `(batch, num_frames, seq_len, num_labels)`.
        gold_tags : `(batch, num_frames, seq_len)` tag ids.
        frame_mask : `(batch, num_frames)` bool, real frames.
        mask : `(batch, seq_len)` bool, real tokens.
        teacher_probabilities : `(batch, num_frames, seq_len, num_labels)` a teacher's tag distributions, which
            the output layer mixes in (`TagOutput.loss_with_teacher`), or None.
        """
        return self.tag_output.loss_with_teacher(scores, gold_tags, frame_mask, mask, teacher_probabilities)

    def decode(
        self, scores: list[torch.Tensor], frame_mask: torch.Tensor, mask: torch.Tensor, with_probabilities: bool = True
    ) -> tuple[torch.Tensor, Optional[torch.Tensor]]:
        """`predicted_tags (batch, num_frames, seq_len)` (-1 outside real frames and tokens) and, when
        `with_probabilities`, `class_probabilities (batch, num_frames, seq_len, num_labels)`."""
        return self.tag_output.decode(scores, frame_mask, mask, with_probabilities)

    def span_log_probabilities(
        self,
        scores: list[torch.Tensor],
        predicted_tags: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        temperature: float = 1.0,
    ) -> torch.Tensor:
        """`(batch, num_frames, seq_len)` the output layer's log-probability of each decoded span, at the span's
        last token, its scores divided by `temperature` (`TagOutput.span_log_probabilities`)."""
        return self.tag_output.span_log_probabilities(scores, predicted_tags, frame_mask, mask, temperature)

    @property
    def decoding(self) -> str:
        """How tags are decoded: `"argmax"`, `"viterbi"`, `"dependency"` (one tag per argument head), ..."""
        return self.tag_output.decoding

    def set_decoding(self, decoding: str) -> None:
        """Decode with `decoding` from now on (e.g. to compare decodings on one trained model)."""
        self.tag_output.set_decoding(decoding)

    def set_parse_source(self, source: str) -> bool:
        """Have a syntax head inside the scorer (LISA's encoder) attend to `source` parses (`"predicted"` or
        `"given"`); whether the scorer has one: the encoder's contract says (only a syntax-supervised encoder
        honours it)."""
        return self.encoder.set_parse_source(source)
