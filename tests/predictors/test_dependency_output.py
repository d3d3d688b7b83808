"""Dependency SRL models (CoNLL-2009) through the predictor and srl-label: arguments as head words
with their role, the predicate's sense, and CoNLL-2009 output that reads back."""

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo.plugin
from srl_zoo.commands.srl_label import label_corpus
from srl_zoo.data.formats import read_conll2009
from srl_zoo.data.formats.frame_json import frame_json
from srl_zoo.data.formats.output_formats import conll2009_lines
from tests.conftest import train_fixture_model

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

WORDS = ["From", "the", "AP", "comes", "this", "story", ":"]
TAGS = ["O", "O", "B-A2", "O", "O", "B-A1", "O"]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return train_fixture_model(tmp_path_factory, "deepatt/dependency.jsonnet", overrides='{"trainer.num_epochs": 10}')


def test_dependency_frames_give_head_words():
    frame = frame_json(WORDS, 3, TAGS, "03", dependency=True)
    assert frame["predicate"] == {"index": 3, "word": "comes", "sense": "03"}
    assert [(a["role"], a["head"], a["text"]) for a in frame["arguments"]] == [("A2", 2, "AP"), ("A1", 5, "story")]


def test_conll2009_lines_read_back(tmp_path):
    path = tmp_path / "out.txt"
    output = {"words": WORDS, "frames": [frame_json(WORDS, 3, TAGS, "03", dependency=True)]}
    path.write_text("\n".join(conll2009_lines(output)) + "\n\n", encoding="utf-8")
    (sentence,) = list(read_conll2009(str(path)))
    assert sentence.tokens == WORDS and sentence.heads is None  # no syntax predicted: HEAD is _
    (frame,) = sentence.frames
    assert (frame.index, frame.sense) == (3, "comes.03")
    assert [(a.label, a.start) for a in frame.arguments] == [("A2", 2), ("A1", 5)]


def test_a_trained_dependency_model_through_the_predictor_and_srl_label(archive, tmp_path):
    predictor = Predictor.from_archive(load_archive(archive), "srl")
    result = predictor.predict_json({"tokens": WORDS, "predicates": [3]})
    for argument in result["frames"][0]["arguments"]:
        assert argument["start"] == argument["end"] == argument["head"]
    source = tmp_path / "corpus.txt"
    source.write_text("From the AP comes this story :\nDogs bark .\n", encoding="utf-8")
    out = tmp_path / "out.conll09"
    label_corpus(srl_zoo.load(archive), str(source), str(out), output_format="conll2009", progress=False)
    sentences = list(read_conll2009(str(out)))
    assert [s.tokens for s in sentences] == [WORDS, ["Dogs", "bark", "."]]
