"""A full queue answers 503 with Retry-After (the server keeps serving); SIGTERM labels the requests in flight
for at most the drain time, answers the rest 503, then the process exits (by the signal, re-raised once
uvicorn has shut down); a large request neither stalls a small one nor outlives SIGTERM."""

import signal
import threading
import time

import pytest

from tests.serving.conftest import Server

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def test_full_queue_is_503_and_sigterm_finishes_the_request_in_flight(predicate_model_archive):
    # a request waits 3 s for others to share its model call, and one sentence fills the queue
    server = Server(predicate_model_archive, "--max-queue", "1", "--max-wait-ms", "3000")
    try:
        first = {}
        waiting = threading.Thread(target=lambda: first.update(answer=server.post({"text": "Dogs bark."})))
        started = time.monotonic()
        waiting.start()
        time.sleep(1.0)
        status, answer, headers = server.post({"text": "Cats sleep."})
        assert status == 503 and headers["retry-after"] == "1"
        assert answer["error"] == "the service is busy (1 sentences are waiting; at most 1 may): try again in 1 s"
        server.process.send_signal(signal.SIGTERM)  # SIGTERM while the first request still waits for company
        waiting.join(timeout=60)
        assert time.monotonic() - started < 3.0  # the drain labels it at once instead of waiting for others
        status, answer, _ = first["answer"]
        assert status == 200 and answer["sentences"][0]["words"] == ["Dogs", "bark", "."]
        assert server.process.wait(timeout=60) == -signal.SIGTERM
    finally:
        server.stop()


def test_a_maximal_request_neither_stalls_a_small_one_nor_outlives_sigterm():
    """The shipped model, a request at the limits (10,000 tokens in sentences of 250 words: about 40 s of
    model time on one thread) in flight: a one-sentence request is answered within 2 s, then SIGTERM answers
    the large one 503 and the process exits within the drain time (5 s) and one model call."""
    from tests.test_shipped_model import SHIPPED

    server = Server(SHIPPED, "--drain-seconds", "5", "--max-request-seconds", "600")  # taken on a slow machine too
    try:
        words = (["the", "old", "man", "saw", "a", "dog", "near", "the", "river", "and"] * 25)[:250]
        large = {}
        sender = threading.Thread(target=lambda: large.update(answer=server.post({"sentences": [words] * 40})))
        sender.start()
        time.sleep(3.0)  # the large request is being labeled
        assert server.get("/health")[1]["queue_sentences"] > 0
        started = time.monotonic()
        status, answer, _ = server.post({"text": "She left."})
        waited = time.monotonic() - started
        assert status == 200 and answer["sentences"][0]["words"] == ["She", "left", "."]
        assert waited < 2.0, f"the small request waited {waited:.1f} s behind the large one"
        stopping = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == -signal.SIGTERM
        assert time.monotonic() - stopping < 5 + 5
        sender.join(timeout=30)
        status, answer, _ = large["answer"]
        assert status == 503 and answer["error"] == "the service stopped before labeling it"
        output = server.process.stdout.read()
        assert "Traceback" not in output and "CancelledError" not in output, output[-3000:]
    finally:
        server.stop()
