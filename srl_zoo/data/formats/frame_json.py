"""The JSON form of a predicted frame (the model's readable output, the predictor's output) and back."""

from typing import Any, Optional

from srl_zoo.data.formats import SrlFrame, SrlSpan, bio_to_spans
from srl_zoo.data.formats.rendering import describe


def frame_json(
    words: list[str], predicate_index: int, tags: list[str], sense: Optional[str] = None, dependency: bool = False
) -> dict[str, Any]:
    """`{"predicate": {"index", "word"[, "sense"]}, "tags", "arguments", "description"}` of one frame.

    `tags` are the frame's BIO tags; each argument is `{"role", "start", "end", "text"}` (inclusive
    token indices), and for dependency SRL (`dependency`) also `"head"`, its head word's index.
    `sense` is the frameset number (e.g. `"03"` for `come.03`) when known.
    """
    spans = bio_to_spans(tags)
    predicate: dict[str, Any] = {"index": predicate_index, "word": words[predicate_index]}
    if sense is not None:
        predicate["sense"] = sense
    arguments = []
    for span in spans:
        argument = {"role": span.label, "start": span.start, "end": span.end}
        if dependency:
            argument["head"] = span.start
        argument["text"] = " ".join(words[span.start : span.end + 1])
        arguments.append(argument)
    return {"predicate": predicate, "tags": tags, "arguments": arguments, "description": describe(words, spans)}


def frame_from_output(frame: dict[str, Any], lemma: Optional[str] = None) -> SrlFrame:
    """The `SrlFrame` of one frame of `frame_json`'s form (lemma: the word if not given; a predicted
    sense `03` becomes `lemma.03`)."""
    lemma = lemma or frame["predicate"]["word"]
    sense = frame["predicate"].get("sense")
    return SrlFrame(
        index=frame["predicate"]["index"],
        lemma=lemma,
        sense=f"{lemma}.{sense}" if sense else None,
        arguments=[SrlSpan(a["role"], a["start"], a["end"]) for a in frame["arguments"]],
    )
