"""`srl-zoo serve` started on this machine's loopback, for benchmarks, screenshots and tests."""

import socket
import subprocess
import sys
import time
import urllib.request
from typing import Optional


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_local_server(
    archive: str, *options: str, env: Optional[dict[str, str]] = None, timeout: float = 120.0, quiet: bool = True
) -> tuple[subprocess.Popen, str]:
    """`srl-zoo serve ARCHIVE OPTIONS` on a free loopback port, once `/health` answers: the process and
    its base URL. `RuntimeError` if it exits or does not answer within `timeout` seconds."""
    port = free_port()
    command = [sys.executable, "-m", "srl_zoo.cli", "serve", archive, "--port", str(port), *options]
    output = subprocess.DEVNULL if quiet else None
    process = subprocess.Popen(command, stdout=output, stderr=output, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"srl-zoo serve exited with {process.returncode} before answering")
        try:
            with urllib.request.urlopen(url + "/health", timeout=5) as response:
                if response.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError(f"srl-zoo serve did not answer {url}/health within {timeout:.0f} s")
