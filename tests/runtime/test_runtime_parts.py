"""Every part in the runtime's table labels as its allennlp twin: small archives trained on the fixture with the
parts the shipped models do not use (DeepAtt, the bilinear scorer, softmax with Viterbi decoding, CRF, LISA's
encoder with given heads and its joint POS/predicate head) give the allennlp predictor's predicates, tags and
scores through `srl_zoo.runtime.labeler.load`."""

import os
from typing import Optional

import pytest

import srl_zoo.api
from srl_zoo.archive_files import ArchiveError
from srl_zoo.runtime.labeler import load
from srl_zoo.runtime.load import NotCovered
from tests.archive_rewriting import rewritten_archive
from tests.conftest import REPO_ROOT, train_fixture_model
from tests.modules.frame_scorers.test_crf import as_wrapper_archive
from tests.runtime.test_runtime_labels import dev_requests


@pytest.fixture(scope="module")
def lisa_archive(tmp_path_factory):
    """A tiny LISA (bilinear scorer, syntax head at layer 1, joint POS/predicate head) on the CoNLL-2012 fixture
    with its aligned trees, 20 epochs: it finds predicates and their senses (arguments it does not learn here)."""
    environment = [
        ("SRL_ZOO_TEST_LISA_FORMAT", "conll2012"),
        ("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold"),
        ("SRL_ZOO_TEST_LISA_PARSE_LAYER", "1"),
    ]
    return train_fixture_model(tmp_path_factory, "lisa/tiny.jsonnet", environment, '{"trainer.num_epochs": 20}')


@pytest.fixture(scope="module")
def bilinear_crf_archive(tmp_path_factory):
    """A tiny bilinear scorer over DeepAtt with a CRF and the predicate tagger, 30 epochs on the fixture."""
    return train_fixture_model(
        tmp_path_factory, "deepatt/bilinear_crf_predicate_identification.jsonnet", (), '{"trainer.num_epochs": 30}'
    )


def assert_same_labels(archive: str, requests: Optional[list[dict]] = None, min_arguments: int = 10) -> None:
    """The runtime's labels of `requests` (default: 20 fixture sentences, half with given predicates) are the
    allennlp predictor's, with more than `min_arguments` arguments among them."""
    requests = requests or dev_requests(20)
    mine = load(archive, precision="float32").label_tokenized(requests)
    theirs = srl_zoo.api.load(archive, batch_size=64, precision="float32").label_tokenized(requests)
    assert sum(len(s["frames"]) for s in theirs) > 10
    assert sum(len(f["arguments"]) for s in theirs for f in s["frames"]) >= min_arguments
    for sentence, other in zip(mine, theirs, strict=True):
        assert sentence["words"] == other["words"]
        assert len(sentence["frames"]) == len(other["frames"])
        for frame, expected in zip(sentence["frames"], other["frames"], strict=True):
            assert frame["tags"] == expected["tags"]
            assert frame["description"] == expected["description"]
            for part, expected_part in zip(
                [frame["predicate"], *frame["arguments"]], [expected["predicate"], *expected["arguments"]], strict=True
            ):
                assert {k: v for k, v in part.items() if k != "score"} == {
                    k: v for k, v in expected_part.items() if k != "score"
                }
                assert part["score"] == pytest.approx(expected_part["score"], abs=1e-4)


def test_deep_att_with_softmax_viterbi_and_the_predicate_tagger_labels_as_allennlp(predicate_model_archive):
    assert_same_labels(predicate_model_archive)


def test_the_bilinear_scorer_with_a_crf_labels_as_allennlp(bilinear_crf_archive):
    assert_same_labels(bilinear_crf_archive)


def test_lisa_with_its_joint_head_labels_as_allennlp_and_attends_to_given_heads(lisa_archive, monkeypatch):
    assert_same_labels(lisa_archive, min_arguments=0)
    requests = dev_requests(20)
    for index, request in enumerate(requests):
        if index % 3 == 0:  # every word attached to the first: a parse unlike the predicted one
            request["heads"] = [0] + [1] * (len(request["tokens"]) - 1)
    assert_same_labels(lisa_archive, requests, min_arguments=0)

    labeler = load(lisa_archive, precision="float32")
    encoder = labeler.model.frame_scorer.encoder
    seen = []
    encode = encoder.encode

    def recording_encode(inputs, mask, context=None):
        seen.append((context.dependency_heads, context.heads_given(inputs.size(0))))
        return encode(inputs, mask, context)

    monkeypatch.setattr(encoder, "encode", recording_encode)
    labeler.label_tokenized(requests[:2])
    heads, given = seen[-1]
    length = len(requests[0]["tokens"])
    assert given == [True, False]
    assert heads[0, :length].tolist() == requests[0]["heads"] and heads[1].tolist() == [0] * heads.size(1)


def test_a_part_outside_the_table_is_refused_naming_its_key_before_any_weight_is_read(bilinear_crf_archive, tmp_path):
    def lstm_encoder(config):
        config["model"]["frame_scorer"]["encoder"]["type"] = "lstm"

    archive = rewritten_archive(bilinear_crf_archive, str(tmp_path / "lstm.tar.gz"), lstm_encoder)
    with pytest.raises(NotCovered, match=r"model\.frame_scorer\.encoder\.type 'lstm' is not in the allennlp-free"):
        load(archive)


@pytest.mark.parametrize(
    "change",
    [{"tokenizer_kwargs": {"do_lower_case": False}}, {"max_length": 128}, {"type": "pretrained_transformer"}],
    ids=["a tokenizer setting", "another max_length than the embedder's", "another indexer"],
)
def test_a_transformer_archive_whose_words_are_split_otherwise_is_refused(change, tmp_path):
    """The runtime splits a transformer's words with `WordPieces`, cut at the embedder's `max_length`: an archive
    whose reader split them otherwise is handed to allennlp whole, not labeled differently."""
    shipped = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")

    def split_otherwise(config):
        config["dataset_reader"]["token_indexers"]["tokens"].update(change)

    archive = rewritten_archive(shipped, str(tmp_path / "otherwise.tar.gz"), split_otherwise)
    with pytest.raises(NotCovered, match=r"dataset_reader\.token_indexers\.tokens .* is not in the allennlp-free"):
        load(archive)


def test_an_archive_labels_without_widths_and_one_given_must_fit(bilinear_crf_archive, tmp_path):
    """Archives trained since widths follow the parts hold none (the runtime derives the encoder's from the
    embedder's); an earlier archive's width must be the one the scorer feeds."""
    trained: dict = {}
    rewritten_archive(bilinear_crf_archive, str(tmp_path / "as_trained.tar.gz"), lambda c: trained.update(c["model"]))
    assert trained["frame_scorer"]["encoder"]["type"] == "deep_att"
    assert "input_dim" not in trained["frame_scorer"]["encoder"]

    def given(width):
        def write(config):
            config["model"]["frame_scorer"]["encoder"]["input_dim"] = width

        return write

    assert_same_labels(rewritten_archive(bilinear_crf_archive, str(tmp_path / "fits.tar.gz"), given(12)))
    archive = rewritten_archive(bilinear_crf_archive, str(tmp_path / "wide.tar.gz"), given(99))
    message = r"config.json: model.frame_scorer.encoder.input_dim: 99, but the frame scorer feeds it 12 \(words 12\)"
    with pytest.raises(ArchiveError, match=message):
        load(archive)


def test_an_archive_of_an_earlier_version_labels_through_the_one_upgrade(bilinear_crf_archive, tmp_path):
    """The `crf` wrapper scorer of earlier versions (its config and its weights' names) is read by the runtime
    through the same upgrade as allennlp's loading, and labels as today's archive does."""
    old = as_wrapper_archive(bilinear_crf_archive, str(tmp_path / "old.tar.gz"))
    assert_same_labels(old)
    requests = dev_requests(20)
    today = load(bilinear_crf_archive, precision="float32").label_tokenized(requests)
    assert load(old, precision="float32").label_tokenized(requests) == today
