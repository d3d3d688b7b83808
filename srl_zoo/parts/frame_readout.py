"""From decoded tag ids to frames: the SRL metric's input and the readable JSON output."""

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Protocol

import numpy as np

from srl_zoo.data.formats import SrlFrame, bio_to_spans
from srl_zoo.data.formats.frame_json import FrameScores, frame_json
from srl_zoo.data.formats.labels import NO_SENSE, NOT_A_PREDICATE
from srl_zoo.data.sentence_metadata import SentenceMetadata

#: the out-of-vocabulary token of a padded vocabulary namespace (allennlp's, in every archive's vocabulary)
OOV_TOKEN = "@@UNKNOWN@@"


class PredicateLabels(Protocol):
    """What the readout asks of a predicate head: the predicate label (`-`, `01`, `Y`, ...) of a label id."""

    def label_of(self, label_id: int) -> str: ...


def host_array(values: Any) -> np.ndarray:
    """`values` (a torch tensor on any device and of any dtype, or a numpy array) as a numpy array: the readout
    reads both the torch network's outputs and the inference graphs' (`srl_zoo.graphs`) without importing torch."""
    if hasattr(values, "detach"):  # a torch tensor: bfloat16 has no numpy dtype
        values = values.detach().cpu()
        return (values.float() if values.is_floating_point() else values).numpy()
    return np.asarray(values)


def _probabilities(log_probabilities: Any) -> np.ndarray:
    """`exp(log_probabilities)`, at most 1, as a numpy array, computed by the library that made them (torch's and
    numpy's `exp` may differ in the last bit, and a path's scores stay its own)."""
    if hasattr(log_probabilities, "detach"):
        return host_array(log_probabilities.exp().clamp_max(1.0))
    return np.minimum(np.exp(log_probabilities), np.float32(1.0))


class FrameReadout:
    """Reads a Model output's `predicted_tags (batch, num_frames, seq_len)`, `predicate_indices (batch, num_frames)`,
    `mask` and, from a predicate head, `predicate_label_ids (batch, seq_len)` (torch tensors or numpy arrays).

    # Parameters

    tags : `{index: BIO tag}` of the tags' namespace.
    predicate_head : the model's predicate head (anything with `label_of(id)`: senses), if any.
    """

    def __init__(self, tags: dict[int, str], predicate_head: Optional[PredicateLabels]) -> None:
        self.tags = tags
        self.predicate_head = predicate_head

    def _tags_of(self, ids: list[int]) -> list[str]:
        return [self.tags[i] for i in ids]

    def _sense(self, label_ids: Optional[np.ndarray], sentence: int, index: int) -> Optional[str]:
        """The head's sense (frameset number, e.g. `03`) of the token; `None` where it has none (no
        head, not a predicate, data without senses)."""
        if label_ids is None or self.predicate_head is None:
            return None
        label = self.predicate_head.label_of(int(label_ids[sentence, index]))
        return None if label in (NOT_A_PREDICATE, NO_SENSE, OOV_TOKEN) else label

    def _frames(self, output: dict[str, Any]) -> Iterator[tuple[int, int, int, list[str], Optional[str]]]:
        """Per real frame: (sentence, frame, predicate index, BIO tags, sense)."""
        tags = host_array(output["predicted_tags"])
        lengths = host_array(output["mask"]).sum(-1).tolist()
        label_ids = output.get("predicate_label_ids")
        label_ids = host_array(label_ids) if label_ids is not None else None
        for b, indices in enumerate(host_array(output["predicate_indices"]).tolist()):
            for f, index in enumerate(indices):
                if index >= 0:
                    yield (
                        b,
                        f,
                        index,
                        self._tags_of(tags[b, f, : lengths[b]].tolist()),
                        self._sense(label_ids, b, index),
                    )

    def srl_frames(self, output: dict[str, Any]) -> list[list[tuple[int, SrlFrame]]]:
        """Per sentence, its decoded frames (no lemma) with each one's position in the frame dimension."""
        frames: list[list[tuple[int, SrlFrame]]] = [[] for _ in range(len(output["mask"]))]
        for b, f, index, tags, sense in self._frames(output):
            frames[b].append((f, SrlFrame(index=index, sense=sense, arguments=bio_to_spans(tags))))
        return frames

    def score(self, metric: Any, output: dict[str, Any], metadata: Sequence[SentenceMetadata]) -> None:
        """Score the predicted frames (arguments, senses) against the sentences' gold `SrlSentence`s by
        predicate position, with `metric.score_sentences(gold, predicted)`."""
        predicted = [
            {frame.index: dataclasses.replace(frame, lemma=sentence.words[frame.index]) for _, frame in frames}
            for sentence, frames in zip(metadata, self.srl_frames(output), strict=True)
        ]
        gold_sentences = [
            (b, sentence.sentence) for b, sentence in enumerate(metadata) if sentence.sentence is not None
        ]
        gold = [{frame.index: frame for frame in sentence.frames} for _, sentence in gold_sentences]
        metric.score_sentences(gold, [predicted[b] for b, _ in gold_sentences])

    def readable(self, output: dict[str, Any], dependency: bool) -> list[list[dict[str, Any]]]:
        """Per sentence, its frames in `frame_json`'s form (`dependency`: arguments are head words)."""
        lengths = host_array(output["mask"]).sum(-1).tolist()
        words = [
            w or [f"#{i}" for i in range(n)]
            for w, n in zip(output.get("words", [None] * len(lengths)), lengths, strict=False)
        ]
        span_logs = output.get("span_log_probabilities")
        span_scores = _probabilities(span_logs) if span_logs is not None else None
        predicate_scores = output.get("predicate_scores")
        predicate_scores = host_array(predicate_scores) if predicate_scores is not None else None
        frames: list[list[dict[str, Any]]] = [[] for _ in lengths]
        for b, f, index, tags, sense in self._frames(output):
            scores = FrameScores(
                span_scores[b, f, : lengths[b]].tolist() if span_scores is not None else None,
                float(predicate_scores[b, index]) if predicate_scores is not None else None,
            )
            frames[b].append(frame_json(words[b], index, tags, sense, dependency=dependency, scores=scores))
        return frames
