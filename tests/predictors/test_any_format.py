"""`allennlp predict --use-dataset-reader` through the srl_zoo predictor, and `Labeler.label_file`, read
a CoNLL file in its own format: a model trained on CoNLL-2005 labels the same predicates the same from
a CoNLL-2012 file."""

import os

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo.api
from srl_zoo.data.formats import read_conll2009
from srl_zoo.runtime.labeler import RuntimeLabeler
from tests.conftest import FIXTURES

SAMPLES = {"conll2005": "sample.txt", "conll2012": "sample.gold_conll", "conll2009": "sample.txt"}

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def test_each_predicate_is_labeled_the_same_from_either_format(predicate_model_archive):
    predictor = Predictor.from_archive(load_archive(predicate_model_archive), "srl_zoo")
    outputs = {}
    for data_format, name in (("conll2005", "edge_cases.txt"), ("conll2012", "edge_cases.gold_conll")):
        instances = list(predictor.dataset_reader.read(os.path.join(FIXTURES, data_format, name)))
        outputs[data_format] = predictor.predict_batch_instance(instances)
    assert len(outputs["conll2005"]) == len(outputs["conll2012"]) == 9
    compared = 0
    for verbal, every in zip(outputs["conll2005"], outputs["conll2012"], strict=False):
        assert verbal["words"] == every["words"]
        by_index = {frame["predicate"]["index"]: frame for frame in every["frames"]}
        for frame in verbal["frames"]:
            assert by_index[frame["predicate"]["index"]]["tags"] == frame["tags"]
            compared += 1
    assert compared >= 10
    # the CoNLL-2012 file has nominal predicates besides: more frames, all labeled
    assert sum(len(o["frames"]) for o in outputs["conll2012"]) > sum(len(o["frames"]) for o in outputs["conll2005"])


@pytest.mark.parametrize("data_format", ["conll2005", "conll2012"])
def test_the_labeler_labels_a_conll_file_in_any_format(predicate_model_archive, data_format):
    """`label_file` of `srl_zoo.load`'s labeler (the runtime's: no allennlp reader) labels the file's predicates as
    the allennlp `Labeler` does, in file order whatever the batch."""
    path = os.path.join(FIXTURES, data_format, SAMPLES[data_format])
    labeler = srl_zoo.load(predicate_model_archive, precision="float32")
    assert isinstance(labeler, RuntimeLabeler)
    labeled = list(labeler.label_file(path, batch_size=7))
    expected = list(srl_zoo.api.load(predicate_model_archive, precision="float32").label_file(path))
    assert [s["words"] for s in labeled] == [s["words"] for s in expected]
    assert [[(f["predicate"]["index"], f["tags"]) for f in s["frames"]] for s in labeled] == [
        [(f["predicate"]["index"], f["tags"]) for f in s["frames"]] for s in expected
    ]
    if data_format == "conll2012":
        assert len(labeled) == 20
        assert sum(len(sentence["frames"]) for sentence in labeled) == 80  # the file's predicates, nominal ones too


def test_the_runtime_labels_a_conll2009_file_at_its_predicates(predicate_model_archive):
    """The allennlp `Labeler` refuses dependency data for a span model (its reader is for scoring); the runtime's
    labels its words at its predicates."""
    path = os.path.join(FIXTURES, "conll2009", SAMPLES["conll2009"])
    labeled = list(srl_zoo.load(predicate_model_archive).label_file(path, batch_size=3))
    sentences = list(read_conll2009(path))
    assert [s["words"] for s in labeled] == [s.tokens for s in sentences]
    assert [[f["predicate"]["index"] for f in s["frames"]] for s in labeled] == [
        [f.index for f in s.frames] for s in sentences
    ]
