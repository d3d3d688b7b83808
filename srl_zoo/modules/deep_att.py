"""The registered `deep_att` encoder (the math: `srl_zoo.parts.encoders.deep_att`)."""

from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from srl_zoo.modules.self_attention_encoder import SelfAttentionEncoder
from srl_zoo.parts.encoders import deep_att


@Seq2SeqEncoder.register("deep_att")
class DeepAttEncoder(deep_att.DeepAttEncoder, SelfAttentionEncoder):
    __doc__ = deep_att.DeepAttEncoder.__doc__
