"""Building blocks (attention, timing, sub-layers), the registered Seq2SeqEncoders, the adapted transformer embedder."""

from srl_zoo.modules.adapted_transformer_embedder import AdaptedTransformerMismatchedEmbedder
from srl_zoo.modules.deep_att import DeepAttEncoder
from srl_zoo.modules.frame_scorers import BilinearFrameScorer, EncodedSentences, FrameScorer, IndicatorFrameScorer
from srl_zoo.modules.lisa import LisaEncoder
from srl_zoo.modules.marked_predicate_transformer import MarkedPredicateTransformer
from srl_zoo.modules.selective_connection import SelectiveConnection, SelectiveConnectionEncoder
from srl_zoo.parts.layers.attention import MultiHeadSelfAttention
from srl_zoo.parts.layers.positional_encoding import timing_signal
from srl_zoo.parts.layers.residual import PostNormResidual
from srl_zoo.parts.layers.sublayers import FeedForward, GatedConvolution, SummedBiLstm, build_sublayer
from srl_zoo.parts.layers.transformer_input import TransformerInput
