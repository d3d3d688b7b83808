"""`srl-zoo serve` with the shipped default runs on its inference graphs, neither allennlp nor torch
(`srl_zoo.labelers.load_labeler`): its answers are the allennlp predictor's labels (`srl_zoo.load`), with character
offsets, for text and for tokens with given predicates, and `/health` names the model's roles and precision."""

import os

import pytest

from srl_zoo.graphs.labeler import GraphLabeler
from tests.conftest import REPO_ROOT
from tests.serving.conftest import Server, spans_of

pytestmark = pytest.mark.slow  # starts a process

ARCHIVE = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
TEXT = "President Bush nominated two judges.  The Senate\tconfirmed them on Tuesday."


@pytest.fixture(scope="module")
def runtime_server():
    running = Server(ARCHIVE, "--precision", "float32")  # the allennlp predictor is compared in float32
    yield running
    running.stop()


def test_the_service_of_a_shipped_archive_labels_as_the_allennlp_predictor(runtime_server):
    from srl_zoo.labelers import load_labeler

    assert isinstance(load_labeler(ARCHIVE, precision="float32"), GraphLabeler)  # what `srl-zoo serve` loads for it
    import srl_zoo.api

    expected = srl_zoo.api.load(ARCHIVE, precision="float32")
    status, health, _ = runtime_server.get("/health")
    assert status == 200 and health["precision"] == "float32"
    assert "ARG0" in health["labels"] and "ARGM-TMP" in health["labels"] and "V" not in health["labels"]
    assert health["labels"] == expected.role_names
    status, answer, _ = runtime_server.post({"text": TEXT})
    assert status == 200
    reference = expected(TEXT)
    assert [s["words"] for s in answer["sentences"]] == [s["words"] for s in reference]
    assert spans_of(answer["sentences"]) == spans_of(reference)
    assert sum(len(s["frames"]) for s in reference) >= 2
    for sentence in answer["sentences"]:
        for frame in sentence["frames"]:
            for argument in frame["arguments"]:
                assert TEXT[argument["start_char"] : argument["end_char"]] == argument["text"]
    words = ["The", "Senate", "confirmed", "them", "."]
    status, answer, _ = runtime_server.post({"sentences": [words], "predicates": [[2]]})
    assert status == 200
    theirs = expected.label_tokenized([{"tokens": words, "predicates": [2]}])[0]
    assert [f["tags"] for f in answer["sentences"][0]["frames"]] == [f["tags"] for f in theirs["frames"]]
