"""The format-independent representation of one SRL-annotated sentence."""

from dataclasses import dataclass, field
from typing import Optional


class ConllFormatError(ValueError):
    """Malformed CoNLL input; the message names the file, the line and what was expected."""

    def __init__(self, path: str, line: Optional[int], message: str) -> None:
        self.path = path
        self.line = line
        self.reason = message
        where = f"{path}, line {line}" if line is not None else path
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class SrlSpan:
    """A labeled, inclusive token span `[start, end]` (a single token for dependency SRL)."""

    label: str
    start: int
    end: int


@dataclass
class SrlFrame:
    """One predicate and its arguments.

    # Parameters

    index : `int` 0-based token index of the predicate (the frameset row).
    lemma : `str`, optional. The predicate lemma (`-`-less), e.g. `come`.
    sense : `str`, optional. The frameset id, e.g. `come.03` or `take.LV`.
    arguments : `List[SrlSpan]` labeled spans in sentence order. Span formats keep the
        `V` and `C-V` pieces here; CoNLL-2009 gives one-token spans on argument heads.
    """

    index: int
    lemma: Optional[str] = None
    sense: Optional[str] = None
    arguments: list[SrlSpan] = field(default_factory=list)

    def bio_tags(self, num_tokens: int) -> list[str]:
        """BIO tags of this frame's arguments (`O` outside them)."""
        return spans_to_bio(self.arguments, num_tokens)


@dataclass
class SrlSentence:
    """A sentence with its tokens, optional syntax and its predicate-argument frames.

    # Parameters

    tokens : the words.
    pos : gold POS tags, if the format has them.
    lemmas : word lemmas (CoNLL-2009).
    heads : 1-based dependency heads, 0 = root (CoNLL-2009).
    dependency_labels : dependency relations (CoNLL-2009).
    parse : constituency parse bits, one per token (CoNLL-2005/2012).
    frames : the predicates in sentence order.
    extra : format-specific columns kept only so that writers reproduce the input
        (e.g. CoNLL-2012 document id, speaker, named entities; CoNLL-2009 PPOS, FEAT).
    source : `"file:line"` of the sentence's first line, for error messages.
    """

    tokens: list[str]
    pos: Optional[list[str]] = None
    lemmas: Optional[list[str]] = None
    heads: Optional[list[int]] = None
    dependency_labels: Optional[list[str]] = None
    parse: Optional[list[str]] = None
    frames: list[SrlFrame] = field(default_factory=list)
    extra: dict[str, list[str]] = field(default_factory=dict)
    source: Optional[str] = field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.tokens)

    def arguments_by_predicate(self) -> dict[int, list[SrlSpan]]:
        """Each frame's arguments, keyed by its predicate's token index."""
        return {frame.index: frame.arguments for frame in self.frames}


def spans_to_bio(spans: list[SrlSpan], num_tokens: int) -> list[str]:
    """Convert labeled spans to BIO tags; overlapping spans keep the first one given."""
    tags = ["O"] * num_tokens
    for span in spans:
        if any(tags[i] != "O" for i in range(span.start, span.end + 1)):
            continue
        tags[span.start] = "B-" + span.label
        for i in range(span.start + 1, span.end + 1):
            tags[i] = "I-" + span.label
    return tags


def bio_to_spans(tags: list[str]) -> list[SrlSpan]:
    """Convert BIO tags to labeled spans; an `I-X` that does not continue an `X` starts a new span."""
    spans: list[SrlSpan] = []
    label: Optional[str] = None
    start = 0
    for i, tag in enumerate(tags):
        prefix, _, tag_label = tag.partition("-")
        continues = prefix == "I" and label == tag_label
        if label is not None and not continues:
            spans.append(SrlSpan(label, start, i - 1))
            label = None
        if prefix in ("B", "I") and not continues:
            label, start = tag_label, i
    if label is not None:
        spans.append(SrlSpan(label, start, len(tags) - 1))
    return spans
