"""Human-readable renderings of labeled spans."""

from collections.abc import Sequence

from srl_zoo.data.formats.sentence import SrlSpan


def describe(words: list[str], spans: Sequence[SrlSpan]) -> str:
    """A bracketed rendering, e.g. `[ARG0: The cat] [V: sat] on the mat`."""
    starts = {span.start: span for span in spans}
    pieces, i = [], 0
    while i < len(words):
        span = starts.get(i)
        if span is not None:
            pieces.append(f"[{span.label}: {' '.join(words[span.start : span.end + 1])}]")
            i = span.end + 1
        else:
            pieces.append(words[i])
            i += 1
    return " ".join(pieces)
