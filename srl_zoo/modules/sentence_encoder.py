"""The contract a frame scorer reads from its encoder: whether it exposes each layer's output (`exposes_layers`,
`forward_layers`), one pass as `EncodedSentences` with the batch's side inputs (`encode`), and the lever of a
syntax head (`set_parse_source`). srl_zoo's self-attention encoders declare it; an allennlp encoder that does not
gets the defaults (one layer, no side inputs, no syntax head) from `as_sentence_encoder` when a scorer takes it,
without changing allennlp's `Seq2SeqEncoder`. The scorers call the contract and never ask what their encoder is."""

from typing import Any, Optional

import torch
from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from srl_zoo.config_fit import SENTENCE_ENCODER
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.encoders.sentence_encoder import SentenceEncoder


class _ContractDefaults:
    """The contract's members for an encoder that declares none: one layer, no side inputs, no syntax head."""

    exposes_layers = False

    def forward_layers(self, inputs: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
        return [self(inputs, mask)]  # type: ignore[operator]  # mixed into a Seq2SeqEncoder

    def encode(
        self, inputs: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
    ) -> EncodedSentences:
        return EncodedSentences(self.forward_layers(inputs, mask))

    def set_parse_source(self, source: str) -> bool:
        return False

    @classmethod
    def config_offers(cls, config: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """What the config check reads (`srl_zoo.config_fit`): the top layer, no syntax head."""
        return {SENTENCE_ENCODER: {"layers": 1, "syntax_head": False}}


#: each allennlp encoder class adapted, with the contract's defaults mixed in behind its own members
_ADAPTED: dict[type, type] = {}


def _adapted_class(cls: type) -> type:
    """`cls` with the contract's defaults behind its own members (made once per class)."""
    if cls not in _ADAPTED:
        members = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__}
        _ADAPTED[cls] = type(cls.__name__, (cls, _ContractDefaults), members)
    return _ADAPTED[cls]


def declares_contract(cls: type) -> bool:
    """Whether the encoder class `cls` declares the contract itself (srl_zoo's self-attention encoders)."""
    return hasattr(cls, "encode") and hasattr(cls, "forward_layers")


def contract_offers(cls: type, config: dict[str, Any]) -> Optional[dict[str, dict[str, Any]]]:
    """What the encoder class `cls` configured by `config` offers the config check: its own `config_offers`, the
    contract's defaults for an allennlp `Seq2SeqEncoder` that declares none, else None."""
    offers = getattr(cls, "config_offers", None)
    if offers is not None:
        return offers(config)
    if isinstance(cls, type) and issubclass(cls, Seq2SeqEncoder):
        return _ContractDefaults.config_offers(config)
    return None


def as_sentence_encoder(encoder: Seq2SeqEncoder) -> SentenceEncoder:
    """`encoder` offering the contract: itself where its class declares it, else the same module (its parameters
    and their names unchanged) as an instance of its class with the contract's defaults mixed in."""
    if not declares_contract(type(encoder)):
        encoder.__class__ = _adapted_class(type(encoder))
    return encoder  # type: ignore[return-value]
