"""The one table of output formats: each format's text reads back with the project's reader, the JSON
records keep the line number and non-ASCII text as it is, and an unknown format is refused by name."""

import json

import pytest

from srl_zoo.data.formats import READERS
from srl_zoo.data.formats.frame_json import frame_json
from srl_zoo.data.formats.output_formats import OUTPUT_FORMATS, render

WORDS = ["Zoë", "sold", "it", "yesterday"]
WORD_TARGET_PROPS = {"word": 0, "pos": None, "parse": None, "named_entities": None, "target": 1, "first_props": 2}
# as the predictor gives it
SENTENCE = {"words": WORDS, "frames": [frame_json(WORDS, 1, ["B-ARG0", "B-V", "B-ARG1", "B-ARGM-TMP"], sense="01")]}


def test_the_conll2005_rendering_reads_back_as_the_same_frames(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text(render([SENTENCE, SENTENCE], "conll2005"), encoding="utf-8")
    sentences = list(READERS["conll2005"](str(path), columns=WORD_TARGET_PROPS))
    assert len(sentences) == 2
    assert [(s.label, s.start, s.end) for s in sentences[1].frames[0].arguments] == [
        ("ARG0", 0, 0),
        ("V", 1, 1),
        ("ARG1", 2, 2),
        ("ARGM-TMP", 3, 3),
    ]


def test_json_records_carry_the_line_and_keep_non_ascii_text():
    record = render([SENTENCE], "json", line=7)
    assert record.endswith("\n") and record.count("\n") == 1 and "Zoë" in record
    assert json.loads(record) == {"line": 7, "sentences": [SENTENCE]}
    assert [json.loads(line) for line in render([SENTENCE, SENTENCE], "json").splitlines()] == [SENTENCE] * 2


def test_the_allennlp_models_format_reshapes_each_sentence():
    (sentence,) = json.loads(render([SENTENCE], "allennlp_models", line=1))["sentences"]
    assert sentence == OUTPUT_FORMATS["allennlp_models"].reshape(SENTENCE)
    assert sentence["verbs"][0]["description"] == "[ARG0: Zoë] [V: sold] [ARG1: it] [ARGM-TMP: yesterday]"


def test_an_unknown_format_is_refused_with_the_formats_named():
    with pytest.raises(ValueError, match=r"output format must be one of \('json', 'allennlp_models', 'conll2005'"):
        render([SENTENCE], "xml")
