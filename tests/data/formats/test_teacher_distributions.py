"""Teacher files: written and read back the same, checked against the data they are read beside (words,
predicates, number of sentences: each mismatch one error naming both files and the sentence), the top tags
renormalised, and the frames field turning them into distributions over the vocabulary's tags."""

import numpy as np
import pytest
from allennlp.data import Token, Vocabulary
from allennlp.data.fields import TextField

from srl_zoo.data.fields import SrlFramesField
from srl_zoo.data.formats.conll2005 import read_conll2005
from srl_zoo.data.formats.teacher_distributions import (
    TeacherFileError,
    TeacherFrames,
    attach_teacher,
    read_teacher_file,
    top_distributions,
    write_teacher_file,
)
from tests.conftest import fixture_path

LABELS = ["O", "B-A0", "I-A0", "B-V"]
SAMPLE = fixture_path("conll2005", "sample.txt")


def _frames_of(sentence, seed: int) -> TeacherFrames:
    generator = np.random.default_rng(seed)
    probabilities = generator.dirichlet(np.ones(len(LABELS)), size=(len(sentence.frames), len(sentence.tokens)))
    ids, kept = top_distributions(probabilities, 3)
    return TeacherFrames(tuple(LABELS), np.array([frame.index for frame in sentence.frames], np.int32), ids, kept)


def _write(path, sentences) -> list[TeacherFrames]:
    frames = [_frames_of(sentence, seed) for seed, sentence in enumerate(sentences)]
    write_teacher_file(str(path), LABELS, "a test", ((s.tokens, f) for s, f in zip(sentences, frames, strict=True)))
    return frames


def test_a_teacher_file_reads_back_what_was_written(tmp_path):
    sentences = list(read_conll2005(SAMPLE))
    written = _write(tmp_path / "teacher.npz", sentences)
    read = list(attach_teacher(iter(sentences), str(tmp_path / "teacher.npz"), SAMPLE))
    assert [sentence for sentence, _ in read] == sentences
    for (_, got), expected in zip(read, written, strict=True):
        assert got.labels == tuple(LABELS)
        np.testing.assert_array_equal(got.predicates, expected.predicates)
        np.testing.assert_array_equal(got.label_ids, expected.label_ids)
        np.testing.assert_array_equal(got.probabilities, expected.probabilities)


def test_top_distributions_keep_the_most_probable_tags_renormalised():
    ids, kept = top_distributions(np.array([[0.1, 0.6, 0.0, 0.3], [1.0, 0.0, 0.0, 0.0]]), 3)
    assert ids.tolist() == [[1, 3, 0], [0, -1, -1]]
    np.testing.assert_allclose(kept.astype(np.float32), [[0.6, 0.3, 0.1], [1.0, 0.0, 0.0]], atol=1e-3)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: [s[0], s[2]] + s[3:], r"sentence 2 .*: its words differ from the data's"),
        (lambda s: s[:-1], r"more sentences than the data file"),
        (lambda s: s + [s[0]], r"the teacher file ends before the data file"),
    ],
)
def test_a_teacher_file_of_other_data_is_refused_naming_both_files(tmp_path, change, message):
    sentences = list(read_conll2005(SAMPLE))
    _write(tmp_path / "teacher.npz", sentences)
    with pytest.raises(TeacherFileError, match=message) as raised:
        list(attach_teacher(iter(change(sentences)), str(tmp_path / "teacher.npz"), SAMPLE))
    assert "teacher.npz" in str(raised.value) and "\n" not in str(raised.value)


def test_other_predicates_are_refused(tmp_path):
    sentences = list(read_conll2005(SAMPLE))
    _write(tmp_path / "teacher.npz", sentences)
    with_frames = next(number for number, sentence in enumerate(sentences) if sentence.frames)
    sentences[with_frames] = type(sentences[with_frames])(sentences[with_frames].tokens, frames=[])
    with pytest.raises(TeacherFileError, match=rf"sentence {with_frames + 1} .*its predicates differ"):
        list(attach_teacher(iter(sentences), str(tmp_path / "teacher.npz"), SAMPLE))


def test_a_file_that_is_no_teacher_file_is_one_error(tmp_path):
    (tmp_path / "teacher.npz").write_text("not numpy")
    with pytest.raises(TeacherFileError, match=r"teacher.npz: not a teacher file"):
        list(read_teacher_file(str(tmp_path / "teacher.npz")))
    with pytest.raises(TeacherFileError, match=r"missing.npz: no such teacher file: `srl-zoo teach` writes one"):
        list(read_teacher_file(str(tmp_path / "missing.npz")))


def test_the_frames_field_spreads_the_teachers_tags_over_the_vocabulary():
    tokens = TextField([Token(word) for word in ["a", "b", "c"]])
    ids = np.array([[[3, -1], [1, 2], [0, 5]]], dtype=np.int16)  # (frames, tokens, top_k); 5: a tag we lack
    probabilities = np.array([[[1.0, 0.0], [0.75, 0.25], [0.5, 0.5]]], dtype=np.float16)
    labels = ("O", "B-A0", "I-A0", "B-V", "B-A1", "B-AM-TMP")
    field = SrlFramesField(
        [0], [["B-V", "B-A0", "O"]], tokens, teacher=TeacherFrames(labels, np.array([0]), ids, probabilities)
    )
    vocabulary = Vocabulary()
    for tag in ["O", "B-V", "B-A0", "I-A0"]:
        vocabulary.add_token_to_namespace(tag, "labels")
    field.index(vocabulary)
    dense = field.as_tensor({"num_frames": 2, "num_tokens": 4})["teacher_probabilities"]
    assert dense.shape == (2, 4, vocabulary.get_vocab_size("labels"))
    index = vocabulary.get_token_index
    expected = np.zeros((2, 4, vocabulary.get_vocab_size("labels")), np.float32)
    expected[0, 0, index("B-V", "labels")] = 1.0
    expected[0, 1, index("B-A0", "labels")], expected[0, 1, index("I-A0", "labels")] = 0.75, 0.25
    expected[0, 2, index("O", "labels")] = 0.5  # B-AM-TMP is not in the vocabulary: its half is dropped
    np.testing.assert_allclose(dense.numpy(), expected)
