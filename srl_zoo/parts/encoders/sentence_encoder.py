"""The contract a frame scorer reads from its encoder: whether it exposes each layer's output (`exposes_layers`,
`forward_layers`), one pass as `EncodedSentences` with the batch's side inputs (`encode`), and the lever of a
syntax head (`set_parse_source`). srl_zoo's self-attention encoders declare it; allennlp's `Seq2SeqEncoder`s get
its defaults from `srl_zoo.modules.sentence_encoder`."""

from typing import Optional, Protocol

import torch

from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences


class SentenceEncoder(Protocol):
    """What a frame scorer may ask of its encoder."""

    #: whether `forward_layers` gives every layer's output (a per-layer loss needs them), not only the top one
    exposes_layers: bool

    def __call__(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor: ...

    def get_input_dim(self) -> int: ...

    def get_output_dim(self) -> int: ...

    def forward_layers(self, inputs: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
        """Every layer output it exposes, each `(batch, seq_len, dim)`; the last is the top."""
        ...

    def encode(
        self, inputs: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
    ) -> EncodedSentences:
        """One pass over each sentence; `context` holds the batch's side inputs (e.g. gold heads)."""
        ...

    def set_parse_source(self, source: str) -> bool:
        """Attend to `source` parses; whether it has a syntax head to honour it."""
        ...
