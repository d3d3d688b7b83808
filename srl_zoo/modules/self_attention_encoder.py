"""The self-attention stacks' base as an allennlp `Seq2SeqEncoder` (the math: `parts.encoders.self_attention`)."""

from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from srl_zoo.parts.encoders import self_attention


class SelfAttentionEncoder(self_attention.SelfAttentionEncoder, Seq2SeqEncoder):
    __doc__ = self_attention.SelfAttentionEncoder.__doc__
