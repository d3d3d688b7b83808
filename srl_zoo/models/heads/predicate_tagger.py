"""The `tagger` predicate head: a per-token linear classifier over predicate labels."""

from typing import Any, Mapping

import torch
from allennlp.data import Vocabulary
from allennlp.nn.util import sequence_cross_entropy_with_logits
from torch import nn

from srl_zoo.models.heads.predicate_head import PREDICATE_NAMESPACE, PredicateHead, PredicateOutput
from srl_zoo.modules.frame_scorers import EncodedSentences


@PredicateHead.register("tagger")
class PredicateTaggerHead(PredicateHead):
    """Predicts `-` (no predicate), a sense suffix (`01`, `LV`) or `Y` (a predicate in data without
    senses) for every token from one layer of the sentence encodings.

    # Parameters

    vocab : the vocabulary (`predicate_senses` namespace).
    input_dim : width of the layer read (the Model supplies the frame scorer's).
    layer : which of `EncodedSentences.layers` to read (default the top one).
    loss_weight : weight of the cross entropy in the Model's loss.
    """

    def __init__(self, vocab: Vocabulary, input_dim: int, layer: int = -1, loss_weight: float = 1.0) -> None:
        super().__init__(vocab)
        self.layer = layer
        self.loss_weight = loss_weight
        self.projection = nn.Linear(input_dim, vocab.get_vocab_size(PREDICATE_NAMESPACE))

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: Mapping[str, Any], update_metrics: bool = True
    ) -> PredicateOutput:
        logits = self.projection(sentences.layers[self.layer])  # (batch, seq_len, num_predicate_labels)
        label_ids = logits.argmax(-1).masked_fill(~mask, self.not_a_predicate)
        gold = inputs.get("predicate_labels")
        loss = None
        if gold is not None:
            loss = self.loss_weight * sequence_cross_entropy_with_logits(logits.float(), gold, mask, average="token")
            if update_metrics:
                self.update_metric(gold, label_ids, mask)
        return PredicateOutput(label_ids, loss)
