"""The SRL network, composed once for training and labeling: the words' embeddings → the sentences encoded once
where a part reads them → the predicates (given, or the head's) → frame features → every frame scored, lost and
decoded → its readout. Plain torch: the allennlp Model (`srl_zoo.models.srl_model`) adds the embedder, loss,
metrics and vocabulary around it; the runtime (`srl_zoo.runtime.model`) builds it from an archive's parts."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.data.sentence_metadata import SentenceMetadata
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.frame_features.frame_feature_inputs import FrameFeatureInputs
from srl_zoo.parts.frame_readout import FrameReadout
from srl_zoo.parts.heads.predicate_finder import PredicateFinder
from srl_zoo.parts.predicate_step import frame_predicates
from srl_zoo.parts.scorers.frame_groups import DEFAULT_ROW_TOKENS, score_frame_groups
from srl_zoo.parts.scorers.frame_scorer import FrameScorer


@dataclass
class NetworkInputs:
    """One batch as the network reads it.

    # Parameters

    embedded : `(batch, seq_len, word_dim)` the words' embeddings.
    mask : `(batch, seq_len)` bool.
    context : the batch's side inputs (each sentence's `SentenceMetadata`, gold labels, given parses).
    given_predicates : `(batch, num_frames)` the data's or the request's predicate indices, padded with -1.
    gold_tags : `(batch, num_frames, seq_len)` BIO tag ids of the given predicates' frames, or None.
    teacher_probabilities : `(batch, num_frames, seq_len, num_labels)` a teacher's tag distributions, or None.
    word_inputs : what the embedder read, for a frame-feature source that reads it again, or None.
    """

    embedded: torch.Tensor
    mask: torch.Tensor
    context: BatchInputs
    given_predicates: torch.Tensor
    gold_tags: Optional[torch.Tensor] = None
    teacher_probabilities: Optional[torch.Tensor] = None
    word_inputs: Optional[Any] = None

    @property
    def metadata(self) -> Optional[Sequence[SentenceMetadata]]:
        """Per sentence its `SentenceMetadata`, or None."""
        return self.context.sentences


@dataclass(frozen=True)
class NetworkPass:
    """How one pass runs.

    # Parameters

    predicate_source : `"gold"` (the given predicates; the head's for sentences given without) or `"predicted"`
        (the head's): where predicates come from when not training.
    decodes : decode the frames (and have the parts update their metrics).
    with_probabilities : also each frame's tag distributions (`class_probabilities`).
    with_span_scores : also each decoded span's log-probability (`span_log_probabilities`).
    sentences_read_elsewhere : encode the sentences even where no part of the network reads them (the caller's
        auxiliary tasks do).
    """

    predicate_source: str = "gold"
    decodes: bool = True
    with_probabilities: bool = False
    with_span_scores: bool = True
    sentences_read_elsewhere: bool = False


@dataclass
class NetworkOutput:
    """What one pass gives.

    # Parameters

    outputs : `mask`, `predicate_indices (batch, num_frames)`, the head's `predicate_label_ids` and
        `predicate_scores (batch, seq_len)`, and when decoding `predicted_tags (batch, num_frames, seq_len)`,
        `class_probabilities` and `span_log_probabilities` as asked (`ScoredFrames`).
    losses : the head's and the frames' losses, where gold labels were given.
    sentences : the sentence encodings, or None where nothing read them.
    """

    outputs: dict[str, Any]
    losses: list[torch.Tensor]
    sentences: Optional[EncodedSentences]


class SrlNetwork(nn.Module):
    """A frame scorer with its output layer, a predicate head (or none), a frame-feature source (or none) and the
    readout of their output. `build_network` makes it on a module already initialised (the allennlp Model and
    the runtime's model are both one), so that the parts keep their names in the state dict."""

    frame_scorer: FrameScorer
    predicate_head: Optional[PredicateFinder]
    frame_features: Optional[nn.Module]
    readout: FrameReadout
    #: argument scores are the output layer's divided by it (an archive's calibration; 1 without)
    score_temperature: float = 1.0
    #: padded (sentence, frame, token) cells per group of frames when not training (memory ceiling; in training
    #: all frames are scored at once)
    inference_row_tokens: int = DEFAULT_ROW_TOKENS

    def build_network(
        self,
        frame_scorer: FrameScorer,
        predicate_head: Optional[PredicateFinder],
        tags: dict[int, str],
        frame_features: Optional[nn.Module] = None,
    ) -> None:
        """Hold the parts.

        # Parameters

        frame_scorer : scores, loses and decodes each frame's tags.
        predicate_head : finds the predicates (a module giving `PredicateFinder`), or None.
        tags : `{index: BIO tag}` of the scorer's labels.
        frame_features : `forward(FrameFeatureInputs)` → `(batch, num_frames, seq_len, dim)` features the scorer
            reads beside the words (AMN's memory), or None.
        """
        self.frame_scorer = frame_scorer
        self.predicate_head = predicate_head
        self.frame_features = frame_features
        self.readout = FrameReadout(tags, predicate_head)

    def run_network(self, batch: NetworkInputs, how: NetworkPass) -> NetworkOutput:
        """One pass over `batch` (see `NetworkInputs`, `NetworkPass` and `NetworkOutput`)."""
        sentences = None
        if self.frame_scorer.scores_from_sentences or self.predicate_head is not None or how.sentences_read_elsewhere:
            sentences = self.frame_scorer.encode_sentences(batch.embedded, batch.mask, batch.context)
        predicates = frame_predicates(
            self.predicate_head,
            how.predicate_source,
            self.training,
            batch.given_predicates,
            (sentences, batch.mask, batch.context, batch.metadata),
            how.decodes,
        )
        features = None
        if self.frame_features is not None:  # (batch, num_frames, seq_len, feature_dim)
            features = self.frame_features(
                FrameFeatureInputs(
                    batch.embedded,
                    batch.mask,
                    predicates.indices,
                    batch.metadata,
                    predicates.pos_ids,
                    batch.word_inputs,
                )
            )
        gold_tags, teacher = (
            (None, None) if predicates.uses_predicted else (batch.gold_tags, batch.teacher_probabilities)
        )
        scored = score_frame_groups(
            self.frame_scorer,
            (batch.embedded, batch.mask, predicates.indices, sentences, features),
            gold_tags,
            how.decodes,
            how.with_probabilities,
            row_tokens=None if self.training else self.inference_row_tokens,
            with_span_scores=how.with_span_scores,
            score_temperature=self.score_temperature,
            teacher_probabilities=teacher,
        )
        outputs: dict[str, Any] = {"mask": batch.mask, **predicates.outputs, "predicate_indices": predicates.indices}
        outputs |= scored.outputs()
        losses = [loss for loss in (predicates.loss, scored.loss) if loss is not None]
        return NetworkOutput(outputs, losses, sentences)

    def readable_frames(self, decoded: dict[str, Any]) -> list[list[dict[str, Any]]]:
        """Each sentence's frames (`frame_json`'s form: predicate, tags, arguments with scores) of a decoded pass's
        outputs (with `words`)."""
        return self.readout.readable(decoded, self.frame_scorer.decoding == "dependency")
