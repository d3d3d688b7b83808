"""The Model's optional outputs, switched on or off for a while (the predictor reads only tags, its argument scores
need the spans' probabilities)."""

import contextlib
from collections.abc import Iterator
from typing import Optional


class OptionalOutputs:
    """What the output holds beside the tags, and context managers that change it meanwhile."""

    #: whether the output holds `class_probabilities` (`without_class_probabilities` turns it off)
    output_class_probabilities: bool = True
    #: whether the output holds `span_log_probabilities` when not training (`with_span_scores` turns it on)
    output_span_scores: bool = False

    def with_span_scores(self) -> contextlib.AbstractContextManager[None]:
        """Add `span_log_probabilities` to the output meanwhile (the predictor's argument scores)."""
        return self._outputs_meanwhile(span_scores=True)

    def without_class_probabilities(self) -> contextlib.AbstractContextManager[None]:
        """Leave `class_probabilities` out of the output meanwhile (the predictor reads only tags)."""
        return self._outputs_meanwhile(class_probabilities=False)

    @contextlib.contextmanager
    def _outputs_meanwhile(
        self, class_probabilities: Optional[bool] = None, span_scores: Optional[bool] = None
    ) -> Iterator[None]:
        """Set the optional outputs given (`output_class_probabilities`, `output_span_scores`), then restore them."""
        kept = (self.output_class_probabilities, self.output_span_scores)
        if class_probabilities is not None:
            self.output_class_probabilities = class_probabilities
        if span_scores is not None:
            self.output_span_scores = span_scores
        try:
            yield
        finally:
            self.output_class_probabilities, self.output_span_scores = kept
