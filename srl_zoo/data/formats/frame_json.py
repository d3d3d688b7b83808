"""The JSON form of a predicted frame (the model's readable output, the predictor's output) and back."""

from typing import Any, NamedTuple, Optional

from srl_zoo.data.formats import SrlFrame, SrlSpan, bio_to_spans
from srl_zoo.data.formats.rendering import describe


class FrameScores(NamedTuple):
    """How sure the model is of a frame: `spans`, per token the probability of the decoded span that ends
    there (read at each argument's last token); `predicate`, that the predicate is one with its sense."""

    spans: Optional[list[float]] = None
    predicate: Optional[float] = None


#: a frame decoded without scores
NO_SCORES = FrameScores()


def frame_json(
    words: list[str],
    predicate_index: int,
    tags: list[str],
    sense: Optional[str] = None,
    dependency: bool = False,
    scores: FrameScores = NO_SCORES,
) -> dict[str, Any]:
    """`{"predicate": {"index", "word"[, "sense"][, "score"]}, "tags", "arguments", "description"}` of one frame.

    `tags` are the frame's BIO tags; each argument is `{"role", "start", "end", "text"[, "score"]}`
    (inclusive token indices), and for dependency SRL (`dependency`) also `"head"`, its head word's index.
    `sense` is the frameset number (e.g. `"03"` for `come.03`) when known; `score`s where `scores` has them.
    """
    spans = bio_to_spans(tags)
    predicate: dict[str, Any] = {"index": predicate_index, "word": words[predicate_index]}
    if sense is not None:
        predicate["sense"] = sense
    if scores.predicate is not None:
        predicate["score"] = scores.predicate
    arguments = []
    for span in spans:
        argument: dict[str, Any] = {"role": span.label, "start": span.start, "end": span.end}
        if dependency:
            argument["head"] = span.start
        argument["text"] = " ".join(words[span.start : span.end + 1])
        if scores.spans is not None:
            argument["score"] = scores.spans[span.end]
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


def without_unsure_arguments(frame: dict[str, Any], words: list[str], min_score: float) -> dict[str, Any]:
    """The frame without its arguments scored below `min_score` (their tags `O`, its description redone); the
    predicate's own `V` span and arguments without a score stay."""
    dropped = [
        argument
        for argument in frame["arguments"]
        if argument["role"] != "V" and argument.get("score") is not None and argument["score"] < min_score
    ]
    if not dropped:
        return frame
    tags = list(frame["tags"])
    for argument in dropped:
        tags[argument["start"] : argument["end"] + 1] = ["O"] * (argument["end"] - argument["start"] + 1)
    kept = [argument for argument in frame["arguments"] if argument not in dropped]
    return {**frame, "tags": tags, "arguments": kept, "description": describe(words, bio_to_spans(tags))}
