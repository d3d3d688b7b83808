"""The registrable frame scorer (the math: `srl_zoo.parts.scorers.frame_scorer`)."""

from typing import Optional

from allennlp.common import Lazy, Registrable
from allennlp.data import Vocabulary

from srl_zoo.modules.frame_scorers.tag_output import TagOutput
from srl_zoo.parts.scorers import frame_scorer

#: where a frame scorer's encoder is configured
ENCODER_KEY = "model.frame_scorer.encoder"


def tag_output_of(vocab: Vocabulary, label_namespace: str, output: Optional[Lazy[TagOutput]]) -> TagOutput:
    """The configured output layer (None: `softmax` with its defaults) over the tags of `label_namespace`."""
    index_to_label = vocab.get_index_to_token_vocabulary(label_namespace)
    if output is None:
        return TagOutput.by_name(TagOutput.default_implementation)(index_to_label)  # type: ignore[call-arg]
    return output.construct(index_to_label=index_to_label)


class FrameScorer(frame_scorer.FrameScorer, Registrable):
    __doc__ = frame_scorer.FrameScorer.__doc__

    default_implementation = "indicator"
