"""The `crf` output layer of a frame scorer: its tag logits as the emissions of a linear-chain CRF."""

import typing
from typing import Any, Literal, Optional

import torch

from srl_zoo.frames.valid_frames import FrameConstraints, valid_paths
from srl_zoo.parts.outputs.linear_chain_crf import LinearChainCrf
from srl_zoo.parts.outputs.softmax import decode_rows
from srl_zoo.parts.outputs.span_scores import continuation_ids, score_frame_rows
from srl_zoo.parts.outputs.tag_output import TagOutput, soft_cross_entropy

#: how the CRF decodes: its best path under BIO, or under BIO and PropBank's frame constraints
CrfDecoding = Literal["viterbi", "valid_frames"]
CRF_DECODINGS: tuple[str, ...] = typing.get_args(CrfDecoding)


class CrfOutput(TagOutput):
    """Tags chosen per frame as a sequence by a linear-chain CRF with learned transitions under hard BIO
    constraints (`LinearChainCrf`). Loss: the frames' negative log-likelihood (exact forward algorithm)
    per real token, averaged over the scorer's layers; decoding: Viterbi over the layers' mean emissions;
    probabilities: the CRF's marginals.

    # Parameters

    index_to_label : `{index: BIO tag}` of the label namespace (given by the frame scorer).
    teacher_weight : the teacher's share of the loss where the training data carries a teacher's tag
        distributions (the reader's `teacher_files`): the CRF's marginals learn them (posterior distillation,
        Wang et al. 2020); without them it is unused.

    decoding : `"viterbi"` (the best path under BIO) or `"valid_frames"` (the best path under BIO that also
        keeps each core role once and C-/R- roles with their base: `srl_zoo.frames.valid_frames`).

    It has no label smoothing (the sequences' likelihood has no per-token smoothing).
    """

    continuation: torch.Tensor  # buffer (num_labels,): see `continuation_ids`

    def __init__(
        self, index_to_label: dict[int, str], teacher_weight: float = 0.5, decoding: CrfDecoding = "viterbi"
    ) -> None:
        super().__init__()
        self.teacher_weight = teacher_weight
        self.crf = LinearChainCrf(index_to_label)
        labels = [index_to_label[i] for i in range(len(index_to_label))]
        self.register_buffer("continuation", continuation_ids(labels), persistent=False)  # (num_labels,)
        self.constraints = FrameConstraints(labels)
        self.set_decoding(decoding)

    def loss(
        self, layer_logits: list[torch.Tensor], gold_tags: torch.Tensor, frame_mask: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        rows = frame_mask.nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
        row_mask = mask[rows[:, 0]]
        if not len(rows):
            return layer_logits[0].sum() * 0.0
        tags = gold_tags[rows[:, 0], rows[:, 1]].clamp_min(0)
        # every layer's rows in one forward algorithm: one pass over the time steps, not one per layer
        emissions = torch.cat([layer[rows[:, 0], rows[:, 1]] for layer in layer_logits])
        layers = len(layer_logits)
        total = self.crf.negative_log_likelihood(emissions, tags.repeat(layers, 1), row_mask.repeat(layers, 1)).sum()
        return total / (layers * row_mask.sum().clamp_min(1))

    def teacher_loss(
        self,
        layer_logits: list[torch.Tensor],
        teacher_probabilities: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
    ) -> torch.Tensor:
        """The CRF's marginals (each layer's) against the teacher's distributions (`TagOutput.teacher_loss`)."""
        rows = frame_mask.nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
        if not len(rows):
            return layer_logits[0].sum() * 0.0
        row_mask = mask[rows[:, 0]].repeat(len(layer_logits), 1)
        emissions = torch.cat([layer[rows[:, 0], rows[:, 1]].float() for layer in layer_logits])
        teacher = teacher_probabilities[rows[:, 0], rows[:, 1]].repeat(len(layer_logits), 1, 1)
        return soft_cross_entropy(self.crf.log_marginals(emissions, row_mask), teacher, row_mask)

    def decode(
        self,
        layer_logits: list[torch.Tensor],
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        with_probabilities: bool = True,
    ) -> tuple[torch.Tensor, Optional[torch.Tensor]]:
        emissions = self.graph_scores(layer_logits)
        predicted_tags = decode_rows(self._best_paths, emissions, frame_mask, mask)
        if not with_probabilities:
            return predicted_tags, None
        rows = frame_mask.nonzero(as_tuple=False)
        probabilities = emissions.new_zeros(emissions.shape)
        probabilities[rows[:, 0], rows[:, 1]] = self.crf.marginals(emissions[rows[:, 0], rows[:, 1]], mask[rows[:, 0]])
        return predicted_tags, probabilities

    def _best_paths(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(rows, seq_len)` each row's best path under the decoding's constraints (`emissions (rows, seq_len,
        labels)`, `mask (rows, seq_len)`)."""
        paths = self.crf.viterbi(emissions, mask)
        if self._decoding == "viterbi" or not len(paths):
            return paths
        transitions, start = self.crf.constrained()
        valid = valid_paths(
            self.constraints,
            emissions.detach().float().cpu().numpy(),
            mask.cpu().numpy(),
            transitions.detach().float().cpu().numpy(),
            start.detach().float().cpu().numpy(),
            paths.cpu().numpy(),
        )
        return torch.from_numpy(valid).to(paths.device)

    def span_log_probabilities(
        self,
        layer_logits: list[torch.Tensor],
        predicted_tags: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        temperature: float = 1.0,
    ) -> torch.Tensor:
        """The span's marginal probability under the CRF (forward-backward over the layers' mean emissions)."""

        def marginal(emissions: torch.Tensor, tags: torch.Tensor, row_mask: torch.Tensor) -> torch.Tensor:
            return self.crf.span_log_probabilities(emissions, tags, row_mask, self.continuation, temperature)

        emissions = torch.stack([layer.float() for layer in layer_logits]).mean(0)
        return score_frame_rows(marginal, emissions, predicted_tags, frame_mask, mask)

    def graph_scores(self, layer_logits: list[torch.Tensor]) -> torch.Tensor:
        """`(rows, seq_len, num_labels)` the layers' mean emissions, float32 (what `decode` decodes)."""
        return torch.stack([layer.float() for layer in layer_logits]).mean(0)

    def graph_decoder(self) -> dict[str, Any]:
        """The CRF's learned scores, its BIO constraints and which tag continues which (`CrfDecoder.from_json`)."""
        return {
            "type": "crf",
            "transitions": self.crf.transitions.detach().float().tolist(),
            "start_scores": self.crf.start_scores.detach().float().tolist(),
            "allowed": self.crf.allowed.tolist(),
            "start_allowed": self.crf.start_allowed.tolist(),
            "continuation": self.continuation.tolist(),
            "decoding": self._decoding,
        }

    @property
    def decoding(self) -> str:
        return self._decoding

    def set_decoding(self, decoding: str) -> None:
        if decoding not in CRF_DECODINGS:
            raise ValueError(f"the crf output layer decodes with one of {CRF_DECODINGS}, not {decoding!r}")
        self._decoding = decoding
