"""The registrable output layer of a frame scorer (`TagOutput` in `srl_zoo.parts.outputs` holds the math)."""

from allennlp.common import Registrable

from srl_zoo.parts.outputs import tag_output


class TagOutput(tag_output.TagOutput, Registrable):
    """Loss and decoding of tag logits, configured under a frame scorer's `output` key (`softmax`, `crf`)."""

    default_implementation = "softmax"
