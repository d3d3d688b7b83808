"""What the srl-label tests share: a labeler of the fixture model and a corpus writer."""

import pytest

import srl_zoo.plugin


@pytest.fixture(scope="module")
def labeler(predicate_model_archive):
    return srl_zoo.load(predicate_model_archive, batch_size=3)


def write_corpus(path, lines) -> str:
    """Write `lines` to `path`, one per line; the path as a string."""
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)
