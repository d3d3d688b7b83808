"""An encoder built with the input width the part that holds it feeds it, so that configs leave widths out: the part
passes the width under both names encoders take it by (`input_dim`; `input_size` for torch's recurrent ones) and
allennlp gives each encoder the one its constructor takes. A width a config still gives must be the one fed: else
one line naming both parts."""

from allennlp.common import Lazy
from allennlp.common.checks import ConfigurationError
from allennlp.modules import Seq2SeqEncoder

from srl_zoo.parts.input_widths import width_mismatch

#: the keys an encoder takes its input width by
INPUT_WIDTH_KEYS = ("input_dim", "input_size")


def encoder_with_width(encoder: Lazy[Seq2SeqEncoder], widths: dict[str, int], path: str, feeder: str) -> Seq2SeqEncoder:
    """`encoder` built for inputs as wide as the sum of `widths` (what is fed, by name).

    # Parameters

    encoder : the configured encoder, not yet built.
    widths : the inputs concatenated for it, `{"words": 384, "predicate embedding": 32}`.
    path : the encoder's config key (`model.frame_scorer.encoder`), for the message.
    feeder : the part that feeds it (`the frame scorer`), for the message.
    """
    settings = encoder._params  # the config's keys (a `Lazy` built from a config keeps them here)
    for key in INPUT_WIDTH_KEYS:
        problem = width_mismatch(settings.pop(key, None), widths, feeder)  # (allennlp warns of a key given twice)
        if problem is not None:
            raise ConfigurationError(f"{path}.{key}: {problem}; leave {key} out: the width follows the parts")
    width = sum(widths.values())
    return encoder.construct(input_dim=width, input_size=width)
