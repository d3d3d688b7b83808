"""`allennlp predict --use-dataset-reader` through the srl_zoo predictor, and `Labeler.label_file`, read
a CoNLL file in its own format: a model trained on CoNLL-2005 labels the same predicates the same from
a CoNLL-2012 file."""

import os

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tests.conftest import FIXTURES

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


def test_the_labeler_labels_a_conll_file_in_any_format(predicate_model_archive):
    import srl_zoo.plugin

    labeler = srl_zoo.load(predicate_model_archive)
    labeled = list(labeler.label_file(os.path.join(FIXTURES, "conll2012", "sample.gold_conll"), batch_size=7))
    assert len(labeled) == 20
    assert sum(len(sentence["frames"]) for sentence in labeled) == 80  # the file's predicates, nominal ones too
