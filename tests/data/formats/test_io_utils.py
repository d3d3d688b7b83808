import os

import pytest

from srl_zoo.data.formats.io_utils import atomic_write


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
