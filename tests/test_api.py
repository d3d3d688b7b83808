"""The Python API: srl_zoo.load, labeler(text), labeler.pipe, character offsets."""

import pytest

import srl_zoo

TEXT = (
    "President Bush nominated two individuals.  The Senate\tconfirmed them on Tuesday.\n"
    "Café owners in Zürich  cheered!"
)


@pytest.fixture(scope="module")
def labeler(predicate_model_archive):
    return srl_zoo.load(predicate_model_archive, batch_size=2)


@pytest.fixture
def labeler_marking_verbs(labeler, monkeypatch):
    """The labeler with the words ending in -ed given as predicates (the fixture model, trained on 20
    sentences, finds few predicates by itself), so that every sentence has frames with arguments."""
    predict = labeler.predictor.predict_batch_json

    def with_predicates(inputs):
        marked = [{**i, "predicates": [n for n, w in enumerate(i["tokens"]) if w.endswith("ed")]} for i in inputs]
        return predict(marked)

    monkeypatch.setattr(labeler.predictor, "predict_batch_json", with_predicates)
    return labeler


def test_text_is_split_into_sentences_with_offsets_into_the_original(labeler_marking_verbs):
    sentences = labeler_marking_verbs(TEXT)
    assert [s["words"] for s in sentences] == [
        ["President", "Bush", "nominated", "two", "individuals", "."],
        ["The", "Senate", "confirmed", "them", "on", "Tuesday", "."],
        ["Café", "owners", "in", "Zürich", "cheered", "!"],
    ]
    assert sentences[1]["text"] == "The Senate\tconfirmed them on Tuesday."
    for sentence in sentences:
        assert TEXT[sentence["start_char"] : sentence["end_char"]] == sentence["text"]
        for frame in sentence["frames"]:
            predicate = frame["predicate"]
            assert TEXT[predicate["start_char"] : predicate["end_char"]] == predicate["word"]
            for argument in frame["arguments"]:
                assert TEXT[argument["start_char"] : argument["end_char"]] == argument["text"]
    assert [len(s["frames"]) for s in sentences] == [1, 1, 1]
    assert sum(len(frame["arguments"]) for s in sentences for frame in s["frames"]) > 3


def test_argument_text_keeps_the_original_spacing(labeler):
    text = "The Senate\tconfirmed\n them  today."
    sentence = labeler(text)[0]
    frames = labeler.predictor.predict_batch_json([{"tokens": sentence["words"], "predicates": [2]}])[0]["frames"]
    offsets = [(0, 3), (4, 10), (11, 20), (22, 26), (28, 33), (33, 34)]
    assert labeler.split(text) == [(sentence["words"], offsets)]
    labeled = srl_zoo.api.with_char_offsets({"words": sentence["words"], "frames": frames}, offsets, text)
    for argument in labeled["frames"][0]["arguments"]:
        assert argument["text"] == text[offsets[argument["start"]][0] : offsets[argument["end"]][1]]


def test_pipe_keeps_input_order_and_matches_single_calls(labeler):
    texts = [
        "Cats sleep.",
        "",
        "The old man who lives next door repaired the fence yesterday. Dogs bark.",
        "Birds sing.",
    ]
    piped = list(labeler.pipe(texts, batch_size=3, buffer_texts=2))
    assert len(piped) == len(texts)
    assert piped == [labeler(text) for text in texts]
    assert piped[1] == [] and len(piped[2]) == 2


def test_bad_input_is_rejected(labeler):
    with pytest.raises(TypeError, match="strings"):
        list(labeler.pipe(["fine", 3]))
