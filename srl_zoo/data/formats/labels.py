"""Argument label spellings: PropBank (`ARG0`, `ARGM-TMP`) vs CoNLL-2005 (`A0`, `AM-TMP`)."""
import re
from typing import Optional

LABEL_CONVENTIONS = ("conll2005", "propbank")

_PREFIX = re.compile(r"^((?:[CR]-)?)(.*)$")


def _to_conll2005(core: str) -> str:
    if core.startswith("ARGM-"):
        return "AM-" + core[len("ARGM-"):]
    if core.startswith("ARG"):
        return "A" + core[len("ARG"):]
    return core


def _to_propbank(core: str) -> str:
    if core.startswith("AM-"):
        return "ARGM-" + core[len("AM-"):]
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
        raise ValueError(
            f"label_convention must be one of {LABEL_CONVENTIONS} or null, got {convention!r}"
        )
    prefix, core = _PREFIX.match(label).groups()  # type: ignore[union-attr]
    if convention == "conll2005":
        return prefix + _to_conll2005(core)
    return prefix + _to_propbank(core)
