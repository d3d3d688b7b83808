"""Distillation end to end on the fixture: a teacher archive's distributions for the gold frames of a data file
(`srl-zoo teach`), a reader that carries them into the batches, and a student
trained on them beside the gold tags."""

import json
import os

import numpy as np
import pytest
import torch

from srl_zoo.data.dataset_readers.conll2005_reader import Conll2005Reader
from srl_zoo.data.formats.conll2005 import read_conll2005
from srl_zoo.data.formats.teacher_distributions import read_teacher_file
from srl_zoo.training.teacher_distributions import length_batches
from tests.conftest import REPO_ROOT, fixture_path, train_fixture_model
from tests.test_cli import run

pytestmark = pytest.mark.slow  # trains two models

SAMPLE = os.path.join("fixtures", "conll2005", "sample.txt")
CRF = [("SRL_ZOO_TEST_CRF_INNER", "indicator")]


def test_length_batches_group_sentences_by_length_within_the_budget():
    lengths = [5, 1, 9, 3, 3, 2]
    groups = list(length_batches(lengths, 8))
    assert sorted(index for group in groups for index in group) == list(range(len(lengths)))
    assert all(len(group) * max(lengths[i] for i in group) <= 8 or len(group) == 1 for group in groups)
    assert [lengths[group[0]] for group in groups] == sorted(lengths[group[0]] for group in groups)


def test_a_teachers_distributions_train_a_student(tmp_path_factory, tmp_path, monkeypatch):
    teacher = train_fixture_model(tmp_path_factory, "crf/tiny_crf.jsonnet", CRF)
    monkeypatch.chdir(REPO_ROOT)
    out = str(tmp_path / "teacher.npz")
    taught_run = run("teach", teacher, SAMPLE, "--output", out, "--top-k", "3", cwd=REPO_ROOT)
    sentences = list(read_conll2005(fixture_path("conll2005", "sample.txt")))
    assert f"the frames of {len(sentences)} sentences" in taught_run.stdout, taught_run.stderr[-2000:]
    taught = list(read_teacher_file(out))
    assert len(taught) == len(sentences)
    for sentence, (_, frames) in zip(sentences, taught, strict=True):
        assert frames.predicates.tolist() == [frame.index for frame in sentence.frames]
        assert frames.label_ids.shape == (len(sentence.frames), len(sentence.tokens), 3)
        totals = frames.probabilities.astype(np.float32).sum(-1)
        np.testing.assert_allclose(totals, np.ones_like(totals), atol=2e-3)

    reader = Conll2005Reader(teacher_files={SAMPLE: out})
    instances = list(reader.read(SAMPLE))
    assert all(instance["frames"].teacher is not None for instance in instances)

    overrides = json.dumps(
        {"dataset_reader.teacher_files": {SAMPLE: out}, "model.frame_scorer.output.teacher_weight": 0.5}
    )
    student = train_fixture_model(tmp_path_factory, "crf/tiny_crf.jsonnet", CRF, overrides)
    # the same config and seed as the teacher's own run: only the teacher's distributions change the loss
    taught_loss, own_loss = (_metrics(archive)["training_loss"] for archive in (student, teacher))
    assert np.isfinite(taught_loss) and taught_loss != pytest.approx(own_loss)
    weights = torch.load(os.path.join(os.path.dirname(student), "best.th"), weights_only=True)
    assert all(torch.isfinite(value).all() for value in weights.values() if value.is_floating_point())


def _metrics(archive: str) -> dict:
    with open(os.path.join(os.path.dirname(archive), "metrics.json")) as handle:
        return json.load(handle)
