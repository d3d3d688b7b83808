"""LISA's joint POS/predicate tagger: one softmax over `POS/predicate-label` pairs seen in training."""

import torch
from allennlp.data import Vocabulary
from allennlp.nn.util import sequence_cross_entropy_with_logits
from allennlp.training.metrics import CategoricalAccuracy
from torch import nn

from srl_zoo.models.heads.predicate_head import PREDICATE_NAMESPACE, PredicateHead, PredicateOutput
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.layers.biaffine import mlp

JOINT_NAMESPACE = "pos_predicate"


@PredicateHead.register("joint_pos_predicate")
class JointPosPredicateHead(PredicateHead):
    """Classifies every token into the joint labels `POS/predicate-label` of the training data (e.g.
    `VBD/Y` for a CoNLL-2005 predicate, `NN/-` for a non-predicate, `VBZ/01` with senses); the POS
    and the predicate label are predicted by summing the joint distribution over the other part.
    Pairs never seen in training get no probability mass. Metrics: `pos-accuracy` and the predicate
    metrics (P/R/F1, sense accuracy).

    Reads the readers' `pos_predicate_labels` (namespace `pos_predicate`) and `pos_tags` fields.

    # Parameters

    vocab : the vocabulary (`pos_predicate`, `pos` and `predicate_senses` namespaces).
    input_dim : width of the layer read (the Model supplies the frame scorer's).
    layer : which of `EncodedSentences.layers` to read (LISA: index 2, the 3rd layer).
    mlp_dim : width of the MLP before the classifier (LISA: 200).
    dropout : dropout after the MLP.
    loss_weight : weight of the cross entropy in the Model's loss (LISA: 1.0).
    """

    predicts_pos = True

    to_pos: torch.Tensor  # buffers: (num_joint, num_pos), (num_joint, num_predicate_labels)
    to_predicate: torch.Tensor

    def __init__(
        self,
        vocab: Vocabulary,
        input_dim: int,
        layer: int = 2,
        mlp_dim: int = 200,
        dropout: float = 0.1,
        loss_weight: float = 1.0,
    ) -> None:
        super().__init__(vocab)
        self.layer = layer
        self.loss_weight = loss_weight
        self.mlp = mlp(input_dim, mlp_dim, dropout)
        self.classifier = nn.Linear(mlp_dim, vocab.get_vocab_size(JOINT_NAMESPACE))
        to_pos, to_predicate = self._marginal_maps(vocab)
        self.register_buffer("to_pos", to_pos, persistent=False)  # (num_joint, num_pos)
        self.register_buffer("to_predicate", to_predicate, persistent=False)  # (num_joint, num_predicate_labels)
        self.pos_accuracy = CategoricalAccuracy()

    @staticmethod
    def _marginal_maps(vocab: Vocabulary):
        """0/1 matrices that sum joint probabilities into POS and predicate-label probabilities."""
        joint = vocab.get_index_to_token_vocabulary(JOINT_NAMESPACE)
        to_pos = torch.zeros(len(joint), vocab.get_vocab_size("pos"))
        to_predicate = torch.zeros(len(joint), vocab.get_vocab_size(PREDICATE_NAMESPACE))
        for index, label in joint.items():
            if "/" not in label:  # padding / OOV entries
                continue
            pos, predicate = label.rsplit("/", 1)
            to_pos[index, vocab.get_token_index(pos, "pos")] = 1.0
            to_predicate[index, vocab.get_token_index(predicate, PREDICATE_NAMESPACE)] = 1.0
        return to_pos, to_predicate

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = True
    ) -> PredicateOutput:
        logits = self.classifier(self.mlp(sentences.layers[self.layer])).float()  # (batch, seq_len, num_joint)
        probabilities = torch.softmax(logits, dim=-1)
        predicate_probabilities = probabilities @ self.to_predicate  # (batch, seq_len, num_predicate_labels)
        label_ids = predicate_probabilities.argmax(-1).masked_fill(~mask, self.not_a_predicate)
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
        scores = self.predicate_scores(predicate_probabilities, label_ids)
        return PredicateOutput(label_ids, loss, pos_ids=pos_probabilities.argmax(-1), scores=scores)

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        metrics = super().get_metrics(reset)
        if self.pos_accuracy.total_count:
            metrics["pos-accuracy"] = float(self.pos_accuracy.get_metric(reset))
        elif reset:
            self.pos_accuracy.reset()
        return metrics
