"""The `crf` frame scorer: any frame scorer's tag logits as the emissions of a linear-chain CRF."""

from typing import Any, Optional

import torch
from allennlp.data import Vocabulary

from srl_zoo.modules.encoded_sentences import EncodedSentences
from srl_zoo.modules.frame_scorers.frame_scorer import FrameScorer
from srl_zoo.modules.frame_scorers.linear_chain_crf import LinearChainCrf
from srl_zoo.modules.frame_scorers.softmax_output import decode_rows


@FrameScorer.register("crf")
class CrfFrameScorer(FrameScorer):
    """Wraps a frame scorer (`indicator`, `bilinear`, ...): its logits are emissions, and tags are chosen
    per frame as a sequence by a linear-chain CRF with learned transitions under hard BIO constraints
    (`LinearChainCrf`). Loss: the frames' negative log-likelihood (exact forward algorithm) per real
    token, averaged over the scorer's layers; decoding: Viterbi over the layers' mean emissions;
    `class_probabilities`: the CRF's marginals.

    # Parameters

    vocab : the vocabulary (`label_namespace` holds the BIO tags).
    scorer : the frame scorer giving the emissions; its own decoding and label smoothing are not used.
    label_namespace : vocabulary namespace of the tags.
    """

    def __init__(self, vocab: Vocabulary, scorer: FrameScorer, label_namespace: str = "labels") -> None:
        super().__init__()
        self.scorer = scorer
        self.scores_from_sentences = scorer.scores_from_sentences
        self.frame_feature_dim = scorer.frame_feature_dim
        self.crf = LinearChainCrf(vocab.get_index_to_token_vocabulary(label_namespace))

    def get_input_dim(self) -> int:
        return self.scorer.get_input_dim()

    def check_input_dim(self, embedding_dim: int) -> None:
        self.scorer.check_input_dim(embedding_dim)

    def get_sentence_output_dim(self) -> int:
        return self.scorer.get_sentence_output_dim()

    def encode_sentences(
        self, embedded: torch.Tensor, mask: torch.Tensor, context: Optional[dict[str, Any]] = None
    ) -> EncodedSentences:
        return self.scorer.encode_sentences(embedded, mask, context)

    def forward(self, *inputs: Any) -> list[torch.Tensor]:  # type: ignore[override]
        """The wrapped scorer's logits per layer, `(batch, num_frames, seq_len, num_labels)`, for the
        same inputs (`FrameScorer.forward`)."""
        return self.scorer(*inputs)

    def loss(
        self, scores: list[torch.Tensor], gold_tags: torch.Tensor, frame_mask: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        rows = frame_mask.nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
        row_mask = mask[rows[:, 0]]
        if not len(rows):
            return scores[0].sum() * 0.0
        tags = gold_tags[rows[:, 0], rows[:, 1]].clamp_min(0)
        # every layer's rows in one forward algorithm: one pass over the time steps, not one per layer
        emissions = torch.cat([layer[rows[:, 0], rows[:, 1]] for layer in scores])
        layers = len(scores)
        total = self.crf.negative_log_likelihood(emissions, tags.repeat(layers, 1), row_mask.repeat(layers, 1)).sum()
        return total / (layers * row_mask.sum().clamp_min(1))

    def decode(
        self, scores: list[torch.Tensor], frame_mask: torch.Tensor, mask: torch.Tensor, with_probabilities: bool = True
    ) -> tuple[torch.Tensor, Optional[torch.Tensor]]:
        emissions = torch.stack([layer.float() for layer in scores]).mean(0)
        predicted_tags = decode_rows(self.crf.viterbi, emissions, frame_mask, mask)
        if not with_probabilities:
            return predicted_tags, None
        rows = frame_mask.nonzero(as_tuple=False)
        probabilities = emissions.new_zeros(emissions.shape)
        probabilities[rows[:, 0], rows[:, 1]] = self.crf.marginals(emissions[rows[:, 0], rows[:, 1]], mask[rows[:, 0]])
        return predicted_tags, probabilities

    @property
    def decoding(self) -> str:
        return "viterbi"

    def set_decoding(self, decoding: str) -> None:
        if decoding != "viterbi":
            raise ValueError(f"the crf frame scorer decodes with Viterbi over its transitions, not {decoding!r}")

    def set_label_smoothing(self, label_smoothing: float) -> None:
        if label_smoothing:
            raise ValueError("the crf frame scorer's loss (the sequences' likelihood) has no label smoothing")
