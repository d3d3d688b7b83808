"""The `dependency_parse` auxiliary task: LISA's parser loss (arcs) and dependency relation labels."""

from typing import Any, Optional

import torch
from allennlp.data import Vocabulary
from allennlp.nn.util import sequence_cross_entropy_with_logits

from srl_zoo.config_fit import SENTENCE_ENCODER, ConfigNeed
from srl_zoo.metrics.distributed import sum_over_workers
from srl_zoo.models.heads.auxiliary_task import AuxiliaryTask
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.layers.biaffine import RelationScorer, zero_based_heads


@AuxiliaryTask.register("dependency_parse")
class DependencyParseTask(AuxiliaryTask):
    """Cross entropy of the encoder's arc scores (`EncodedSentences.syntax`, e.g. LISA's syntax head)
    against the gold heads (root = self-loop), and of a bilinear relation classifier on (dependent,
    gold head) pairs of the parser's states against the gold relations. Metrics: `uas` and `las`
    (relations predicted on the predicted heads), punctuation included.

    Reads the batch's `dependency_heads` (1-based, 0 = root) and `dependency_labels`; batches without
    heads add no loss.

    # Parameters

    vocab : the vocabulary (`dependency_relations` namespace).
    input_dim : width of the parser's states (the Model supplies the frame scorer's).
    label_mlp_dim : width of the relation classifier's MLPs (LISA: 100).
    arc_loss_weight : weight of the arc loss in the model's loss (1.0 in LISA).
    label_loss_weight : weight of the relation loss in the model's loss (0.1 in LISA).
    dropout : dropout after the MLPs.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        input_dim: int,
        label_mlp_dim: int = 100,
        arc_loss_weight: float = 1.0,
        label_loss_weight: float = 0.1,
        dropout: float = 0.1,
    ) -> None:
        super().__init__()
        self.relations = RelationScorer(input_dim, vocab.get_vocab_size("dependency_relations"), label_mlp_dim, dropout)
        self.arc_loss_weight = arc_loss_weight
        self.label_loss_weight = label_loss_weight
        self._tokens = self._heads_right = self._labeled_right = 0

    @classmethod
    def config_needs(cls, config: dict[str, Any]) -> list[ConfigNeed]:
        """An encoder with a syntax head (`srl_zoo.config_fit`): checked before the data is read."""

        def problem(facts: dict[str, Any], where: str) -> Optional[str]:
            if facts.get("syntax_head", True):
                return None
            return (
                f"the dependency_parse task needs an encoder with a syntax head, and {where} has none: give it one "
                f"({where}.parse_layer for lisa) or leave this task out"
            )

        return [ConfigNeed(SENTENCE_ENCODER, "", problem)]

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = True
    ) -> Optional[torch.Tensor]:
        if sentences.syntax is None:
            raise ValueError(
                "the dependency_parse task needs an encoder with a syntax head (e.g. lisa with parse_layer set)"
            )
        heads = inputs.dependency_heads
        if heads is None:
            return None
        gold_heads = zero_based_heads(heads)
        arc_scores = sentences.syntax.arc_scores  # (batch, seq_len, seq_len), rows dependents
        loss = self.arc_loss_weight * sequence_cross_entropy_with_logits(arc_scores, gold_heads, mask, average="token")
        states = sentences.syntax.states
        relations = inputs.dependency_labels
        if relations is not None:
            logits = self.relations(states, gold_heads).float()
            loss = loss + self.label_loss_weight * sequence_cross_entropy_with_logits(
                logits, relations, mask, average="token"
            )
        if update_metrics:
            predicted_heads = arc_scores.argmax(-1)
            heads_right = (predicted_heads == gold_heads) & mask
            self._tokens += int(mask.sum())
            self._heads_right += int(heads_right.sum())
            if relations is not None:
                predicted_relations = self.relations(states, predicted_heads).argmax(-1)
                self._labeled_right += int((heads_right & (predicted_relations == relations)).sum())
        return loss

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        metrics = {}
        counts = sum_over_workers({"tokens": self._tokens, "heads": self._heads_right, "labeled": self._labeled_right})
        if counts["tokens"]:
            metrics = {"uas": counts["heads"] / counts["tokens"], "las": counts["labeled"] / counts["tokens"]}
        if reset:
            self._tokens = self._heads_right = self._labeled_right = 0
        return metrics
