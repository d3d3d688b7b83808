"""A frame's JSON with scores, arguments under `min_score` left out, and null kept as null in the output."""

import torch

from srl_zoo.data.formats.frame_json import FrameScores, frame_json, without_unsure_arguments
from srl_zoo.data.formats.json_values import json_values

WORDS = ["The", "committee", "approved", "it", "yesterday"]
TAGS = ["B-ARG0", "I-ARG0", "B-V", "B-ARG1", "B-ARGM-TMP"]


def test_scores_are_read_at_each_arguments_last_token():
    frame = frame_json(WORDS, 2, TAGS, "01", scores=FrameScores([0.1, 0.9, 0.99, 0.4, 0.7], 0.8))
    assert frame["predicate"]["score"] == 0.8
    assert [(a["role"], a["score"]) for a in frame["arguments"]] == [
        ("ARG0", 0.9),
        ("V", 0.99),
        ("ARG1", 0.4),
        ("ARGM-TMP", 0.7),
    ]
    assert "score" not in frame_json(WORDS, 2, TAGS)["arguments"][0]


def test_min_score_drops_unsure_arguments_from_arguments_tags_and_description_but_keeps_v():
    frame = frame_json(WORDS, 2, TAGS, scores=FrameScores([0.1, 0.9, 0.3, 0.4, 0.7]))
    kept = without_unsure_arguments(frame, WORDS, 0.5)
    assert [a["role"] for a in kept["arguments"]] == ["ARG0", "V", "ARGM-TMP"]
    assert kept["tags"] == ["B-ARG0", "I-ARG0", "B-V", "O", "B-ARGM-TMP"]
    assert kept["description"] == "[ARG0: The committee] [V: approved] it [ARGM-TMP: yesterday]"
    assert without_unsure_arguments(frame, WORDS, 0.0) is frame


def test_json_values_keep_null_and_plain_values():
    assert json_values({"a": None, "b": (1, torch.tensor(2.5)), "c": [None, "x"]}) == {
        "a": None,
        "b": [1, 2.5],
        "c": [None, "x"],
    }
