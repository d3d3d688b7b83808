"""The registered `softmax` output layer: the math of `srl_zoo.parts.outputs.softmax`, and its loss, a token
cross entropy (allennlp's, with label smoothing)."""

import torch
from allennlp.nn.util import sequence_cross_entropy_with_logits

from srl_zoo.modules.frame_scorers.tag_output import TagOutput
from srl_zoo.parts.outputs.softmax import SoftmaxOutput


@TagOutput.register("softmax")
class SoftmaxTagOutput(SoftmaxOutput, TagOutput):
    __doc__ = SoftmaxOutput.__doc__

    def loss(
        self, layer_logits: list[torch.Tensor], gold_tags: torch.Tensor, frame_mask: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """Token-averaged cross entropy over real frames' real tokens, averaged over the layers (`TagOutput.loss`)."""
        batch, num_frames, length = gold_tags.shape
        token_mask = (frame_mask.unsqueeze(-1) & mask.unsqueeze(1)).view(batch * num_frames, length)
        gold = gold_tags.reshape(batch * num_frames, length).contiguous()  # a group of frames is a strided slice
        smoothing = self.label_smoothing or None
        total = sum(
            # contiguous: float() keeps a permuted bf16 tensor's strides, which allennlp's view() rejects
            sequence_cross_entropy_with_logits(
                logits.float().contiguous().view(batch * num_frames, length, -1),
                gold,
                token_mask,
                average="token",
                label_smoothing=smoothing,
            )
            for logits in layer_logits
        )
        return total / len(layer_logits)
