"""`srl-zoo serve` started as a user starts it: a real process on a free loopback port, stopped with SIGTERM."""

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any, Optional

import pytest

import srl_zoo.plugin
from srl_zoo.serving.local_server import free_port


class Server:
    """A running `srl-zoo serve` process and a small HTTP client for it."""

    def __init__(self, archive: str, *options: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "srl_zoo.cli", "serve", archive, "--port", str(self.port)]
        command += ["--precision", "float32", *options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"srl-zoo serve exited {self.process.returncode}: {self.process.stdout.read()}")
            try:
                if self.get("/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("srl-zoo serve did not answer /health within 120 s")

    def request(self, method: str, path: str, body: Optional[bytes] = None, headers=None) -> tuple[int, Any, dict]:
        """(status, decoded JSON or text, headers) of one request."""
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, raw, answer_headers = response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            status, raw, answer_headers = error.code, error.read(), dict(error.headers)
        text = raw.decode("utf-8")
        content_type = answer_headers.get("content-type", "")
        return status, json.loads(text) if "json" in content_type else text, answer_headers

    def get(self, path: str) -> tuple[int, Any, dict]:
        return self.request("GET", path)

    def post(self, value: Any = None, raw: Optional[bytes] = None, path: str = "/api/label") -> tuple[int, Any, dict]:
        body = raw if raw is not None else json.dumps(value).encode("utf-8")
        return self.request("POST", path, body, {"Content-Type": "application/json"})

    def stop(self) -> int:
        """SIGTERM, then the exit status (within 60 s): `-SIGTERM`, as uvicorn re-raises the signal once
        it has shut down gracefully (what process managers expect)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def server(predicate_model_archive) -> Iterator[Server]:
    running = Server(predicate_model_archive, "--max-request-tokens", "3000", "--max-body-bytes", "100000")
    yield running
    assert running.stop() == -signal.SIGTERM


@pytest.fixture(scope="module")
def labeler(predicate_model_archive):
    """The Python API on the same model, to compare with what the service answers."""
    return srl_zoo.load(predicate_model_archive)


def spans_of(sentences: list[dict[str, Any]]) -> list[list[list[tuple[str, int, int]]]]:
    """Per sentence, per frame, the (role, start, end) of each argument."""
    return [
        [[(a["role"], a["start"], a["end"]) for a in frame["arguments"]] for frame in sentence["frames"]]
        for sentence in sentences
    ]
