"""Every format reads gzip-compressed files (`*.gz`) exactly as the plain ones; broken streams are clear errors."""

import gzip
import os
import shutil
from pathlib import Path

import pytest

from srl_zoo.data.formats import ConllFormatError, read_conll2005, read_conll2009, read_conll2012
from tests.conftest import FIXTURES

CASES = [
    (read_conll2005, "conll2005/sample.txt"),
    (read_conll2012, "conll2012/sample.gold_conll"),
    (read_conll2009, "conll2009/sample.txt"),
]


def gzipped(source: str, target: str) -> str:
    with open(source, "rb") as plain, gzip.open(target, "wb") as compressed:
        shutil.copyfileobj(plain, compressed)
    return target


@pytest.mark.parametrize("read, name", CASES, ids=[c[1] for c in CASES])
def test_gzip_file_reads_like_the_plain_file(read, name, tmp_path):
    plain = os.path.join(FIXTURES, name)
    compressed = gzipped(plain, str(tmp_path / (os.path.basename(name) + ".gz")))
    assert list(read(compressed)) == list(read(plain))


def test_conll2012_directory_walk_finds_gzipped_files(tmp_path):
    domain = tmp_path / "data" / "english" / "annotations" / "nw"
    domain.mkdir(parents=True)
    gzipped(os.path.join(FIXTURES, "conll2012", "sample.gold_conll"), str(domain / "doc.gold_conll.gz"))
    assert len(list(read_conll2012(str(tmp_path), domain_identifier="nw"))) == 20


def test_truncated_gzip_names_the_file(tmp_path):
    compressed = gzipped(os.path.join(FIXTURES, "conll2005", "sample.txt"), str(tmp_path / "sample.txt.gz"))
    data = Path(compressed).read_bytes()
    Path(compressed).write_bytes(data[: len(data) // 2])
    with pytest.raises(ConllFormatError, match="sample.txt.gz.*cannot decompress"):
        list(read_conll2005(compressed))


def test_a_plain_file_named_gz_is_a_clear_error(tmp_path):
    fake = tmp_path / "plain.txt.gz"
    shutil.copy(os.path.join(FIXTURES, "conll2005", "sample.txt"), fake)
    with pytest.raises(ConllFormatError, match="plain.txt.gz.*cannot decompress"):
        list(read_conll2005(str(fake)))
