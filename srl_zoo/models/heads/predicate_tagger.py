"""The `tagger` predicate head: a per-token linear classifier over predicate labels."""

from typing import Optional

import torch
from allennlp.data import Vocabulary
from allennlp.nn.util import sequence_cross_entropy_with_logits
from torch import nn

from srl_zoo.frames.readable_frames import frame_file_senses as frame_file_senses_of
from srl_zoo.models.heads.predicate_head import PREDICATE_NAMESPACE, PredicateHead, PredicateOutput
from srl_zoo.models.heads.sense_table import SenseTable
from srl_zoo.modules.batch_inputs import BatchInputs
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
    restrict_senses : when not training, give each predicate the best of the senses its word had in
        training (a word never seen as a predicate: `01`), so that no sense is output that the
        training data never paired with the word. The table is filled from the gold labels of the
        training batches (with their `metadata` words) and travels in the state dict; whether a
        token is a predicate is not changed by it.
    frame_file_senses : with `restrict_senses`, a word never seen as a predicate in training chooses among
        the senses of the rolesets its lemma names in PropBank's English frame files (bundled; `01` where
        they name none) instead of taking `01`.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        input_dim: int,
        layer: int = -1,
        loss_weight: float = 1.0,
        restrict_senses: bool = False,
        frame_file_senses: bool = True,
    ) -> None:
        super().__init__(vocab)
        self.layer = layer
        self.loss_weight = loss_weight
        self.projection = nn.Linear(input_dim, vocab.get_vocab_size(PREDICATE_NAMESPACE))
        self.senses: Optional[SenseTable] = None
        if restrict_senses:
            self.senses = SenseTable(
                vocab.get_index_to_token_vocabulary(PREDICATE_NAMESPACE),
                self.not_a_predicate,
                unseen_senses=frame_file_senses_of if frame_file_senses else None,
            )
            self.register_buffer("sense_table", torch.zeros(0, dtype=torch.uint8))

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = True
    ) -> PredicateOutput:
        logits = self.projection(sentences.layers[self.layer])  # (batch, seq_len, num_predicate_labels)
        label_ids = logits.argmax(-1).masked_fill(~mask, self.not_a_predicate)
        gold, words = inputs.predicate_labels, inputs.words
        if self.senses is not None and words is not None:
            if self.training and gold is not None:
                self.senses.record(words, gold.masked_fill(~mask, self.not_a_predicate))
            elif not self.training:
                label_ids = self.senses.restrict(logits, label_ids, words)
        loss = None
        if gold is not None:
            loss = self.loss_weight * sequence_cross_entropy_with_logits(logits.float(), gold, mask, average="token")
            if update_metrics:
                self.update_metric(gold, label_ids, mask)
        scores = self.predicate_scores(torch.softmax(logits.float(), dim=-1), label_ids)
        return PredicateOutput(label_ids, loss, scores=scores)

    def _save_to_state_dict(self, destination, prefix, keep_vars):  # type: ignore[no-untyped-def]
        if self.senses is not None:
            self.sense_table = self.senses.to_tensor()
        super()._save_to_state_dict(destination, prefix, keep_vars)

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):  # type: ignore[no-untyped-def]
        saved = state_dict.get(prefix + "sense_table")
        if self.senses is not None and saved is not None:
            self.senses.load_tensor(saved)
            self.sense_table = saved.clone()  # the buffer takes the saved size
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
