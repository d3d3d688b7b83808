"""LISA's joint POS/predicate tagger's math: one softmax over the `POS/predicate-label` pairs seen in training, summed
into POS and predicate-label distributions (plain torch; the registered head,
`srl_zoo.models.heads.joint_pos_predicate`, adds its loss and metrics)."""

from typing import Any

import torch
from torch import nn

from srl_zoo.config_fit import ConfigNeed, reads_one_layer
from srl_zoo.data.formats.labels import NOT_A_PREDICATE
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.heads.predicate_finder import PredicateOutput
from srl_zoo.parts.heads.predicate_tagger import predicate_scores
from srl_zoo.parts.layers.biaffine import mlp

JOINT_NAMESPACE = "pos_predicate"
POS_NAMESPACE = "pos"
PREDICATE_NAMESPACE = "predicate_senses"


def marginal_maps(
    joint_labels: dict[int, str], pos_labels: dict[int, str], predicate_labels: dict[int, str]
) -> tuple[torch.Tensor, torch.Tensor]:
    """0/1 matrices `(num_joint, num_pos)` and `(num_joint, num_predicate_labels)` that sum joint probabilities
    into POS and predicate-label probabilities (entries without a `/`, padding and unknown, map to nothing)."""
    pos_index = {label: index for index, label in pos_labels.items()}
    predicate_index = {label: index for index, label in predicate_labels.items()}
    to_pos = torch.zeros(len(joint_labels), len(pos_labels))
    to_predicate = torch.zeros(len(joint_labels), len(predicate_labels))
    for index, label in joint_labels.items():
        if "/" not in label:
            continue
        pos, predicate = label.rsplit("/", 1)
        to_pos[index, pos_index[pos]] = 1.0
        to_predicate[index, predicate_index[predicate]] = 1.0
    return to_pos, to_predicate


class JointPosPredicateTagger(nn.Module):
    """Classifies every token into the joint labels `POS/predicate-label` of the training data (e.g. `VBD/Y` for a
    CoNLL-2005 predicate, `NN/-` for a non-predicate, `VBZ/01` with senses); the POS and the predicate label are
    the joint distribution summed over the other part, so pairs never seen in training get no probability mass.

    # Parameters

    joint_labels, pos_labels, predicate_labels : `{index: label}` of the `pos_predicate`, `pos` and
        `predicate_senses` namespaces.
    input_dim : width of the layer read (the Model supplies the frame scorer's).
    layer : which of `EncodedSentences.layers` to read (LISA: index 2, the 3rd layer).
    mlp_dim : width of the MLP before the classifier (LISA: 200).
    dropout : dropout after the MLP.
    """

    to_pos: torch.Tensor  # buffers: (num_joint, num_pos), (num_joint, num_predicate_labels)
    to_predicate: torch.Tensor

    @classmethod
    def config_needs(cls, config: dict[str, Any]) -> list[ConfigNeed]:
        """The layer it reads exists (`srl_zoo.config_fit`): checked before the data is read."""
        return reads_one_layer(cls, config)

    def __init__(
        self,
        joint_labels: dict[int, str],
        pos_labels: dict[int, str],
        predicate_labels: dict[int, str],
        input_dim: int,
        layer: int = 2,
        mlp_dim: int = 200,
        dropout: float = 0.1,
    ) -> None:
        super().__init__()
        self.build_joint_tagger(joint_labels, pos_labels, predicate_labels, input_dim, layer, mlp_dim, dropout)

    @classmethod
    def from_vocabulary(
        cls, vocabulary: dict[str, dict[int, str]], input_dim: int, **settings: Any
    ) -> "JointPosPredicateTagger":
        """The tagger over an archive's vocabulary (`{namespace: {index: label}}`)."""
        labels = (vocabulary[JOINT_NAMESPACE], vocabulary[POS_NAMESPACE], vocabulary[PREDICATE_NAMESPACE])
        return cls(*labels, input_dim, **settings)

    def build_joint_tagger(
        self,
        joint_labels: dict[int, str],
        pos_labels: dict[int, str],
        predicate_labels: dict[int, str],
        input_dim: int,
        layer: int,
        mlp_dim: int,
        dropout: float,
    ) -> None:
        """Make the MLP, the classifier and the marginal maps (`__init__`'s parameters) on a module already
        initialised."""
        self.index_to_label = predicate_labels
        self.not_a_predicate = {label: i for i, label in predicate_labels.items()}[NOT_A_PREDICATE]
        self.layer = layer
        self.mlp = mlp(input_dim, mlp_dim, dropout)
        self.classifier = nn.Linear(mlp_dim, len(joint_labels))
        to_pos, to_predicate = marginal_maps(joint_labels, pos_labels, predicate_labels)
        self.register_buffer("to_pos", to_pos, persistent=False)
        self.register_buffer("to_predicate", to_predicate, persistent=False)

    def graph_logits(self, sentences: EncodedSentences) -> torch.Tensor:
        """No inference-graph form yet: its archive labels through torch."""
        raise NotImplementedError("the joint_pos_predicate head has no inference-graph form yet")

    def graph_settings(self) -> dict[str, Any]:
        """No inference-graph form yet (see `graph_logits`)."""
        raise NotImplementedError("the joint_pos_predicate head has no inference-graph form yet")

    def label_of(self, label_id: int) -> str:
        """The predicate label (`-`, `01`, `Y`, ...) of `label_id`."""
        return self.index_to_label[label_id]

    def joint(self, sentences: EncodedSentences) -> tuple[torch.Tensor, torch.Tensor]:
        """The joint logits and probabilities, each `(batch, seq_len, num_joint)` (float32)."""
        logits = self.classifier(self.mlp(sentences.layers[self.layer])).float()
        return logits, torch.softmax(logits, dim=-1)

    def choose(self, probabilities: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Each token's predicate label id `(batch, seq_len)` (`-` on padding) and its `predicate_scores`, from the
        joint `probabilities (batch, seq_len, num_joint)`."""
        predicate_probabilities = probabilities @ self.to_predicate  # (batch, seq_len, num_predicate_labels)
        label_ids = predicate_probabilities.argmax(-1).masked_fill(~mask, self.not_a_predicate)
        return label_ids, predicate_scores(predicate_probabilities, label_ids, self.not_a_predicate)

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = False
    ) -> PredicateOutput:
        """Each token's predicate label id and score, and its POS id, each `(batch, seq_len)` (the registered head
        adds its loss and metrics)."""
        _, probabilities = self.joint(sentences)
        label_ids, scores = self.choose(probabilities, mask)
        return PredicateOutput(label_ids, pos_ids=(probabilities @ self.to_pos).argmax(-1), scores=scores)
