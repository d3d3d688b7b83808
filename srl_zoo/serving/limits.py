"""What one request and the whole service may hold; every limit has a name a client can read."""

from dataclasses import dataclass, replace

from srl_zoo.front.batch_budget import BatchBudget


@dataclass(frozen=True)
class ServiceLimits:
    """The service's bounds.

    # Parameters

    max_body_bytes : a request body larger than this is answered 413.
    max_discarded_body_bytes : a body over `max_body_bytes` is read and thrown away up to this size before its 413
        (a client still sending, as Python's urllib is, would otherwise see the connection reset, not the answer);
        past it the 413 goes at once and the connection closes.
    max_request_tokens : words in one request (all its sentences), more is answered 413.
    max_request_row_words : predicate rows x words in one request (all its sentences), more is answered 413:
        the model runs its per-predicate layers once per (sentence, predicate) row, so a sentence costs its
        rows times its words. A sentence whose predicates the request gives counts one row per predicate; one
        whose predicates the model finds counts a quarter of its words (`ROWS_PER_WORD_FOUND`; EWT has 0.19).
        The default takes `max_request_tokens` words in sentences of `max_sentence_words` without predicates.
    max_sentence_words : words in one sentence, more is answered 413: a sentence is labeled in one model
        call, whose time grows with the cube of its length (frames x words x words). The shipped model took
        0.8 s for 250 words on one thread of a 2-core Xeon (docs/serving.md); every EWT sentence has at most 159.
    max_queue_sentences : sentences waiting for the model; a request that would pass it is answered
        503 with `Retry-After` instead of queueing without bound.
    max_batch_sentences : sentences in one model call (the Labeler's batch size).
    max_call_cells : sentences x longest sentence's words² in one model call: a request is labeled in calls
        of at most this (one sentence of `max_sentence_words` words), and other requests' calls run between
        them, so a small request waits behind at most one such call.
    max_call_row_words : predicate rows x the longest sentence's words in one model call (40 rows of 250 words:
        about 1.4 s on one thread of a 2-core AMD EPYC); a sentence given more predicates than that is labeled
        in parts of fewer predicates, each a call of its own, so a small request waits behind one such part. (A
        sentence without given predicates is never cut: its rows are the model's to find.)
    max_wait_seconds : how long the first waiting request holds the model call open for others.
    max_request_seconds : (120 s: with it `max_request_tokens` of 250-word sentences fits one thread of a 2-core
        AMD EPYC, where the start-up measure puts such a request at ~100 s; `machine_rate`) a request the service
        measures would take longer is answered 413 at once, and a request whose sentences are not all labeled
        this long after the model started
        on it is answered 503, and its remaining sentences are dropped.
    drain_seconds : after SIGTERM, how long requests already taken may still be labeled; those left are then
        answered 503 and the service exits.
    header_seconds : how long a connection may take, from opening or from its last answer, to send a whole
        request head; then it is closed (`srl_zoo.serving.connections`: idle and slow-header connections).
    keep_alive_seconds : how long an answered connection may stay idle before it is closed (uvicorn's
        `timeout_keep_alive`).
    """

    max_body_bytes: int = 1_000_000
    max_discarded_body_bytes: int = 256_000_000
    max_request_tokens: int = 10_000
    max_request_row_words: int = 630_000
    max_sentence_words: int = 250
    max_queue_sentences: int = 2_048
    max_batch_sentences: int = 64
    max_call_cells: int = 62_500
    max_call_row_words: int = 10_000
    max_wait_seconds: float = 0.005
    max_request_seconds: float = 120.0
    drain_seconds: float = 20.0
    header_seconds: float = 10.0
    keep_alive_seconds: int = 5

    def call_budget(self, labeler_budget: BatchBudget) -> BatchBudget:
        """The budget of one of the service's model calls: the labeler's (`BatchBudget`, the one batching
        policy), with `max_batch_sentences` sentences and `max_call_cells` cells."""
        return replace(labeler_budget, sentences=self.max_batch_sentences, cells=self.max_call_cells)
