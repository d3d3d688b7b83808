"""The last step of every labeled sentence, on either path (the runtime and the allennlp predictor): PropBank's
readable keys added, and the arguments scored under a floor left out."""

from typing import Any, Optional

from srl_zoo.data.formats.frame_json import without_unsure_arguments
from srl_zoo.frames.readable_frames import ReadableFrames


def finish_sentence(sentence: dict[str, Any], readable: Optional[ReadableFrames], min_score: float) -> dict[str, Any]:
    """`sentence` (`{"words", "frames"}`) with the readable keys added (`readable`; None: none) and the arguments
    scored under `min_score` left out (0 keeps every one)."""
    if readable is not None:
        sentence = readable.sentence(sentence)
    if min_score > 0:
        words = sentence["words"]
        sentence = {**sentence, "frames": [without_unsure_arguments(f, words, min_score) for f in sentence["frames"]]}
    return sentence
