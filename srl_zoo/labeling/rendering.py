"""One output record of `srl-label` per input line, in any of its output formats."""

import json
from typing import Any

from srl_zoo.predictors.allennlp_models_format import allennlp_models_json
from srl_zoo.predictors.srl_predictor import conll2005_lines, conll2009_lines


def render_record(line_number: int, sentences: list[dict[str, Any]], output_format: str) -> bytes:
    """The UTF-8 record of one input line's labeled sentences (encoding inside, so that a record that
    cannot be written fails like any other labeling error of its line).

    # Parameters

    sentences : as `Labeler.__call__` gives them (or the predictor, for pre-tokenized input).
    output_format : `json` (`{"line", "sentences"}`), `allennlp_models`, `conll2005` or `conll2009`.
    """
    if output_format in ("conll2005", "conll2009"):
        lines = conll2005_lines if output_format == "conll2005" else conll2009_lines
        text = "".join("\n".join(lines(sentence)) + "\n\n" for sentence in sentences)
    else:
        if output_format == "allennlp_models":
            sentences = [allennlp_models_json(sentence) for sentence in sentences]
        text = json.dumps({"line": line_number, "sentences": sentences}, ensure_ascii=False) + "\n"
    return text.encode("utf-8")
