"""What every self-attention stack here shares: its widths, the input preparation and `forward_layers` (plain
torch; `srl_zoo.modules.self_attention_encoder` makes it an allennlp `Seq2SeqEncoder`)."""

from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.config_fit import SENTENCE_ENCODER, setting
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.layers.transformer_input import TransformerInput


class SelfAttentionEncoder(nn.Module):
    """Base of `deep_att`, `selective_connection` and `lisa`: `input_dim` in, `hidden_dim` out, both
    directions seen, `self.input` = `TransformerInput` (projection, √d scale, bias, timing, dropout),
    and `forward_layers`, the outputs that a per-layer loss or an auxiliary task reads."""

    #: the frame scorers' contract (`srl_zoo.modules.sentence_encoder`): every layer's output is exposed
    exposes_layers = True

    def __init__(
        self,
        input_dim: int,
        hidden_dim: int,
        scale_input: bool,
        use_timing_signal: bool,
        dropout: float,
        input_bias: bool = True,
    ) -> None:
        super().__init__()
        self._input_dim, self._hidden_dim = input_dim, hidden_dim
        self.input = TransformerInput(input_dim, hidden_dim, scale_input, use_timing_signal, dropout, input_bias)

    @classmethod
    def config_offers(cls, config: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """What a config of this encoder gives the heads and tasks (`srl_zoo.config_fit`): its layers."""
        return {SENTENCE_ENCODER: {"layers": setting(cls, config, "num_layers"), "syntax_head": False}}

    def get_input_dim(self) -> int:
        return self._input_dim

    def get_output_dim(self) -> int:
        return self._hidden_dim

    def is_bidirectional(self) -> bool:
        return True

    def forward_layers(self, inputs: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
        """Every layer output that this encoder exposes, each `(batch, seq_len, hidden_dim)`; the last
        is `forward`'s output. By default only that one."""
        return [self.forward(inputs, mask)]

    def set_parse_source(self, source: str) -> bool:
        """Attend to `source` parses: an encoder without a syntax head has none to honour (False)."""
        return False

    def encode(
        self, inputs: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
    ) -> EncodedSentences:
        """`forward_layers` as `EncodedSentences`; encoders with side inputs or intermediate results
        (LISA's syntax head) override it. `context` holds the batch's side inputs (e.g. gold heads)."""
        return EncodedSentences(self.forward_layers(inputs, mask))
