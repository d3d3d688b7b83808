"""The registered `tagger` predicate head (the math: `srl_zoo.parts.heads.predicate_tagger`), with its loss and
metrics."""

from typing import Any

import torch
from allennlp.data import Vocabulary
from allennlp.nn.util import sequence_cross_entropy_with_logits

from srl_zoo.models.heads.predicate_head import PREDICATE_NAMESPACE, PredicateHead
from srl_zoo.modules.plain_settings import takes_settings_of
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.heads.predicate_finder import PredicateOutput
from srl_zoo.parts.heads.predicate_tagger import PredicateTagger


@PredicateHead.register("tagger")
class PredicateTaggerHead(PredicateTagger, PredicateHead):
    """Predicts `-` (no predicate), a sense suffix (`01`, `LV`) or `Y` (a predicate in data without
    senses) for every token from one layer of the sentence encodings (`srl_zoo.parts.heads.predicate_tagger`),
    trained with a cross entropy.

    # Parameters

    vocab : the vocabulary (`predicate_senses` namespace).
    loss_weight : weight of the cross entropy in the Model's loss.
    """

    @takes_settings_of(PredicateTagger)
    def __init__(self, vocab: Vocabulary, input_dim: int, loss_weight: float = 1.0, **settings: Any) -> None:
        PredicateHead.__init__(self, vocab)
        self.build_tagger(vocab.get_index_to_token_vocabulary(PREDICATE_NAMESPACE), input_dim, **settings)
        self.loss_weight = loss_weight

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = True
    ) -> PredicateOutput:
        gold, words = inputs.predicate_labels, inputs.words
        if self.senses is not None and words is not None and self.training and gold is not None:
            self.senses.record(words, gold.masked_fill(~mask, self.not_a_predicate))
        logits, label_ids, scores = self.tag(sentences, mask, words)
        loss = None
        if gold is not None:
            loss = self.loss_weight * sequence_cross_entropy_with_logits(logits.float(), gold, mask, average="token")
            if update_metrics:
                self.update_metric(gold, label_ids, mask)
        return PredicateOutput(label_ids, loss, scores=scores)
