"""The three readers on real EWT excerpts: counts, edge cases, and read-write-read identity."""

from pathlib import Path

import pytest

from srl_zoo.data.formats import (
    SrlSpan,
    read_conll2005,
    read_conll2009,
    read_conll2012,
    write_conll2005,
    write_conll2009,
    write_conll2012,
)
from tests.conftest import fixture_path

FORMATS = {
    "conll2005": (read_conll2005, write_conll2005, "conll2005/sample.txt", "conll2005/edge_cases.txt"),
    "conll2012": (read_conll2012, write_conll2012, "conll2012/sample.gold_conll", "conll2012/edge_cases.gold_conll"),
    "conll2009": (read_conll2009, write_conll2009, "conll2009/sample.txt", "conll2009/edge_cases.txt"),
}
# (sentences, tokens, predicates, non-V arguments) of the samples, from the data set's stats.json
SAMPLE_COUNTS = {"conll2005": (20, 474, 62, 137), "conll2012": (20, 474, 80, 166), "conll2009": (20, 474, 80, 166)}


def counts(sentences):
    arguments = sum(1 for s in sentences for f in s.frames for a in f.arguments if a.label not in ("V", "C-V"))
    return len(sentences), sum(len(s) for s in sentences), sum(len(s.frames) for s in sentences), arguments


@pytest.mark.parametrize("name", FORMATS)
def test_sample_counts_match_the_data_set_statistics(name):
    read, _, sample, _ = FORMATS[name]
    assert counts(list(read(fixture_path(sample)))) == SAMPLE_COUNTS[name]


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("which", [2, 3])
def test_read_write_read_is_the_identity(name, which, tmp_path):
    read, write, *files = FORMATS[name]
    original = list(read(fixture_path(files[which - 2])))
    out = str(tmp_path / "out.txt")
    assert write(original, out) == len(original)
    assert list(read(out)) == original


def test_conll2005_edge_cases():
    sentences = list(read_conll2005(fixture_path("conll2005/edge_cases.txt")))
    assert len(sentences) == 9
    # a word beginning with '#' is a token, not a comment
    assert any(token.startswith("#") for s in sentences for token in s.tokens)
    # sentences without verbal predicates keep no props columns
    assert sum(1 for s in sentences if not s.frames) == 2
    frames = [f for s in sentences for f in s.frames]
    labels = {a.label for f in frames for a in f.arguments}
    assert {"V", "C-V", "C-A1", "R-A1"} <= labels
    assert any(a.label == "V" and a.end > a.start for f in frames for a in f.arguments)
    assert any(all(a.label in ("V", "C-V") for a in f.arguments) for f in frames)
    # CoNLL-2005 has no senses; the target column gives the lemma
    assert all(f.sense is None and f.lemma for f in frames)


def test_conll2005_bio_tags_of_a_real_frame():
    sentence = next(read_conll2005(fixture_path("conll2005/sample.txt")))
    assert sentence.tokens == ["From", "the", "AP", "comes", "this", "story", ":"]
    assert sentence.frames[0].index == 3 and sentence.frames[0].lemma == "come"
    assert sentence.frames[0].bio_tags(7) == ["B-A2", "I-A2", "I-A2", "B-V", "B-A1", "I-A1", "O"]


def test_conll2012_senses_light_verbs_and_documents():
    sentences = list(read_conll2012(fixture_path("conll2012/edge_cases.gold_conll")))
    senses = [f.sense for s in sentences for f in s.frames]
    assert any(sense.endswith(".LV") for sense in senses)
    assert all(sense and "." in sense for sense in senses)
    assert sentences[0].extra["document_id"][0].startswith("google/ewt/")
    first = next(read_conll2012(fixture_path("conll2012/sample.gold_conll")))
    assert first.frames[0].sense == "come.03" and first.frames[0].arguments[0] == SrlSpan("ARG2", 0, 2)


def test_conll2012_directory_tree_with_domain_filter(tmp_path):
    sentences = list(read_conll2012(fixture_path("conll2012/sample.gold_conll")))
    for domain in ("nw", "bc"):
        write_conll2012(sentences[:3], str(tmp_path / "data" / "english" / domain / "doc.v4_gold_conll"))
    assert len(list(read_conll2012(str(tmp_path)))) == 6
    assert len(list(read_conll2012(str(tmp_path), domain_identifier="bc"))) == 3


def test_conll2009_heads_and_dependency_arguments():
    sentence = next(read_conll2009(fixture_path("conll2009/sample.txt")))
    assert sentence.heads == [3, 3, 4, 0, 6, 4, 4]
    assert sentence.dependency_labels[3] == "root"
    frame = sentence.frames[0]
    assert (frame.index, frame.lemma, frame.sense) == (3, "come", "come.03")
    assert frame.arguments == [SrlSpan("A2", 2, 2), SrlSpan("A1", 5, 5)]


def test_label_convention_is_applied_by_the_readers():
    frame = next(read_conll2012(fixture_path("conll2012/sample.gold_conll"), label_convention="conll2005")).frames[0]
    assert [a.label for a in frame.arguments] == ["A2", "V", "A1"]
    frame = next(read_conll2005(fixture_path("conll2005/sample.txt"), label_convention="propbank")).frames[0]
    assert [a.label for a in frame.arguments] == ["ARG2", "V", "ARG1"]


def test_props_only_output_reads_back_with_the_props_layout(tmp_path):
    sentences = list(read_conll2005(fixture_path("conll2005/sample.txt")))
    out = str(tmp_path / "props.txt")
    write_conll2005(sentences, out, props_only=True)
    first_line = Path(out).read_text(encoding="utf-8").split("\n")[0].split()
    assert first_line == ["-", "(A2*"]
    back = list(read_conll2005(out, columns="props"))
    assert [f.arguments for s in back for f in s.frames] == [f.arguments for s in sentences for f in s.frames]


def test_conll2005_frames_keep_their_predicates_written_as_conll2012(tmp_path):
    """A predicate without a sense (CoNLL-2005) is written with its lemma as frameset: read back, it is the same
    predicate with the same arguments, and its sense has no `.NN` (a predicate label without sense)."""
    original = list(read_conll2005(fixture_path("conll2005/sample.txt")))
    out = str(tmp_path / "out.gold_conll")
    write_conll2012(original, out)
    for before, after in zip(original, read_conll2012(out), strict=True):
        assert [(f.index, f.arguments) for f in after.frames] == [(f.index, f.arguments) for f in before.frames]
        assert all(f.sense and "." not in f.sense for f in after.frames)
