"""The error of a corpus run that cannot start or go on as asked (a format, an output, a progress record, the
parts of several processes), told in one line with what to do."""


class LabelRunError(ValueError):
    """A labeling run refused before or between chunks: the message says why and what to pass."""
