"""The `srl_zoo` spaCy component on a blank pipeline: frames as Spans of the Doc's own tokens."""

from importlib.metadata import entry_points

import pytest
import spacy

import srl_zoo.api
from srl_zoo.spacy_component import SpacyFrame

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

TEXTS = ["President Bush nominated two individuals.  The Senate\tconfirmed them.", "", "Dogs bark loudly."]


@pytest.fixture(scope="module")
def nlp(predicate_model_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("srl_zoo", config={"archive": predicate_model_archive, "batch_size": 2})
    return nlp


def test_the_factory_is_a_spacy_entry_point():
    assert "srl_zoo" in {entry.name for entry in entry_points(group="spacy_factories")}


def test_frames_are_spans_of_the_docs_own_tokens(nlp, predicate_model_archive):
    docs = list(nlp.pipe(TEXTS, batch_size=2))
    assert [doc.text for doc in docs] == TEXTS  # the Doc's tokenization is kept
    assert docs[1]._.srl_frames == []
    assert sum(len(doc._.srl_frames) for doc in docs) >= 1  # the model finds a predicate in this text
    for doc in docs:
        for frame in doc._.srl_frames:
            assert isinstance(frame, SpacyFrame) and frame.predicate.doc is doc
            for span in frame.arguments:
                assert span.doc is doc and span.label_ and doc.text[span.start_char : span.end_char] == span.text
                assert span.sent == frame.predicate.sent  # arguments stay inside the predicate's sentence
    # the same frames as the allennlp predictor gives for the Doc's words (whitespace tokens left out)
    predictor = srl_zoo.api.load(predicate_model_archive).predictor
    doc = docs[0]
    for sentence in doc.sents:
        words = [token.text for token in sentence if not token.is_space]
        expected = predictor.predict_json({"tokens": words})["frames"]
        found = [f for f in doc._.srl_frames if f.predicate.sent == sentence]
        assert [f.predicate.text for f in found] == [f["predicate"]["word"] for f in expected]
        for frame, want in zip(found, expected, strict=False):
            assert [(s.label_, s.text) for s in frame.arguments] == [(a["role"], a["text"]) for a in want["arguments"]]


def test_a_doc_without_sentence_boundaries_is_one_sentence(predicate_model_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("srl_zoo", config={"archive": predicate_model_archive})
    doc = nlp("Cats sleep . Dogs bark .")
    assert doc._.srl_frames is not None


def test_missing_archive_is_a_clear_error():
    with pytest.raises(ValueError, match="archive"):
        spacy.blank("en").add_pipe("srl_zoo")


def test_a_doc_never_holds_a_lone_surrogate_so_the_model_never_sees_one(nlp, monkeypatch):
    """spaCy refuses to make the Doc (`UnicodeEncodeError`, a `ValueError`) before any component runs."""
    component = nlp.get_pipe("srl_zoo")

    def fail(*args, **kwargs):
        raise AssertionError("the model ran")

    monkeypatch.setattr(component.labeler, "label_batch", fail)
    with pytest.raises(ValueError, match="surrogates not allowed"):
        nlp("She left \ud800 early.")
    with pytest.raises(ValueError, match="surrogates not allowed"):
        list(nlp.pipe(["She left.", "He left \ud800 late."]))


def test_the_span_group_carries_rolesets_descriptions_and_scores_and_displacy_draws_it():
    from spacy import displacy

    from tests.conftest import REPO_ROOT

    nlp = spacy.blank("en")
    nlp.add_pipe("srl_zoo", config={"archive": f"{REPO_ROOT}/models/ewt-english.tar.gz", "precision": "float32"})
    doc = nlp("The committee approved the budget.")
    (frame,) = [f for f in doc._.srl_frames if f.predicate.text == "approved"]
    assert (frame.lemma, frame.roleset, frame.roleset_name) == ("approve", "approve.01", "assent to")
    assert 0 < frame.score <= 1
    group = [span for span in doc.spans["srl"] if span._.srl_predicate == frame.predicate]
    assert {(s.label_, s.text, s._.srl_description) for s in group} >= {
        ("ARG0", "The committee", "approver"),
        ("ARG1", "the budget", "thing approved"),
    }
    assert all(span._.srl_roleset == "approve.01" and 0 < span._.srl_score <= 1 for span in group)
    html = displacy.render(doc, style="span", options={"spans_key": "srl"})
    assert "ARG0" in html and "ARG1" in html and "committee" in html


def test_min_score_leaves_unsure_arguments_out_of_the_span_group(predicate_model_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("srl_zoo", config={"archive": predicate_model_archive, "min_score": 1.0})
    doc = nlp("President Bush nominated two individuals.")
    assert all(span.label_ == "V" or span._.srl_score >= 1.0 for span in doc.spans["srl"])


def test_a_shipped_archive_runs_on_its_graphs_with_the_predictors_frames():
    import os

    import srl_zoo.plugin  # noqa: F401
    from srl_zoo.graphs.labeler import GraphLabeler
    from tests.conftest import REPO_ROOT

    archive = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("srl_zoo", config={"archive": archive, "precision": "float32"})
    assert isinstance(nlp.get_pipe("srl_zoo").labeler, GraphLabeler)
    doc = nlp(TEXTS[0])
    expected = srl_zoo.api.load(archive, precision="float32")
    for sentence in doc.sents:
        words = [token.text for token in sentence if not token.is_space]
        want = expected.label_tokenized([{"tokens": words}])[0]["frames"]
        found = [f for f in doc._.srl_frames if f.predicate.sent == sentence]
        assert [f.predicate.text for f in found] == [f["predicate"]["word"] for f in want]
        for frame, other in zip(found, want, strict=True):
            assert [(s.label_, s.text) for s in frame.arguments] == [(a["role"], a["text"]) for a in other["arguments"]]
    assert len(doc._.srl_frames) >= 2
