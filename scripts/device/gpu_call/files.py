"""Where the call runs from, and its files written whole (a call cut short leaves no half-written file)."""

import os

DEVICE_SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/device
ROOT = os.path.dirname(os.path.dirname(DEVICE_SCRIPTS))
PART_BYTES = 15 * 2**20  # a returned file may be at most 16 MiB


def read_text(path: str) -> str:
    """The text of `path` (undecodable bytes replaced: logs may hold anything)."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def write_whole(path: str, data: bytes) -> None:
    """`data` written to `path` through a temporary file and a rename."""
    with open(path + ".partial", "wb") as handle:
        handle.write(data)
    os.replace(path + ".partial", path)


def split_file(path: str, directory: str, prefix: str) -> list[str]:
    """`path` cut into files `prefix`0, 1, ... of at most PART_BYTES in `directory`; their names."""
    names = []
    with open(path, "rb") as source:
        while chunk := source.read(PART_BYTES):
            name = f"{prefix}{len(names)}"
            write_whole(os.path.join(directory, name), chunk)
            names.append(name)
    return names
