"""What one request and the whole service may hold; every limit has a name a client can read."""

from dataclasses import dataclass


@dataclass(frozen=True)
class ServiceLimits:
    """The service's bounds.

    # Parameters

    max_body_bytes : a request body larger than this is answered 413.
    max_request_tokens : words in one request (all its sentences), more is answered 413.
    max_queue_sentences : sentences waiting for the model; a request that would pass it is answered
        503 with `Retry-After` instead of queueing without bound.
    max_batch_sentences : sentences in one model call (the Labeler's batch size).
    max_wait_seconds : how long the first waiting request holds the model call open for others.
    """

    max_body_bytes: int = 1_000_000
    max_request_tokens: int = 10_000
    max_queue_sentences: int = 2_048
    max_batch_sentences: int = 64
    max_wait_seconds: float = 0.005
