"""allennlp-models' `semantic_role_labeling` output, so that code written against it keeps working:
`{"words": [...], "verbs": [{"verb", "description", "tags"}]}` with PropBank spellings (`ARG0`,
`ARGM-TMP`, `R-ARG0`, `C-ARG1`) in the BIO tags and the description."""

from typing import Any

from srl_zoo.data.formats import bio_to_spans
from srl_zoo.data.formats.labels import normalize_label
from srl_zoo.data.formats.rendering import describe


def propbank_tag(tag: str) -> str:
    """A BIO tag respelled as allennlp-models writes it: `B-A0` -> `B-ARG0`, `I-AM-TMP` -> `I-ARGM-TMP`."""
    if tag == "O" or "-" not in tag:
        return tag
    position, label = tag.split("-", 1)
    return f"{position}-{normalize_label(label, 'propbank')}"


def allennlp_models_json(result: dict[str, Any]) -> dict[str, Any]:
    """One sentence of the `srl` predictor's output (`words`, `frames`) as allennlp-models gives it."""
    words: list[str] = result["words"]
    verbs = []
    for frame in result["frames"]:
        tags = [propbank_tag(tag) for tag in frame["tags"]]
        verbs.append(
            {"verb": frame["predicate"]["word"], "description": describe(words, bio_to_spans(tags)), "tags": tags}
        )
    return {"verbs": verbs, "words": words}
