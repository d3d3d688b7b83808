"""A full queue answers 503 with Retry-After (the server keeps serving); SIGTERM finishes the request
in flight, then the process exits (by the signal, re-raised once uvicorn has shut down)."""

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
        server.process.send_signal(signal.SIGTERM)  # SIGTERM while the first request still waits
        waiting.join(timeout=60)
        assert time.monotonic() - started >= 3.0
        status, answer, _ = first["answer"]
        assert status == 200 and answer["sentences"][0]["words"] == ["Dogs", "bark", "."]
        assert server.process.wait(timeout=60) == -signal.SIGTERM
    finally:
        server.stop()
