"""The registered `crf` output layer (the math: `srl_zoo.parts.outputs.crf`)."""

from srl_zoo.modules.frame_scorers.tag_output import TagOutput
from srl_zoo.parts.outputs.crf import CrfOutput


@TagOutput.register("crf")
class CrfTagOutput(CrfOutput, TagOutput):
    __doc__ = CrfOutput.__doc__
