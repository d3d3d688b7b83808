"""The registered `joint_pos_predicate` head, LISA's (the math: `srl_zoo.parts.heads.joint_pos_predicate`), with its
loss and metrics."""

from typing import Any

import torch
from allennlp.data import Vocabulary
from allennlp.nn.util import sequence_cross_entropy_with_logits
from allennlp.training.metrics import CategoricalAccuracy

from srl_zoo.models.heads.predicate_head import PredicateHead
from srl_zoo.modules.plain_settings import takes_settings_of
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.heads.joint_pos_predicate import (
    JOINT_NAMESPACE,
    POS_NAMESPACE,
    PREDICATE_NAMESPACE,
    JointPosPredicateTagger,
)
from srl_zoo.parts.heads.predicate_finder import PredicateOutput

__all__ = ["JOINT_NAMESPACE", "JointPosPredicateHead"]


@PredicateHead.register("joint_pos_predicate")
class JointPosPredicateHead(JointPosPredicateTagger, PredicateHead):
    """Classifies every token into the joint labels `POS/predicate-label` of the training data (e.g. `VBD/Y` for a
    CoNLL-2005 predicate, `NN/-` for a non-predicate, `VBZ/01` with senses); the POS and the predicate label are
    the joint distribution summed over the other part, so pairs never seen in training get no probability mass
    (`srl_zoo.parts.heads.joint_pos_predicate`). Trained with a cross entropy. Metrics: `pos-accuracy` and the
    predicate metrics (P/R/F1, sense accuracy).

    Reads the readers' `pos_predicate_labels` (namespace `pos_predicate`) and `pos_tags` fields.

    # Parameters

    vocab : the vocabulary (`pos_predicate`, `pos` and `predicate_senses` namespaces).
    loss_weight : weight of the cross entropy in the Model's loss (LISA: 1.0).
    """

    predicts_pos = True

    @takes_settings_of(JointPosPredicateTagger)
    def __init__(self, vocab: Vocabulary, input_dim: int, loss_weight: float = 1.0, **settings: Any) -> None:
        PredicateHead.__init__(self, vocab)
        self.build_joint_tagger(
            vocab.get_index_to_token_vocabulary(JOINT_NAMESPACE),
            vocab.get_index_to_token_vocabulary(POS_NAMESPACE),
            vocab.get_index_to_token_vocabulary(PREDICATE_NAMESPACE),
            input_dim,
            **settings,
        )
        self.loss_weight = loss_weight
        self.pos_accuracy = CategoricalAccuracy()

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = True
    ) -> PredicateOutput:
        logits, probabilities = self.joint(sentences)
        label_ids, scores = self.choose(probabilities, mask)
        gold = inputs.pos_predicate_labels
        loss = None
        if gold is not None:
            loss = self.loss_weight * sequence_cross_entropy_with_logits(logits, gold, mask, average="token")
        pos_probabilities = probabilities @ self.to_pos  # (batch, seq_len, num_pos)
        if update_metrics:
            if inputs.pos_tags is not None:
                self.pos_accuracy(pos_probabilities, inputs.pos_tags, mask)
            if inputs.predicate_labels is not None:
                self.update_metric(inputs.predicate_labels, label_ids, mask)
        return PredicateOutput(label_ids, loss, pos_ids=pos_probabilities.argmax(-1), scores=scores)

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        metrics = super().get_metrics(reset)
        if self.pos_accuracy.total_count:
            metrics["pos-accuracy"] = float(self.pos_accuracy.get_metric(reset))
        elif reset:
            self.pos_accuracy.reset()
        return metrics
