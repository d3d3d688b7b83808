"""The output layer of a frame scorer: what turns its per-token tag logits into a loss and into tags.
A scorer takes one as the part under its `output` key (`{"type": "softmax", ...}`, the default, or
`{"type": "crf"}`), so every scorer gets every output layer without a wrapper. Plain torch: the registered
parts (`srl_zoo.modules.frame_scorers`) subclass these for allennlp."""

from typing import Any, Optional

import torch
from torch import nn


class TagOutput(nn.Module):
    """Loss and decoding of tag logits given per scored layer (several with a loss at every layer).

    Configured under the frame scorer's `output` key and built by the scorer, which gives it the tags.

    # Parameters

    index_to_label : `{index: BIO tag}` of the label namespace (given by the frame scorer).

    Where the training data carries a teacher model's tag distributions (the reader's `teacher_files`), the loss
    is `(1 - teacher_weight) * loss + teacher_weight * teacher_loss` (`loss_with_teacher`): knowledge
    distillation (Hinton et al. 2015) of a larger model into this one.
    """

    #: the teacher's share of the loss where the data carries its distributions (set by the subclasses)
    teacher_weight: float = 0.0

    def loss_with_teacher(
        self,
        layer_logits: list[torch.Tensor],
        gold_tags: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        teacher_probabilities: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        """`loss`, mixed with `teacher_loss` by `teacher_weight` when `teacher_probabilities` are given.

        # Parameters

        layer_logits, gold_tags, frame_mask, mask : as `loss`.
        teacher_probabilities : `(batch, num_frames, seq_len, num_labels)` the teacher's per-token tag
            distribution (zeros outside real frames and tokens), or None.
        """
        gold = self.loss(layer_logits, gold_tags, frame_mask, mask)
        if teacher_probabilities is None or not self.teacher_weight:
            return gold
        taught = self.teacher_loss(layer_logits, teacher_probabilities, frame_mask, mask)
        return (1.0 - self.teacher_weight) * gold + self.teacher_weight * taught

    def teacher_loss(
        self,
        layer_logits: list[torch.Tensor],
        teacher_probabilities: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
    ) -> torch.Tensor:
        """The cross entropy of this layer's per-token tag distribution against the teacher's, a mean over
        real frames' real tokens (and over the layers). Arguments as `loss_with_teacher`."""
        raise NotImplementedError

    def loss(
        self, layer_logits: list[torch.Tensor], gold_tags: torch.Tensor, frame_mask: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """The mean loss over real frames' real tokens (and over the layers).

        # Parameters

        layer_logits : per layer `(batch, num_frames, seq_len, num_labels)`.
        gold_tags : `(batch, num_frames, seq_len)` tag ids.
        frame_mask : `(batch, num_frames)` bool, real frames.
        mask : `(batch, seq_len)` bool, real tokens.
        """
        raise NotImplementedError

    def decode(
        self,
        layer_logits: list[torch.Tensor],
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        with_probabilities: bool = True,
    ) -> tuple[torch.Tensor, Optional[torch.Tensor]]:
        """`predicted_tags (batch, num_frames, seq_len)` (-1 outside real frames and tokens) and, when
        `with_probabilities`, per-token tag probabilities `(batch, num_frames, seq_len, num_labels)`."""
        raise NotImplementedError

    def span_log_probabilities(
        self,
        layer_logits: list[torch.Tensor],
        predicted_tags: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        temperature: float = 1.0,
    ) -> torch.Tensor:
        """`(batch, num_frames, seq_len)` at each token, the log-probability of the decoded span that ends
        there (read it at a span's last token; 0 outside real frames), under the output layer's distribution
        with every score divided by `temperature` (calibration: it does not change the decoded tags).

        # Parameters

        layer_logits : per layer `(batch, num_frames, seq_len, num_labels)`.
        predicted_tags : `(batch, num_frames, seq_len)` `decode`'s tags.
        frame_mask : `(batch, num_frames)` bool; mask : `(batch, seq_len)` bool.
        """
        raise NotImplementedError

    def graph_scores(self, layer_logits: list[torch.Tensor]) -> torch.Tensor:
        """What an inference graph gives for this output layer to decode outside torch (`graph_decoder`), from the
        scorer's logits per layer `(rows, seq_len, num_labels)`; `NotImplementedError`: this layer has no graph
        form (its archive labels through torch)."""
        raise NotImplementedError(f"the {type(self).__name__} output layer has no inference-graph form yet")

    def graph_decoder(self) -> dict[str, Any]:
        """The settings of the numpy decoder of `graph_scores` (`srl_zoo.graphs`), as JSON values."""
        raise NotImplementedError(f"the {type(self).__name__} output layer has no inference-graph form yet")

    @property
    def decoding(self) -> str:
        """How tags are decoded: `"argmax"`, `"viterbi"`, `"dependency"`, ..."""
        raise NotImplementedError

    def set_decoding(self, decoding: str) -> None:
        """Decode with `decoding` from now on; `ValueError` if this output layer cannot."""
        raise NotImplementedError


def soft_cross_entropy(
    log_probabilities: torch.Tensor, teacher: torch.Tensor, token_mask: torch.Tensor
) -> torch.Tensor:
    """`-Σ teacher · log_probabilities` per real token, averaged over the real tokens.

    # Parameters

    log_probabilities : `(..., num_labels)` the student's log-distribution per token.
    teacher : `(..., num_labels)` the teacher's distribution per token.
    token_mask : `(...)` bool, real tokens.
    """
    products = torch.where(teacher > 0, teacher * log_probabilities, torch.zeros_like(log_probabilities))
    per_token = -products.sum(-1) * token_mask
    return per_token.sum() / token_mask.sum().clamp_min(1)
