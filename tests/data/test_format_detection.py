"""Any model scores any span format correctly: the format is detected, label spellings are mapped to
the model's, and the archive's token settings (lowercasing) are kept."""

import json
import os

import pytest
from allennlp.common.checks import ConfigurationError

from srl_zoo.data.format_detection import detect_format, label_convention_of, reader_for_file
from srl_zoo.data.formats import ConllFormatError, read_conll2005, write_conll2012
from tests.commands.test_srl_evaluate import run_evaluate
from tests.conftest import REPO_ROOT, fixture_path

SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")  # trained on CoNLL-2012 files: ARG0
GLOVE = os.path.join(REPO_ROOT, "models", "ewt-english-glove.tar.gz")  # the same data, GloVe words: lowercased


@pytest.mark.parametrize(
    "path, expected",
    [
        (fixture_path("conll2005", "sample.txt"), "conll2005"),
        (fixture_path("conll2012", "sample.gold_conll"), "conll2012"),
        (fixture_path("conll2009", "sample.txt"), "conll2009"),
        (os.path.join(REPO_ROOT, "data", "ewt", "conll2012", "dev.gold_conll.gz"), "conll2012"),
    ],
)
def test_detect_format(path, expected):
    assert detect_format(path) == expected


def test_an_unknown_layout_asks_for_the_format(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("just some words\n", encoding="utf-8")
    with pytest.raises(ConllFormatError, match=r"name it with --format"):
        detect_format(str(path))


def the_same_frames_in_conll2012(tmp_path) -> str:
    """The CoNLL-2005 fixture's sentences and frames, written as a CoNLL-2012 file (ARG0 spellings)."""
    sentences = list(read_conll2005(fixture_path("conll2005", "sample.txt"), label_convention="propbank"))
    for sentence in sentences:
        for frame in sentence.frames:
            frame.sense = f"{frame.lemma}.01"
    path = str(tmp_path / "same.gold_conll")
    write_conll2012(sentences, path)
    return path


@pytest.mark.slow  # trains a model and runs srl-zoo evaluate twice
def test_one_model_scores_the_same_sentences_the_same_in_two_formats(tmp_path):
    conll2012 = the_same_frames_in_conll2012(tmp_path)
    scores = {}
    for name, data in (("conll2005", fixture_path("conll2005", "sample.txt")), ("conll2012", conll2012)):
        finished = run_evaluate(SHIPPED, data, tmp_path / name)
        assert finished.returncode == 0, finished.stderr[-2000:]
        metrics = json.loads((tmp_path / name / "metrics.json").read_text())
        scores[name] = (metrics["python"]["f1-measure-overall"], metrics.get("srl_eval", {}).get("f1"))
    assert scores["conll2005"] == scores["conll2012"]
    assert scores["conll2005"][0] > 0.5  # A0 read as ARG0: not the 0.00 of mismatched spellings


def test_the_reader_for_another_format_keeps_the_archive_settings(tmp_path):
    from allennlp.models.archival import load_archive

    archive = load_archive(GLOVE)
    assert label_convention_of(archive.model.vocab) == "propbank"
    reader = reader_for_file(
        archive.validation_dataset_reader, archive.model.vocab, fixture_path("conll2005", "sample.txt")
    )
    instance = next(iter(reader.read(fixture_path("conll2005", "sample.txt"))))
    reader.apply_token_indexers(instance)
    assert reader.token_indexers["tokens"].lowercase_tokens
    assert (
        reader_for_file(archive.validation_dataset_reader, archive.model.vocab, SHIPPED_DEV)
        is archive.validation_dataset_reader
    )
    with pytest.raises(ConfigurationError, match="dependency SRL"):
        reader_for_file(archive.validation_dataset_reader, archive.model.vocab, fixture_path("conll2009", "sample.txt"))


SHIPPED_DEV = os.path.join(REPO_ROOT, "data", "ewt", "conll2012", "dev.gold_conll.gz")
