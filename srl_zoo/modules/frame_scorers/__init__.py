"""Frame scorers: how the shared Model conditions on predicates, scores each frame's tags, computes their
loss and decodes them."""

from srl_zoo.modules.frame_scorers.bilinear import BilinearFrameScorer
from srl_zoo.modules.frame_scorers.crf_output import CrfTagOutput
from srl_zoo.modules.frame_scorers.frame_scorer import FrameScorer
from srl_zoo.modules.frame_scorers.indicator import IndicatorFrameScorer
from srl_zoo.modules.frame_scorers.softmax_output import SoftmaxTagOutput
from srl_zoo.modules.frame_scorers.tag_output import TagOutput
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.outputs.linear_chain_crf import LinearChainCrf
