"""The contract a frame scorer reads from its encoder, declared on every `Seq2SeqEncoder`: whether it exposes
each layer's output (`exposes_layers`, `forward_layers`), one pass as `EncodedSentences` with the batch's side
inputs (`encode`), and the lever of a syntax head (`set_parse_source`). allennlp's encoders get the defaults
(one layer, no side inputs, no syntax head) from `use_sentence_encoder_contract`; srl_zoo's self-attention
encoders declare their own. The scorers call the contract and never ask what their encoder is."""

from typing import Any, Optional

import torch
from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from srl_zoo.config_fit import SENTENCE_ENCODER
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.encoders.sentence_encoder import SentenceEncoder


def _forward_layers(self: Seq2SeqEncoder, inputs: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
    return [self(inputs, mask)]


def _encode(
    self: Seq2SeqEncoder, inputs: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
) -> EncodedSentences:
    return EncodedSentences(self.forward_layers(inputs, mask))  # type: ignore[attr-defined]


def _no_syntax_head(self: Seq2SeqEncoder, source: str) -> bool:
    return False


def _offers_its_top_layer(cls: type, config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {SENTENCE_ENCODER: {"layers": 1, "syntax_head": False}}


#: the contract's defaults, for encoders that declare nothing
DEFAULTS: dict[str, Any] = {
    "exposes_layers": False,
    "forward_layers": _forward_layers,
    "encode": _encode,
    "set_parse_source": _no_syntax_head,
    "config_offers": classmethod(_offers_its_top_layer),  # what the config check reads (`srl_zoo.config_fit`)
}


def use_sentence_encoder_contract() -> None:
    """Every `Seq2SeqEncoder` offers the contract, with the defaults where a class declares nothing (a class
    that defines a member keeps it: `SelfAttentionEncoder` and its subclasses); applying it again changes
    nothing."""
    for name, value in DEFAULTS.items():
        if name not in vars(Seq2SeqEncoder):
            setattr(Seq2SeqEncoder, name, value)


def as_sentence_encoder(encoder: Seq2SeqEncoder) -> SentenceEncoder:
    """`encoder`, typed as the contract it offers once `use_sentence_encoder_contract` has run."""
    return encoder  # type: ignore[return-value]
