"""The registered `selective_connection` encoder (the math: `srl_zoo.parts.encoders.selective_connection`)."""

from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from srl_zoo.modules.self_attention_encoder import SelfAttentionEncoder
from srl_zoo.parts.encoders import selective_connection
from srl_zoo.parts.encoders.selective_connection import SelectiveConnection

__all__ = ["SelectiveConnection", "SelectiveConnectionEncoder"]


@Seq2SeqEncoder.register("selective_connection")
class SelectiveConnectionEncoder(selective_connection.SelectiveConnectionEncoder, SelfAttentionEncoder):
    __doc__ = selective_connection.SelectiveConnectionEncoder.__doc__
