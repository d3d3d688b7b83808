"""He et al. (2017)'s oracle transformations: each fixes one kind of error in a predicted frame using
the gold frame, so that applying them in sequence shows how much of the F1 gap each kind explains.

Every transformation takes one predicate's gold and predicted argument spans (without `V`) and
returns the new predicted spans and how many times it applied. Definitions (He et al., Table 5, made
exact here):

- fix labels: a predicted span whose boundaries equal a gold span's takes the gold label.
- move core argument: a core label (`A0`-`A5`, `AA`, `ARG0`-`ARG5`, `ARGA`) that occurs exactly once in
  the gold and once in the predicted frame, on spans that do not overlap, moves to the gold span.
- merge spans: two predicted spans that start and end a gold span, with at most one word between
  them and nothing else predicted inside it, become that gold span.
- split spans: a predicted span that covers exactly two gold spans separated by at most one word
  becomes those two gold spans.
- fix boundary: a predicted span that matches no gold boundaries and overlaps gold spans of its own
  label takes the boundaries of the one it overlaps most (not one another predicted span matches).
- drop argument: a predicted span that overlaps no gold span is removed.
- add argument: a gold span that overlaps no predicted span is added.
"""

import re
from collections import Counter
from collections.abc import Callable, Sequence

from srl_zoo.data.formats import SrlSpan

Spans = list[SrlSpan]
Transformation = Callable[[Sequence[SrlSpan], Sequence[SrlSpan]], tuple[Spans, int]]

CORE_LABEL = re.compile(r"^(A|ARG)([0-5]|A)$")
MAX_GAP = 1  # words between the two spans that merge/split joins


def overlap(first: SrlSpan, second: SrlSpan) -> int:
    """Number of tokens the two inclusive spans share."""
    return max(0, min(first.end, second.end) - max(first.start, second.start) + 1)


def same_boundaries(first: SrlSpan, second: SrlSpan) -> bool:
    return (first.start, first.end) == (second.start, second.end)


def fix_labels(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> tuple[Spans, int]:
    """Give a predicted span the gold label where their boundaries are equal."""
    gold_label = {(span.start, span.end): span.label for span in gold}
    fixed: Spans = []
    applied = 0
    for span in predicted:
        label = gold_label.get((span.start, span.end), span.label)
        applied += label != span.label
        fixed.append(SrlSpan(label, span.start, span.end))
    return fixed, applied


def move_core_argument(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> tuple[Spans, int]:
    """Move a core argument, unique on both sides, to the non-overlapping gold span of its label."""
    gold_counts = Counter(span.label for span in gold)
    predicted_counts = Counter(span.label for span in predicted)
    moved: Spans = []
    applied = 0
    for span in predicted:
        label = span.label
        if CORE_LABEL.match(label) and gold_counts[label] == 1 and predicted_counts[label] == 1:
            target = next(g for g in gold if g.label == label)
            if overlap(span, target) == 0:
                moved.append(target)
                applied += 1
                continue
        moved.append(span)
    return moved, applied


def merge_spans(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> tuple[Spans, int]:
    """Replace two predicted spans by the gold span they start and end (at most one word apart)."""
    remaining = list(predicted)
    applied = 0
    for target in gold:
        inside = [span for span in remaining if overlap(span, target) > 0]
        if len(inside) != 2:
            continue
        first, second = sorted(inside, key=lambda span: span.start)
        if first.start == target.start and second.end == target.end and 0 <= second.start - first.end - 1 <= MAX_GAP:
            remaining = [span for span in remaining if span not in (first, second)] + [target]
            applied += 1
    return sorted(remaining, key=lambda span: span.start), applied


def split_spans(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> tuple[Spans, int]:
    """Replace a predicted span by the two gold spans (at most one word apart) it covers exactly."""
    ordered_gold = sorted(gold, key=lambda span: span.start)
    pieces = {}
    for first, second in zip(ordered_gold, ordered_gold[1:], strict=False):
        if 0 <= second.start - first.end - 1 <= MAX_GAP:
            pieces[(first.start, second.end)] = (first, second)
    split: Spans = []
    applied = 0
    for span in predicted:
        pair = pieces.get((span.start, span.end))
        if pair is None:
            split.append(span)
        else:
            split.extend(pair)
            applied += 1
    return split, applied


def fix_boundary(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> tuple[Spans, int]:
    """Give a predicted span the boundaries of the overlapping gold span of its label."""
    matched = {(span.start, span.end) for span in predicted} & {(span.start, span.end) for span in gold}
    fixed: Spans = []
    applied = 0
    for span in predicted:
        candidates = [
            g for g in gold if g.label == span.label and overlap(g, span) > 0 and (g.start, g.end) not in matched
        ]
        if (span.start, span.end) in matched or not candidates:
            fixed.append(span)
            continue
        target = max(candidates, key=lambda g: (overlap(g, span), -g.start))
        matched.add((target.start, target.end))
        fixed.append(target)
        applied += 1
    return fixed, applied


def drop_argument(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> tuple[Spans, int]:
    """Remove each predicted span that overlaps no gold span."""
    kept = [span for span in predicted if any(overlap(span, g) for g in gold)]
    return kept, len(predicted) - len(kept)


def add_argument(gold: Sequence[SrlSpan], predicted: Sequence[SrlSpan]) -> tuple[Spans, int]:
    """Add each gold span that overlaps no predicted span."""
    added = [g for g in gold if not any(overlap(g, span) for span in predicted)]
    return sorted(list(predicted) + added, key=lambda span: span.start), len(added)


# in He et al.'s order; applied cumulatively, each to the output of the previous ones
ORACLE_TRANSFORMATIONS: list[tuple[str, Transformation]] = [
    ("fix labels", fix_labels),
    ("move core argument", move_core_argument),
    ("merge spans", merge_spans),
    ("split spans", split_spans),
    ("fix boundary", fix_boundary),
    ("drop argument", drop_argument),
    ("add argument", add_argument),
]
