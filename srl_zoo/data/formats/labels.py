"""Label spellings: argument labels in PropBank (`ARG0`, `ARGM-TMP`) vs CoNLL-2005 (`A0`, `AM-TMP`)
style, and the per-token predicate labels of predicate identification."""

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from srl_zoo.data.formats.sentence import SrlFrame

LABEL_CONVENTIONS = ("conll2005", "propbank")


def prefix_and_core(label: str) -> tuple[str, str]:
    """A label's `C-`/`R-` prefix (or "") and the rest: `C-ARG1-DSP` -> (`C-`, `ARG1-DSP`)."""
    prefix = label[:2] if label[:2] in ("C-", "R-") else ""
    return prefix, label[len(prefix) :]


def _to_conll2005(core: str) -> str:
    if core.startswith("ARGM-"):
        return "AM-" + core[len("ARGM-") :]
    if core.startswith("ARG"):
        return "A" + core[len("ARG") :]
    return core


def _to_propbank(core: str) -> str:
    if core.startswith("AM-"):
        return "ARGM-" + core[len("AM-") :]
    if re.match(r"^A[0-9A]", core):
        return "ARG" + core[1:]
    return core


def normalize_label(label: str, convention: Optional[str]) -> str:
    """Respell `label` in `convention` (`"conll2005"`, `"propbank"` or `None` to keep it).

    `C-`/`R-` prefixes and suffixes such as `-DSP` are kept: `C-ARG1-DSP` <-> `C-A1-DSP`.
    """
    if convention is None:
        return label
    if convention not in LABEL_CONVENTIONS:
        raise ValueError(f"label_convention must be one of {LABEL_CONVENTIONS} or null, got {convention!r}")
    prefix, core = prefix_and_core(label)
    if convention == "conll2005":
        return prefix + _to_conll2005(core)
    return prefix + _to_propbank(core)


def convention_of(labels: Iterable[str]) -> Optional[str]:
    """The spelling of argument labels (`ARG0`, `C-ARGM-TMP`: `"propbank"`; `A0`, `AM-TMP`:
    `"conll2005"`), None when no label shows it."""
    cores = [prefix_and_core(label)[1] for label in labels]
    if any(core.startswith("ARG") for core in cores):
        return "propbank"
    if any(re.match(r"^(A[0-9A]|AM-)", core) for core in cores):
        return "conll2005"
    return None


NOT_A_PREDICATE = "-"  # the predicate-identification label of a token that is no predicate
#: what a model without a predicate head says of a sentence given without its predicates (the torch network and the
#: inference graphs alike)
NO_PREDICATE_HEAD = "this model has no predicate identification head: give the predicates with each sentence"
NO_SENSE = "Y"  # ... of a predicate in data without senses (CoNLL-2005)


def predicate_label(frame: "SrlFrame") -> str:
    """The predicate-identification label of a frame's token: its sense suffix (`01`, `LV`) or `Y`."""
    if frame.sense and "." in frame.sense:
        return frame.sense.rsplit(".", 1)[1]
    return NO_SENSE
