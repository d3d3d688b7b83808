"""The runtime reads an archive's vocabulary folder as allennlp does."""

import tarfile

from allennlp.data import Vocabulary

from srl_zoo.runtime.vocabulary import read_vocabulary
from tests.conftest import REPO_ROOT


def test_every_namespace_matches_allennlps_vocabulary(tmp_path):
    with tarfile.open(f"{REPO_ROOT}/models/ewt-english-glove.tar.gz") as archive:
        archive.extractall(tmp_path, members=[m for m in archive.getmembers() if m.name.startswith("vocabulary")],
                           filter="data")  # fmt: skip
    mine = read_vocabulary(str(tmp_path / "vocabulary"))
    theirs = Vocabulary.from_files(str(tmp_path / "vocabulary"))
    for namespace, tokens in mine.items():
        assert tokens == theirs.get_index_to_token_vocabulary(namespace), namespace
    assert len(mine["tokens"]) > 1000
