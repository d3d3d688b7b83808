"""Distillation end to end on the fixture: a teacher archive's distributions for the gold frames of a data file
and for plain text it labels itself (`srl-zoo teach`), a reader that carries them into the batches, and a
student trained on them beside the gold tags."""

import json
import os
import pickle

import numpy as np
import pytest
import torch

from srl_zoo.archive_files import ArchiveError
from srl_zoo.data.dataset_readers.conll2005_reader import Conll2005Reader
from srl_zoo.data.formats import SrlSpan
from srl_zoo.data.formats.conll2005 import read_conll2005
from srl_zoo.data.formats.conll2012 import read_conll2012
from srl_zoo.data.formats.teacher_distributions import TeacherFileError, attach_teacher, read_teacher_file
from srl_zoo.runtime import labeler
from srl_zoo.runtime.load import NotCovered
from srl_zoo.training import teacher_distributions
from srl_zoo.training.teacher_distributions import one_verb, write_distributions
from tests.conftest import REPO_ROOT, fixture_path, train_fixture_model
from tests.test_cli import one_error_line, run

pytestmark = pytest.mark.slow  # trains models

SAMPLE = os.path.join("fixtures", "conll2005", "sample.txt")
CRF = [("SRL_ZOO_TEST_CRF_INNER", "deep_att")]  # a teacher the runtime builds


TEXT = [
    "It is a truth universally acknowledged , that a single man must be in want of a wife .",
    "",
    "The Senate confirmed two judges on Tuesday .",
    "She said that he had left the house before noon .",
    "Bingley was sure of being liked wherever he appeared .",
]


def _text_file(tmp_path) -> str:
    path = tmp_path / "text.txt"
    path.write_text("\n".join(TEXT) + "\n", encoding="utf-8")
    return str(path)


def test_text_gets_the_teachers_predicates_and_tags_beside_gold_frames(predicate_model_archive, tmp_path):
    text, frames_path, out = _text_file(tmp_path), str(tmp_path / "frames.gold_conll"), str(tmp_path / "t.npz")
    count = write_distributions(predicate_model_archive, [SAMPLE, text], out, frames_path, top_k=3, precision="float32")
    gold = list(read_conll2005(SAMPLE))
    words = [line.split() for line in TEXT if line]
    assert count == len(gold) + len(words)
    written = list(attach_teacher(read_conll2012(frames_path), out, frames_path))  # they belong together
    for sentence, (taught, _) in zip(gold, written[: len(gold)], strict=True):
        assert taught.tokens == sentence.tokens
        assert [(f.index, f.arguments) for f in taught.frames] == [(f.index, f.arguments) for f in sentence.frames]
    labeled = labeler.load(predicate_model_archive, precision="float32", readable_frames=False).label_words(words)
    for found, (taught, frames) in zip(labeled, written[len(gold) :], strict=True):
        assert taught.tokens == found["words"]
        assert [f.index for f in taught.frames] == [frame["predicate"]["index"] for frame in found["frames"]]
        assert [f.bio_tags(len(taught.tokens)) for f in taught.frames] == [frame["tags"] for frame in found["frames"]]
        assert all(f.sense and "." in f.sense for f in taught.frames)
        totals = frames.probabilities.astype(np.float32).sum(-1)
        np.testing.assert_allclose(totals, np.ones_like(totals), atol=2e-3)
    assert any(taught.frames for taught, _ in written[len(gold) :]), "the teacher found no predicate at all"
    assert not os.path.exists(out + ".parts")


def test_a_stopped_run_resumes_from_its_chunks(predicate_model_archive, tmp_path, monkeypatch):
    text, frames_path = _text_file(tmp_path), str(tmp_path / "frames.gold_conll")
    whole = str(tmp_path / "whole.npz")
    write_distributions(predicate_model_archive, [text], whole, frames_path + ".whole", precision="float32")
    monkeypatch.setattr(teacher_distributions, "CHUNK_SENTENCES", 2)
    taught_chunks = []
    teach_chunk = teacher_distributions.teach_chunk

    def stopping_after_one(labeler_, sentences, top_k):
        if taught_chunks:
            raise KeyboardInterrupt
        taught_chunks.append([s.words for s in sentences])
        return teach_chunk(labeler_, sentences, top_k)

    monkeypatch.setattr(teacher_distributions, "teach_chunk", stopping_after_one)
    out = str(tmp_path / "resumed.npz")
    with pytest.raises(KeyboardInterrupt):
        write_distributions(predicate_model_archive, [text], out, frames_path, precision="float32")
    assert not os.path.exists(out) and os.path.isfile(os.path.join(out + ".parts", "chunk-00000.npz"))

    def counting(labeler_, sentences, top_k):
        taught_chunks.append([s.words for s in sentences])
        return teach_chunk(labeler_, sentences, top_k)

    monkeypatch.setattr(teacher_distributions, "teach_chunk", counting)
    write_distributions(predicate_model_archive, [text], out, frames_path, precision="float32")
    assert taught_chunks[1][0] == TEXT[3].split()  # the first chunk was not taught again
    with open(frames_path + ".whole", encoding="utf-8") as whole_frames, open(frames_path, encoding="utf-8") as ours:
        assert ours.read() == whole_frames.read()
    for (hash_a, a), (hash_b, b) in zip(read_teacher_file(whole), read_teacher_file(out), strict=True):
        assert hash_a == hash_b and np.array_equal(a.label_ids, b.label_ids)


def test_chunks_of_other_settings_are_refused(predicate_model_archive, tmp_path):
    text, frames_path, out = _text_file(tmp_path), str(tmp_path / "f.gold_conll"), str(tmp_path / "t.npz")
    os.makedirs(out + ".parts")
    (tmp_path / "t.npz.parts" / "made_from.json").write_text('{"archive": "another"}', encoding="utf-8")
    with pytest.raises(TeacherFileError, match=r"t\.npz\.parts: chunks of another teacher"):
        write_distributions(predicate_model_archive, [text], out, frames_path, precision="float32")


def test_text_without_a_frames_file_is_one_line(predicate_model_archive, tmp_path):
    completed = run("teach", predicate_model_archive, _text_file(tmp_path), "-o", str(tmp_path / "t.npz"))
    line = one_error_line(completed)
    assert "text.txt: plain text, not CoNLL: name the CoNLL file of their frames with --frames-output" in line


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


def test_a_decoded_frame_is_written_with_one_verb_on_its_predicate():
    spans = [SrlSpan("ARG0", 0, 1), SrlSpan("V", 2, 2), SrlSpan("V", 5, 5), SrlSpan("ARG1", 3, 4)]
    assert one_verb(2, spans) == [SrlSpan("ARG0", 0, 1), SrlSpan("V", 2, 2), SrlSpan("ARG1", 3, 4)]
    # no V on the predicate: it becomes one, and the span that covered it goes
    assert one_verb(3, spans) == [SrlSpan("ARG0", 0, 1), SrlSpan("V", 3, 3)]
    assert one_verb(0, []) == [SrlSpan("V", 0, 0)]


def test_a_teacher_the_runtime_does_not_build_is_refused_in_one_line(tmp_path, monkeypatch):
    def not_covered(path, **settings):
        raise NotCovered(path, "model.frame_scorer.encoder.type 'lstm'")

    monkeypatch.setattr(teacher_distributions, "load", not_covered)
    with pytest.raises(ArchiveError, match=r"t\.tar\.gz: model.frame_scorer.encoder.type 'lstm' is not in the "):
        write_distributions("t.tar.gz", [SAMPLE], str(tmp_path / "t.npz"))
    assert pickle.loads(pickle.dumps(NotCovered("a.tar.gz", "x"))).part == "x"
