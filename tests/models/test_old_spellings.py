"""A config to train is written in today's parts: each spelling of earlier versions is refused in one line naming
where it goes."""

import pytest
from allennlp.common.checks import ConfigurationError

from srl_zoo.models.old_spellings import refuse_old_spellings


def test_a_config_to_train_is_refused_any_old_spelling():
    with pytest.raises(ConfigurationError, match=r"^model.memory: the name of earlier srl_zoo versions; write it as"):
        refuse_old_spellings({"memory": {}, "frame_scorer": {"type": "indicator"}})
    with pytest.raises(ConfigurationError, match=r"^model.decoding: the model-level shorthand"):
        refuse_old_spellings({"decoding": "viterbi", "frame_scorer": {"type": "indicator"}})
    in_parts = {"frame_scorer": {"type": "indicator", "output": {"type": "softmax", "decoding": "viterbi"}}}
    refuse_old_spellings(in_parts)  # today's language passes


@pytest.mark.parametrize(
    ("scorer", "message"),
    [
        ({"output": "crf"}, 'model.frame_scorer.output: the output layer is a part now; write "output": '
         '{"type": "crf"}'),
        ({"decoding": "argmax"}, "model.frame_scorer.decoding: a setting of the output layer now; write it as "
         "model.frame_scorer.output.decoding"),
        ({"label_smoothing": 0.1}, "model.frame_scorer.label_smoothing: a setting of the output layer now"),
    ],
)  # fmt: skip
def test_a_config_to_train_is_refused_the_scorer_level_output_settings(scorer, message):
    with pytest.raises(ConfigurationError) as error:
        refuse_old_spellings({"frame_scorer": {"type": "indicator", **scorer}})
    assert error.value.message.startswith(message) and "\n" not in error.value.message
