"""The Python API: srl_zoo.load, labeler(text), labeler.pipe, character offsets; each test with the runtime's labeler
(what `srl_zoo.load` gives for the fixture model) and the allennlp one (`srl_zoo.api.load`)."""

import pytest

import srl_zoo.api
from srl_zoo.runtime.labeler import RuntimeLabeler

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

TEXT = (
    "President Bush nominated two individuals.  The Senate\tconfirmed them on Tuesday.\n"
    "Café owners in Zürich  cheered!"
)


@pytest.fixture(scope="module", params=["runtime", "allennlp"])
def labeler(predicate_model_archive, request):
    load = srl_zoo.load if request.param == "runtime" else srl_zoo.api.load
    labeler = load(predicate_model_archive, batch_size=2)
    assert isinstance(labeler, RuntimeLabeler) == (request.param == "runtime")
    return labeler


@pytest.fixture
def labeler_marking_verbs(labeler, monkeypatch):
    """The labeler with the words ending in -ed given as predicates (the fixture model, trained on 20
    sentences, finds few predicates by itself), so that every sentence has frames with arguments."""
    label_words = labeler.label_words

    def with_predicates(sentences, predicates=None, budget=None):
        return label_words(sentences, [[n for n, w in enumerate(s) if w.endswith("ed")] for s in sentences], budget)

    monkeypatch.setattr(labeler, "label_words", with_predicates)
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
    frames = labeler.label_tokenized([{"tokens": sentence["words"], "predicates": [2]}])[0]["frames"]
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


@pytest.fixture
def model_never_called(labeler, monkeypatch):
    """The labeler, whose model must not run: any prediction fails the test."""

    def fail(*args, **kwargs):
        raise AssertionError("the model ran before the input was checked")

    monkeypatch.setattr(labeler.model, "forward", fail)
    return labeler


LONE = "She left \ud800 early."


def test_a_lone_surrogate_is_a_value_error_naming_text_and_offset(model_never_called):
    message = r"text 0: character 9 \('\\ud800'\) cannot be encoded as UTF-8 \(a lone surrogate\?\)"
    with pytest.raises(ValueError, match=message):
        model_never_called(LONE)


def test_pipe_names_the_text_with_a_lone_surrogate_before_labeling(model_never_called):
    with pytest.raises(ValueError, match=r"^text 1: character 8 \('\\ud800'\)"):
        list(model_never_called.pipe(["She left.", "He left \ud800 late."]))
    texts = iter(["She left.", "He left \udc80 late."])  # a generator is checked text by text, still before labeling
    with pytest.raises(ValueError, match=r"^text 1: character 8 \('\\udc80'\)"):
        list(model_never_called.pipe(texts))


def test_label_tokenized_names_the_request_token_and_offset(model_never_called):
    with pytest.raises(ValueError, match=r"^request 1: 'tokens': token 1: character 0 \('\\ud800'\) cannot be encoded"):
        model_never_called.label_tokenized([{"tokens": ["He", "left"]}, {"tokens": ["He", "\ud800", "left"]}])
    with pytest.raises(ValueError, match=r"^request 0: 'tokens': token 0: character 2 "):
        model_never_called.label_tokenized([{"tokens": ["ab\udfffc"]}])
    with pytest.raises(ValueError, match=r"^request 0: 'sentence': character 3 "):
        model_never_called.label_tokenized([{"sentence": "He \ud800 left"}])


def test_label_file_refuses_a_surrogate_in_the_path_or_the_file(model_never_called, tmp_path):
    with pytest.raises(ValueError, match=r"^path: character 4 \('\\ud800'\)"):
        list(model_never_called.label_file("dev.\ud800.txt"))
    encoded_surrogate = "He\the\tPRP\t_\n".replace("He", "H\ud800").encode("utf-8", "surrogatepass")
    path = tmp_path / "surrogate.conll"
    path.write_bytes(encoded_surrogate)
    with pytest.raises(ValueError, match=r"surrogate.conll, line 1: invalid UTF-8 at byte 1 of the line"):
        list(model_never_called.label_file(str(path)))


def test_valid_texts_still_label_after_a_refused_one(labeler):
    with pytest.raises(ValueError):
        labeler(LONE)
    assert [s["words"] for s in labeler("She left early.")] == [["She", "left", "early", "."]]


@pytest.mark.parametrize("invisible", ["\u200b", "\u0007", "\ufeff", "\u200d\u200c"])
def test_tokens_of_only_control_or_zero_width_characters(labeler, model_never_called, invisible):
    """Given as tokens they are refused, naming the request and token (the model labeled them V before);
    in raw text they are dropped like whitespace, and the offsets of the other words still hold."""
    with pytest.raises(ValueError, match=r"^request 0: 'tokens': token 1 \(.*\) is only control or zero-width"):
        model_never_called.label_tokenized([{"tokens": ["He", invisible, "left"]}])
    text = f"He {invisible} left."
    assert [words for words, _ in labeler.split(text)] == [["He", "left", "."]]
    assert labeler.parse_request({"sentence": text}).words == ["He", "left", "."]


@pytest.mark.parametrize("batch_size", [0, -1, 1.5, True])
def test_a_batch_size_below_one_is_refused(predicate_model_archive, labeler, batch_size):
    message = r"^batch_size must be a whole number of sentences, at least 1; got "
    with pytest.raises(ValueError, match=message):
        srl_zoo.load(predicate_model_archive, batch_size=batch_size)
    if batch_size != 0:  # 0 in pipe means the labeler's own
        with pytest.raises(ValueError, match=message):
            list(labeler.pipe(["Dogs bark."], batch_size=batch_size))


def test_load_gives_the_allennlp_labeler_where_a_setting_needs_it(predicate_model_archive):
    """Config overrides and the `srl` predictor's own options are allennlp's: `srl_zoo.load` then gives the allennlp
    `Labeler` (with its predictor); without them, the runtime's."""
    assert isinstance(srl_zoo.load(predicate_model_archive, min_score=0.5), RuntimeLabeler)
    overridden = srl_zoo.load(predicate_model_archive, overrides='{"model.predicate_source": "predicted"}')
    assert isinstance(overridden, srl_zoo.api.Labeler)
    switched = srl_zoo.load(predicate_model_archive, mixed_precision=False)
    assert isinstance(switched, srl_zoo.api.Labeler) and switched.predictor.precision == "float32"
