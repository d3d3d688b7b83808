"""A local Ray as srl_zoo starts one listens on loopback only and keeps its files, token included, in a private
folder it removes: checked on the listening sockets of every Ray process while a task and an actor run."""

import os
import stat

import pytest

from srl_zoo.labeling.local_ray import local_ray, loopback_only

pytestmark = pytest.mark.slow  # starts Ray

LISTEN = "0A"  # a TCP socket's state in /proc/net/tcp


def _descendants(root: int) -> set[int]:
    """`root` and every process started under it (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grown = bool(more)
    return found


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for descriptor in os.listdir(f"/proc/{pid}/fd"):
            target = os.readlink(f"/proc/{pid}/fd/{descriptor}")
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    except OSError:
        pass
    return inodes


def _address(hex_address: str) -> str:
    """`0100007F:1F90` (tcp) or a 32-digit tcp6 address as dotted or colon text, without the port."""
    host = hex_address.split(":")[0].lower()
    if len(host) == 8:
        return ".".join(str(int(host[i : i + 2], 16)) for i in (6, 4, 2, 0))
    words = [host[i : i + 8] for i in range(0, 32, 8)]
    flipped = "".join("".join(word[j : j + 2] for j in (6, 4, 2, 0)) for word in words)
    if flipped.startswith("0" * 20 + "ffff"):
        return "::ffff:" + ".".join(str(int(flipped[i : i + 2], 16)) for i in range(24, 32, 2))
    return ":".join(flipped[i : i + 4] for i in range(0, 32, 4))


def listening_addresses() -> set[str]:
    """The addresses this process and every process it started listen on (TCP, IPv4 and IPv6)."""
    inodes = set().union(*(_socket_inodes(pid) for pid in _descendants(os.getpid())))
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="utf-8") as handle:
            for line in handle.readlines()[1:]:
                fields = line.split()
                if fields[3] == LISTEN and fields[9] in inodes:
                    found.add(_address(fields[1]))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads the sockets from Linux's /proc")
def test_every_server_of_a_local_ray_listens_on_loopback_only(tmp_path, monkeypatch):
    import ray

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    before = listening_addresses()
    with local_ray(num_cpus=1):

        @ray.remote
        class Counter:
            def add(self, value: int) -> int:
                return value + 1

        counter = Counter.remote()  # type: ignore[attr-defined]
        assert ray.get(counter.add.remote(1)) == 2
        addresses = listening_addresses() - before
        token = os.environ["RAY_AUTH_TOKEN_PATH"]
        folder = os.path.dirname(token)
        assert stat.S_IMODE(os.stat(token).st_mode) == 0o600 and stat.S_IMODE(os.stat(folder).st_mode) == 0o700
        assert {node["NodeManagerAddress"] for node in ray.nodes()} == {"127.0.0.1"}
        assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")
    assert len(addresses) >= 1, "no listening socket of Ray's was found: nothing was checked"
    assert addresses <= {"127.0.0.1", "::ffff:127.0.0.1"}, addresses
    assert not os.path.exists(folder)
    assert not os.path.exists(tmp_path / "home" / ".ray"), "a token or other file was written under HOME"


def test_the_variables_are_put_back(monkeypatch):
    import ray._private.ray_constants as constants

    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
    monkeypatch.delenv("RAY_TMPDIR", raising=False)
    before = constants.ENABLE_RAY_CLUSTER
    from ray._common.utils import get_ray_address_file

    with loopback_only() as folder:
        assert os.environ["RAY_AUTH_MODE"] == "token" and constants.ENABLE_RAY_CLUSTER is False
        # where a Cluster writes its head's address: the private folder, not a shared /tmp/ray
        assert get_ray_address_file(None).startswith(folder + os.sep)
    assert os.environ["RAY_AUTH_MODE"] == "disabled" and "RAY_AUTH_TOKEN_PATH" not in os.environ
    assert "RAY_TMPDIR" not in os.environ
    assert before == constants.ENABLE_RAY_CLUSTER
