"""Connections are bounded in time: one that sends nothing, one that sends its head a byte at a time and one left
idle after an answer are closed; and SIGTERM under 64 clients on keep-alive connections exits within the drain
time (a stuck worker once held it 50 s after the last answer). Every loop here is bounded in count and time."""

import http.client
import json
import os
import signal
import socket
import threading
import time

import pytest

from tests.conftest import REPO_ROOT
from tests.serving.conftest import Server

pytestmark = pytest.mark.slow  # starts the service

SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")


def closed_within(connection: socket.socket, seconds: float, trickle: bytes = b"") -> float:
    """How long until the server closes `connection` (sending `trickle` a byte every 0.2 s meanwhile), or
    `seconds` + 1 where it stays open that long."""
    started = time.monotonic()
    connection.settimeout(0.2)
    sent = 0
    while time.monotonic() - started < seconds:
        try:
            if connection.recv(1024) == b"":
                return time.monotonic() - started
        except TimeoutError:
            pass
        except (ConnectionResetError, BrokenPipeError):
            return time.monotonic() - started
        if sent < len(trickle):
            try:
                connection.send(trickle[sent : sent + 1])
            except (ConnectionResetError, BrokenPipeError):
                return time.monotonic() - started
            sent += 1
    return seconds + 1


@pytest.fixture(scope="module")
def bounded():
    running = Server(SHIPPED, "--header-seconds", "1", "--keep-alive-seconds", "1")
    yield running
    assert running.stop() == -signal.SIGTERM


def test_a_connection_that_sends_nothing_is_closed(bounded):
    with socket.create_connection(("127.0.0.1", bounded.port)) as connection:
        assert closed_within(connection, 8) < 4


def test_a_head_sent_a_byte_at_a_time_is_closed(bounded):
    head = b"POST /api/label HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with socket.create_connection(("127.0.0.1", bounded.port)) as connection:
        assert closed_within(connection, 8, trickle=head) < 4


def test_an_idle_connection_after_an_answer_is_closed_and_a_working_one_is_not(bounded):
    connection = http.client.HTTPConnection("127.0.0.1", bounded.port, timeout=30)
    body = json.dumps({"text": "She left."})
    for _ in range(3):  # three requests 0.5 s apart on one connection: within the bounds, it stays
        connection.request("POST", "/api/label", body, {"Content-Type": "application/json"})
        assert connection.getresponse().read() and connection.sock is not None
        time.sleep(0.5)
    assert closed_within(connection.sock, 8) < 4  # then idle: closed
    connection.close()


def test_sigterm_under_64_clients_exits_within_the_drain_time():
    server = Server(SHIPPED, "--drain-seconds", "5")
    stop, answered = threading.Event(), []
    body = json.dumps({"text": "The Senate confirmed two judges on Tuesday. They start in May."})

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        for _ in range(500):
            if stop.is_set():
                return
            try:
                connection.request("POST", "/api/label", body, {"Content-Type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                answered.append((time.monotonic(), answer.status))
            except (OSError, http.client.HTTPException):
                connection.close()
                if stop.wait(0.05):
                    return
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    clients = [threading.Thread(target=client, daemon=True) for _ in range(64)]
    for thread in clients:
        thread.start()
    time.sleep(3)
    signalled = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    try:
        assert server.process.wait(timeout=60) == -signal.SIGTERM
        exited = time.monotonic() - signalled
    finally:
        stop.set()
        for thread in clients:
            thread.join(timeout=35)
    assert any(status == 200 for _, status in answered), "no request was labeled: nothing was under load"
    assert exited < 5 + 5, f"exited {exited:.1f} s after SIGTERM, past the drain time (5 s) and one model call"
