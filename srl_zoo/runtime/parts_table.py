"""The plain parts the runtime builds, by the `type` an archive's config gives them: the names the
allennlp side registers their wrappers under (generated from registration by `python -m
srl_zoo.commands.runtime_parts srl_zoo/runtime/parts_table.py`; do not edit). An archive whose every part
is here labels without allennlp."""

from srl_zoo.parts.encoders.deep_att import DeepAttEncoder
from srl_zoo.parts.encoders.lisa import LisaEncoder
from srl_zoo.parts.encoders.selective_connection import SelectiveConnectionEncoder
from srl_zoo.parts.heads.joint_pos_predicate import JointPosPredicateTagger
from srl_zoo.parts.heads.predicate_tagger import PredicateTagger
from srl_zoo.parts.outputs.crf import CrfOutput
from srl_zoo.parts.outputs.softmax import SoftmaxOutput
from srl_zoo.parts.scorers.bilinear import BilinearFrameScorer
from srl_zoo.parts.scorers.frame_scorer import FrameScorer
from srl_zoo.parts.scorers.indicator import IndicatorFrameScorer

#: `model.frame_scorer.type` (default `indicator`): made as `Scorer(encoder, tag_output, num_labels, **settings)`
SCORERS: dict[str, type[FrameScorer]] = {
    "bilinear": BilinearFrameScorer,
    "indicator": IndicatorFrameScorer,
}

#: `model.frame_scorer.encoder.type`: made from the config's settings
ENCODERS: dict[str, type[DeepAttEncoder] | type[LisaEncoder] | type[SelectiveConnectionEncoder]] = {
    "deep_att": DeepAttEncoder,
    "lisa": LisaEncoder,
    "selective_connection": SelectiveConnectionEncoder,
}

#: `model.frame_scorer.output.type` (default `softmax`): made as `Output(index_to_label, **settings)`
OUTPUTS: dict[str, type[CrfOutput] | type[SoftmaxOutput]] = {
    "crf": CrfOutput,
    "softmax": SoftmaxOutput,
}

#: `model.predicate_head.type` (default `tagger`): made as `Head.from_vocabulary(vocabulary, input_dim, **settings)`
PREDICATE_HEADS: dict[str, type[JointPosPredicateTagger] | type[PredicateTagger]] = {
    "joint_pos_predicate": JointPosPredicateTagger,
    "tagger": PredicateTagger,
}
