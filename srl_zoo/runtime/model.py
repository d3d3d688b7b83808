"""The labeling model: an archive's word embedder before the network both paths compose (`srl_zoo.parts.network`:
encode sentences → find predicates → score, decode and read out each frame), without allennlp."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import torch

from srl_zoo.data.sentence_metadata import SentenceMetadata
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.heads.predicate_finder import PredicateFinder
from srl_zoo.parts.network import NetworkInputs, NetworkPass, SrlNetwork
from srl_zoo.parts.scorers.frame_scorer import FrameScorer
from srl_zoo.runtime.embedders import WordEmbedder


@dataclass
class PreparedBatch:
    """What the host makes of a batch of sentences before the device sees it (all CPU tensors).

    # Parameters

    words : each sentence's words. embedder_inputs : the embedder's `prepare` output.
    lengths : `(batch,)` words per sentence. given : `(batch, num_given)` given predicate indices, -1 padded.
    predicates_given : per sentence whether its predicates were given.
    heads : `(batch, num_words)` given dependency heads (1-based, 0: the root; zeros for a sentence without),
        or None where no sentence has them. heads_given : per sentence whether its heads were given.
    """

    words: list[list[str]]
    embedder_inputs: Any
    lengths: torch.Tensor
    given: torch.Tensor
    predicates_given: list[bool]
    heads: Optional[torch.Tensor] = None
    heads_given: Optional[list[bool]] = None


def _to(value: Any, device: torch.device) -> Any:
    """`value` (a tensor, or a dataclass of tensors) on `device`."""
    if isinstance(value, torch.Tensor):
        return value.to(device, non_blocking=True)
    if hasattr(value, "__dataclass_fields__"):
        return type(value)(**{name: _to(getattr(value, name), device) for name in value.__dataclass_fields__})
    return value


class LabelingModel(SrlNetwork):
    """An archive's word embedder and network (frame scorer, predicate head, readout).

    # Parameters

    embedder : a runtime word embedder (`prepare(words)` on the host, `forward` on the device).
    frame_scorer : the plain frame scorer with its output layer.
    predicate_head : the predicate head (`PredicateFinder`), or None (then every sentence must come with its
        predicates).
    tags : `{index: BIO tag}` of the scorer's labels.
    score_temperature : the archive's calibration of argument scores (1 without).
    f1_per_precision : the F1 per precision the archive records (None: not measured), for `precision="auto"`.
    """

    def __init__(
        self,
        embedder: WordEmbedder,
        frame_scorer: FrameScorer,
        predicate_head: Optional[PredicateFinder],
        tags: dict[int, str],
        score_temperature: float = 1.0,
        f1_per_precision: Optional[dict[str, float]] = None,
    ) -> None:
        super().__init__()
        self.embedder = embedder
        self.build_network(frame_scorer, predicate_head, tags)
        self.tags = tags
        self.score_temperature = score_temperature
        self.f1_per_precision = f1_per_precision

    def prepare(
        self,
        sentences: Sequence[Sequence[str]],
        predicates: Sequence[Optional[list[int]]],
        heads: Optional[Sequence[Optional[list[int]]]] = None,
    ) -> PreparedBatch:
        """The host's work for one batch: the embedder's inputs, the given predicates and the given heads (per
        sentence, None where it has none), as CPU tensors."""
        heads_tensor, heads_given = None, None
        if heads is not None and any(h is not None for h in heads):
            heads_tensor = torch.zeros(len(sentences), max(len(words) for words in sentences), dtype=torch.long)
            for row, sentence_heads in enumerate(heads):
                if sentence_heads is not None:
                    heads_tensor[row, : len(sentence_heads)] = torch.tensor(sentence_heads, dtype=torch.long)
            heads_given = [h is not None for h in heads]
        given = torch.full((len(sentences), max([len(p or []) for p in predicates] + [0])), -1, dtype=torch.long)
        for row, indices in enumerate(predicates):
            if indices:
                given[row, : len(indices)] = torch.tensor(indices, dtype=torch.long)
        lengths = torch.tensor([len(words) for words in sentences], dtype=torch.long)
        return PreparedBatch(
            [list(words) for words in sentences],
            self.embedder.prepare(sentences),
            lengths,
            given,
            [p is not None for p in predicates],
            heads_tensor,
            heads_given,
        )

    def forward(self, batch: PreparedBatch) -> list[list[dict[str, Any]]]:
        """Each sentence's frames (`frame_json`'s form: predicate, tags, arguments with scores)."""
        return self.readable_frames(self.decode(batch))

    def decode(self, batch: PreparedBatch, with_probabilities: bool = False) -> dict[str, Any]:
        """The decoded batch as the readout reads it: `mask (batch, num_words)`, `words`, `predicate_indices
        (batch, num_frames)`, `predicted_tags (batch, num_frames, num_words)`, `span_log_probabilities`, the
        predicate head's `predicate_label_ids` and `predicate_scores (batch, num_words)`, and with
        `with_probabilities` each frame's tag distributions `class_probabilities (batch, num_frames, num_words,
        num_labels)` (a CRF's marginals need autograd: call it under `torch.no_grad`, not `inference_mode`)."""
        device = next(self.parameters()).device
        embedded = self.embedder(_to(batch.embedder_inputs, device))  # (batch, num_words, dim)
        lengths = batch.lengths.to(device)
        mask = torch.arange(embedded.size(1), device=device).unsqueeze(0) < lengths.unsqueeze(1)
        metadata = [
            SentenceMetadata(words, given, heads_given=heads_given)
            for words, given, heads_given in zip(
                batch.words, batch.predicates_given, batch.heads_given or [False] * len(batch.words), strict=True
            )
        ]
        context = BatchInputs(sentences=metadata, dependency_heads=_to(batch.heads, device))
        network = self.run_network(
            NetworkInputs(embedded, mask, context, batch.given.to(device)),
            NetworkPass(with_probabilities=with_probabilities),
        )
        return {**network.outputs, "words": batch.words}
