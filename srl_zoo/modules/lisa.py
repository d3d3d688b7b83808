"""The registered `lisa` encoder (the math: `srl_zoo.parts.encoders.lisa`)."""

from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from srl_zoo.modules.self_attention_encoder import SelfAttentionEncoder
from srl_zoo.parts.encoders import lisa
from srl_zoo.parts.encoders.lisa import PARSE_SOURCES, LayerNorms

__all__ = ["PARSE_SOURCES", "LayerNorms", "LisaEncoder"]


@Seq2SeqEncoder.register("lisa")
class LisaEncoder(lisa.LisaEncoder, SelfAttentionEncoder):
    __doc__ = lisa.LisaEncoder.__doc__
