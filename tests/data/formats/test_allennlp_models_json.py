"""allennlp-models-compatible output: `{"verbs": [{"verb", "description", "tags"}], "words"}`."""

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from srl_zoo.data.formats.allennlp_models_json import allennlp_models_json, propbank_tag

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

WORDS = ["The", "cat", "that", "sat", "on", "the", "mat", "purred", "loudly", "."]


def test_a_hand_checked_sentence():
    # the frames as srl_zoo's `srl` predictor gives them for a CoNLL-2005-trained model (A0, AM-LOC, R-A0)
    ours = {
        "words": WORDS,
        "frames": [
            {
                "predicate": {"index": 3, "word": "sat"},
                "tags": ["B-A0", "I-A0", "B-R-A0", "B-V", "B-AM-LOC", "I-AM-LOC", "I-AM-LOC", "O", "O", "O"],
            },
            {
                "predicate": {"index": 7, "word": "purred"},
                "tags": ["B-A0", "I-A0", "I-A0", "I-A0", "I-A0", "I-A0", "I-A0", "B-V", "B-AM-MNR", "O"],
            },
        ],
    }
    # what allennlp-models' semantic_role_labeling predictor writes for these tags
    expected = {
        "verbs": [
            {
                "verb": "sat",
                "description": "[ARG0: The cat] [R-ARG0: that] [V: sat] [ARGM-LOC: on the mat] purred loudly .",
                "tags": [
                    "B-ARG0",
                    "I-ARG0",
                    "B-R-ARG0",
                    "B-V",
                    "B-ARGM-LOC",
                    "I-ARGM-LOC",
                    "I-ARGM-LOC",
                    "O",
                    "O",
                    "O",
                ],
            },
            {
                "verb": "purred",
                "description": "[ARG0: The cat that sat on the mat] [V: purred] [ARGM-MNR: loudly] .",
                "tags": [
                    "B-ARG0",
                    "I-ARG0",
                    "I-ARG0",
                    "I-ARG0",
                    "I-ARG0",
                    "I-ARG0",
                    "I-ARG0",
                    "B-V",
                    "B-ARGM-MNR",
                    "O",
                ],
            },
        ],
        "words": WORDS,
    }
    assert allennlp_models_json(ours) == expected


def test_tags_already_in_propbank_spelling_are_kept():
    assert [propbank_tag(t) for t in ["O", "B-ARG1", "I-C-ARG1", "B-ARGM-TMP", "B-C-A1", "B-V"]] == [
        "O",
        "B-ARG1",
        "I-C-ARG1",
        "B-ARGM-TMP",
        "B-C-ARG1",
        "B-V",
    ]


def test_predictor_output_format(predicate_model_archive):
    predictor = Predictor.from_archive(
        load_archive(predicate_model_archive), "srl", extra_args={"output_format": "allennlp_models"}
    )
    result = predictor.predict_json({"tokens": WORDS, "predicates": [3, 7]})
    assert set(result) == {"verbs", "words"} and result["words"] == WORDS
    assert [verb["verb"] for verb in result["verbs"]] == ["sat", "purred"]
    for verb in result["verbs"]:
        assert len(verb["tags"]) == len(WORDS) and all(t == "O" or t[:2] in ("B-", "I-") for t in verb["tags"])
        assert not any(t[2:].startswith(("A0", "AM-")) for t in verb["tags"])  # PropBank spelling only
