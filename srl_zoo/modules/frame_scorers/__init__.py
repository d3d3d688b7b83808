"""Frame scorers: how the shared Model conditions on predicates and scores each frame's tags."""
from srl_zoo.modules.frame_scorers.frame_scorer import EncodedSentences, FrameScorer
from srl_zoo.modules.frame_scorers.indicator import IndicatorFrameScorer
