"""The `softmax` output layer of a frame scorer (the default): token-level cross entropy over BIO tags,
then argmax, Viterbi or dependency decoding of the per-token distributions."""

from collections.abc import Callable
from typing import Any, Optional

import torch

from srl_zoo.config_fit import ConfigNeed, reads_head_words, setting
from srl_zoo.parts.outputs.decoding import TagDecoder
from srl_zoo.parts.outputs.span_scores import continuation_ids, product_log_probabilities, score_frame_rows
from srl_zoo.parts.outputs.tag_output import TagOutput, soft_cross_entropy


class SoftmaxOutput(TagOutput):
    """Loss and decoding of per-token tag logits, one tensor per scored layer (several with a loss at
    every layer: their losses are averaged, and so are their distributions when decoding). No weights.
    The loss, a token cross entropy, belongs to the registered part (`SoftmaxTagOutput`).

    # Parameters

    index_to_label : `{index: BIO tag}` of the label namespace (given by the frame scorer).
    decoding : `"argmax"` (None: the default), `"viterbi"` (exact BIO constraints) or `"dependency"` (a
        role on argument head words only, CoNLL-2009).
    label_smoothing : label smoothing of the cross entropy (DeepAtt, LISA: 0.1).
    teacher_weight : the teacher's share of the loss where the training data carries a teacher's tag
        distributions (the reader's `teacher_files`; `TagOutput.loss_with_teacher`); without them it is unused.
    """

    continuation: torch.Tensor  # buffer (num_labels,): see `continuation_ids`

    @classmethod
    def config_needs(cls, config: dict[str, Any]) -> list[ConfigNeed]:
        """`dependency` decoding needs CoNLL-2009 data (`srl_zoo.config_fit`): checked before it is read."""
        if setting(cls, config, "decoding") != "dependency":
            return []
        return [reads_head_words("decoding", "'dependency' decodes", "decode with 'viterbi'")]

    def __init__(
        self,
        index_to_label: dict[int, str],
        decoding: Optional[str] = None,
        label_smoothing: float = 0.0,
        teacher_weight: float = 0.5,
    ) -> None:
        super().__init__()
        self.teacher_weight = teacher_weight
        self.index_to_label = index_to_label
        self.decoder = TagDecoder(decoding or "argmax", index_to_label)
        self.label_smoothing = label_smoothing
        labels = [index_to_label[i] for i in range(len(index_to_label))]
        self.register_buffer("continuation", continuation_ids(labels), persistent=False)  # (num_labels,)

    @property
    def decoding(self) -> str:
        return self.decoder.decoding

    def set_decoding(self, decoding: str) -> None:
        """Decode with `decoding` from now on."""
        self.decoder = TagDecoder(decoding, self.index_to_label)

    def teacher_loss(
        self,
        layer_logits: list[torch.Tensor],
        teacher_probabilities: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
    ) -> torch.Tensor:
        """Each layer's softmax against the teacher's distribution (`TagOutput.teacher_loss`)."""
        token_mask = frame_mask.unsqueeze(-1) & mask.unsqueeze(1)  # (batch, num_frames, seq_len)
        losses = [
            soft_cross_entropy(torch.log_softmax(logits.float(), dim=-1), teacher_probabilities, token_mask)
            for logits in layer_logits
        ]
        return torch.stack(losses).mean()

    def decode(
        self,
        layer_logits: list[torch.Tensor],
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        with_probabilities: bool = True,
    ) -> tuple[torch.Tensor, Optional[torch.Tensor]]:
        """`predicted_tags (batch, num_frames, seq_len)` (-1 outside real frames and tokens) and, when
        `with_probabilities`, the layers' mean distribution `(batch, num_frames, seq_len, num_labels)`."""
        log_probs = mean_log_probabilities(layer_logits)
        predicted_tags = decode_rows(self.decoder, log_probs, frame_mask, mask)
        if not with_probabilities:
            return predicted_tags, None
        return predicted_tags, log_probs.exp() * frame_mask[..., None, None]

    def span_log_probabilities(
        self,
        layer_logits: list[torch.Tensor],
        predicted_tags: torch.Tensor,
        frame_mask: torch.Tensor,
        mask: torch.Tensor,
        temperature: float = 1.0,
    ) -> torch.Tensor:
        """The log of the product of the span's tags' probabilities (the layers' mean distribution)."""
        scaled = [logits.float() / temperature for logits in layer_logits]

        def product(log_probs: torch.Tensor, tags: torch.Tensor, _: torch.Tensor) -> torch.Tensor:
            return product_log_probabilities(log_probs, tags, self.continuation)

        return score_frame_rows(product, mean_log_probabilities(scaled), predicted_tags, frame_mask, mask)


def mean_log_probabilities(layer_logits: list[torch.Tensor]) -> torch.Tensor:
    """`(batch, num_frames, seq_len, num_labels)` log of the layers' mean tag distribution (float32)."""
    if len(layer_logits) == 1:
        return torch.log_softmax(layer_logits[0].float(), dim=-1)
    return (
        torch.stack([torch.softmax(logits.float(), dim=-1) for logits in layer_logits]).mean(0).clamp_min(1e-12).log()
    )


RowDecoder = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def decode_rows(decode: RowDecoder, scores: torch.Tensor, frame_mask: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Run `decode(row_scores (rows, seq_len, num_labels), row_mask (rows, seq_len)) -> (rows, seq_len)`
    over the real frames of `scores (batch, num_frames, seq_len, num_labels)`; `(batch, num_frames,
    seq_len)` tag ids, -1 outside real frames and tokens."""
    rows = frame_mask.nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
    row_sentence, row_frame = rows[:, 0], rows[:, 1]
    row_mask = mask[row_sentence]
    predicted = decode(scores[row_sentence, row_frame], row_mask)
    predicted_tags = predicted.new_full(frame_mask.shape + (mask.size(1),), -1)
    predicted_tags[row_sentence, row_frame] = predicted.masked_fill(~row_mask, -1)
    return predicted_tags
