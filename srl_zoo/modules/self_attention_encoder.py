"""What every self-attention stack here shares: its widths and the input preparation."""
from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from srl_zoo.modules.transformer_input import TransformerInput


class SelfAttentionEncoder(Seq2SeqEncoder):
    """Base of `deep_att` and `selective_connection`: `input_dim` in, `hidden_dim` out, both
    directions seen, and `self.input` = `TransformerInput` (projection, √d scale, bias, timing, dropout)."""

    def __init__(self, input_dim: int, hidden_dim: int, scale_input: bool, use_timing_signal: bool, dropout: float) -> None:
        super().__init__()
        self._input_dim, self._hidden_dim = input_dim, hidden_dim
        self.input = TransformerInput(input_dim, hidden_dim, scale_input, use_timing_signal, dropout)

    def get_input_dim(self) -> int:
        return self._input_dim

    def get_output_dim(self) -> int:
        return self._hidden_dim

    def is_bidirectional(self) -> bool:
        return True
