import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.data.formats.io_utils import atomic_write, numbered_raw_lines

ENDINGS = [b"\n", b"\r\n", b"\r", b""]


def test_atomic_write_gives_the_file_the_usual_permissions(tmp_path):
    previous = os.umask(0o022)
    try:
        with atomic_write(str(tmp_path / "out.txt")) as handle:
            handle.write("text")
        with atomic_write(str(tmp_path / "out.bin"), "wb") as handle:
            handle.write(b"\x89PNG")
    finally:
        os.umask(previous)
    assert (tmp_path / "out.txt").read_text() == "text" and (tmp_path / "out.bin").read_bytes() == b"\x89PNG"
    assert oct((tmp_path / "out.txt").stat().st_mode & 0o777) == oct(0o644)
    assert oct((tmp_path / "out.bin").stat().st_mode & 0o777) == oct(0o644)


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(str(target)) as handle:
        handle.write("new")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


LINE_PIECES = st.lists(
    st.tuples(st.binary(max_size=6).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"")), st.sampled_from(ENDINGS))
)


@settings(deadline=None)  # a file per example: a loaded machine's disk, not the code, sets the time
@given(LINE_PIECES)
def test_raw_lines_split_at_every_line_end_and_give_back_the_bytes(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("raw") / "input.txt"
    data = b"".join(text + ending for text, ending in lines)
    path.write_bytes(data)
    read = list(numbered_raw_lines(str(path)))
    # bytes.splitlines ends lines at "\n", "\r\n" and "\r", exactly those
    expected = [(piece.rstrip(b"\r\n"), piece[len(piece.rstrip(b"\r\n")) :]) for piece in data.splitlines(True)]
    assert [(text, ending) for _, text, ending in read] == expected
    assert [number for number, _, _ in read] == list(range(1, len(read) + 1))
