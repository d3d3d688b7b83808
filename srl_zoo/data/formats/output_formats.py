"""The one table of output formats of labeled sentences, used by the predictor (`allennlp predict`,
`srl-zoo predict`, the Python API) and by `srl-zoo label`.

A labeled sentence here is the predictor's JSON: `{"words": [...], "frames": [{"predicate", "arguments",
"tags", ...}]}`. Each format says how one sentence looks in it (`reshape`, for the JSON formats) or which
text lines it becomes (`lines`, for the CoNLL formats); `render` writes sentences in a format.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional

from srl_zoo.data.formats.allennlp_models_json import allennlp_models_json
from srl_zoo.data.formats.conll2005 import conll2005_rows
from srl_zoo.data.formats.conll2009 import conll2009_rows
from srl_zoo.data.formats.frame_json import frame_from_output
from srl_zoo.data.formats.io_utils import pad_columns
from srl_zoo.data.formats.sentence import SrlSentence

Sentence = dict[str, Any]


def conll2009_lines(sentence: Sentence) -> list[str]:
    """CoNLL-2009 lines (tab-separated) of one labeled sentence; lemmas are the words."""
    frames = [frame_from_output(frame) for frame in sentence["frames"]]
    return ["\t".join(row) for row in conll2009_rows(SrlSentence(tokens=sentence["words"], frames=frames))]


def conll2005_lines(sentence: Sentence) -> list[str]:
    """CoNLL-2005 lines (word, target, props...) of one labeled sentence; the target is the word."""
    words = sentence["words"]
    frames = [frame_from_output(frame) for frame in sentence["frames"]]
    rows = conll2005_rows(SrlSentence(tokens=words, frames=frames), props_only=True)
    return pad_columns([[word] + row for word, row in zip(words, rows, strict=False)])


def _unchanged(sentence: Sentence) -> Sentence:
    return sentence


@dataclass(frozen=True)
class OutputFormat:
    """One output format. `reshape`: a sentence as this format's JSON gives it (the predictor returns
    that); `lines`: for a text format, the lines of one sentence (a blank line ends each), else None."""

    name: str
    reshape: Callable[[Sentence], Sentence] = _unchanged
    lines: Optional[Callable[[Sentence], list[str]]] = None


OUTPUT_FORMATS: dict[str, OutputFormat] = {
    "json": OutputFormat("json"),
    "allennlp_models": OutputFormat("allennlp_models", reshape=allennlp_models_json),
    "conll2005": OutputFormat("conll2005", lines=conll2005_lines),
    "conll2009": OutputFormat("conll2009", lines=conll2009_lines),
}


def output_format(name: str) -> OutputFormat:
    """The format called `name`; a ValueError listing the formats otherwise."""
    if name not in OUTPUT_FORMATS:
        raise ValueError(f"output format must be one of {tuple(OUTPUT_FORMATS)}, got {name!r}")
    return OUTPUT_FORMATS[name]


def render(sentences: list[Sentence], name: str, line: Optional[int] = None) -> str:
    """The text of labeled `sentences` in format `name`: a CoNLL block per sentence, or JSON: one line per
    sentence, or with `line` (srl-zoo label's records) one line `{"line": line, "sentences": [...]}`.
    The JSON formats take sentences as the predictor gives them before `reshape`."""
    chosen = output_format(name)
    if chosen.lines is not None:
        return "".join("\n".join(chosen.lines(sentence)) + "\n\n" for sentence in sentences)
    reshaped = [chosen.reshape(sentence) for sentence in sentences]
    if line is None:
        return "".join(json.dumps(sentence, ensure_ascii=False) + "\n" for sentence in reshaped)
    return json.dumps({"line": line, "sentences": reshaped}, ensure_ascii=False) + "\n"
