"""The registrable predicate head: finds the predicates (and senses) of a sentence for raw-text prediction."""

import torch
from allennlp.common import Registrable
from allennlp.data import Vocabulary
from torch import nn

from srl_zoo.data.formats.labels import NOT_A_PREDICATE
from srl_zoo.metrics import PredicateF1
from srl_zoo.modules.frame_scorers import EncodedSentences
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.heads.predicate_finder import PredicateOutput
from srl_zoo.parts.heads.predicate_tagger import predicate_scores

PREDICATE_NAMESPACE = "predicate_senses"


class PredicateHead(nn.Module, Registrable):
    """Reads the sentence encodings (`FrameScorer.encode_sentences`) and labels every token with its
    predicate label; the Model takes the tokens not labeled `-` as predicates when predicates are
    predicted. Metrics: predicate P/R/F1 and sense accuracy.

    Implementations: `"tagger"` (a linear classifier on one layer) and, for LISA, `"joint_pos_predicate"`.
    """

    default_implementation = "tagger"
    #: whether `forward` also returns predicted POS tags (`PredicateOutput.pos_ids`)
    predicts_pos: bool = False

    def __init__(self, vocab: Vocabulary) -> None:
        super().__init__()
        self.vocab = vocab
        self.not_a_predicate = vocab.get_token_index(NOT_A_PREDICATE, PREDICATE_NAMESPACE)
        self.metric = PredicateF1()

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = True
    ) -> PredicateOutput:
        """
        # Parameters

        sentences : the scorer's sentence encodings.
        mask : `(batch, seq_len)` bool.
        inputs : the batch's side inputs (`BatchInputs`): gold `predicate_labels (batch, seq_len)`, `pos_tags`,
            ... where the batch has them, and each sentence's words.
        update_metrics : whether to score this batch's predictions (gold labels needed).
        """
        raise NotImplementedError

    def predicate_scores(self, probabilities: torch.Tensor, label_ids: torch.Tensor) -> torch.Tensor:
        """`(batch, seq_len)` the probability that each token is a predicate with its label
        (`srl_zoo.parts.heads.predicate_tagger.predicate_scores`).

        # Parameters

        probabilities : `(batch, seq_len, num_predicate_labels)`; label_ids : `(batch, seq_len)` the labels chosen.
        """
        return predicate_scores(probabilities, label_ids, self.not_a_predicate)

    def label_of(self, label_id: int) -> str:
        return self.vocab.get_token_from_index(label_id, PREDICATE_NAMESPACE)

    def update_metric(self, gold: torch.Tensor, predicted: torch.Tensor, mask: torch.Tensor) -> None:
        """Score predicted against gold label ids `(batch, seq_len)` with `PredicateF1`."""
        self.metric(self.predicate_maps(gold, mask), self.predicate_maps(predicted, mask))

    def predicate_maps(self, label_ids: torch.Tensor, mask: torch.Tensor) -> list[dict[int, str]]:
        """Per sentence, `{token index: predicate label}` of the tokens that are predicates."""
        maps = []
        for ids, length in zip(label_ids.tolist(), mask.sum(-1).tolist(), strict=False):
            maps.append(
                {i: self.label_of(label) for i, label in enumerate(ids[:length]) if label != self.not_a_predicate}
            )
        return maps

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        return self.metric.get_metric(reset)
