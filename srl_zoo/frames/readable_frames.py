"""The readable keys of a labeled frame: the predicate's `lemma`, `roleset` and `roleset_name`, and each
argument's `description` (what its role means in that roleset)."""

import functools
import re
from collections.abc import Callable
from typing import Any, Optional

from srl_zoo.data.formats.labels import normalize_label
from srl_zoo.frames.lemmas import Lemmatizer
from srl_zoo.frames.rolesets import Roleset, Rolesets, bundled_rolesets

#: readable names of PropBank's modifier roles (PropBank guidelines), where a roleset does not name its own
MODIFIER_NAMES = {
    "ADJ": "adjectival",
    "ADV": "adverbial",
    "CAU": "cause",
    "COM": "comitative",
    "CXN": "construction",
    "DIR": "direction",
    "DIS": "discourse",
    "DSP": "direct speech",
    "EXT": "extent",
    "GOL": "goal",
    "LOC": "location",
    "LVB": "light verb",
    "MNR": "manner",
    "MOD": "modal",
    "NEG": "negation",
    "PNC": "purpose",
    "PRD": "secondary predication",
    "PRP": "purpose",
    "PRR": "predicating relation",
    "REC": "reciprocal",
    "TMP": "temporal",
}
#: `C-`/`R-` prefixes and a `-DSP`-like suffix around the role a description is looked up for
_ROLE = re.compile(r"^(?:[CR]-)?(ARG[0-9A](?=$|-)|ARGM-[A-Z]+)")


def role_description(role: str, roleset: Optional[Roleset]) -> Optional[str]:
    """What `role` (any spelling: `ARG0`, `A0`, `R-ARG1`, `AM-TMP`) means: the roleset's description of
    its numbered role, the roleset's or PropBank's name of a modifier; None where neither says."""
    match = _ROLE.match(normalize_label(role, "propbank"))
    if match is None:
        return None
    core = match.group(1)
    if roleset is not None and core in roleset.roles and roleset.roles[core]:
        return roleset.roles[core]
    if core.startswith("ARGM-"):
        return MODIFIER_NAMES.get(core[len("ARGM-") :])
    return None


class ReadableFrames:
    """Adds the readable keys to frames as the `srl` predictor gives them (`{"predicate": {"index", "word",
    "sense"?}, "arguments": [{"role", ...}], ...}`), for English.

    # Parameters

    rolesets : the frame files' rolesets (default the bundled table, read when first needed).
    lemmatize : word → lemma (default spaCy's English lookup table checked against the rolesets' words).
    """

    def __init__(self, rolesets: Optional[Rolesets] = None, lemmatize: Optional[Callable[[str], str]] = None) -> None:
        self._rolesets = rolesets
        self._lemmatize = lemmatize

    @property
    def rolesets(self) -> Rolesets:
        if self._rolesets is None:
            self._rolesets = bundled_rolesets()
        return self._rolesets

    def word_lemma(self, word: str) -> str:
        """The word's own lemma (`approval`)."""
        if self._lemmatize is None:
            self._lemmatize = Lemmatizer(self.rolesets)
        return self._lemmatize(word)

    def frame(self, frame: dict[str, Any]) -> dict[str, Any]:
        """The frame with `lemma`, `roleset`, `roleset_name` on its predicate and `description` on each
        argument. `lemma` is the predicate lemma as PropBank (and CoNLL-2012's lemma column) gives it: the
        lemma of the roleset the word names (`approval` → `approve`), else the word's own lemma. `roleset`
        is `lemma.sense` when the model gave a sense (the frame files' id where a word of the predicate
        names one with that sense: `approval` → `approve.01`), else null; `roleset_name` and numbered roles'
        descriptions are null where the frame files do not list the roleset."""
        predicate = dict(frame["predicate"])
        word_lemma = self.word_lemma(predicate["word"])
        sense = predicate.get("sense")
        found = self.rolesets.find(sense, word_lemma, predicate["word"]) if sense else None
        named = [found.id] if found else self.rolesets.named_by(word_lemma, predicate["word"])
        lemma = named[0].rsplit(".", 1)[0] if named else word_lemma
        predicate["lemma"] = lemma
        predicate["roleset"] = found.id if found else (f"{lemma}.{sense}" if sense else None)
        predicate["roleset_name"] = found.name if found else None
        arguments = [
            {**argument, "description": role_description(argument["role"], found)} for argument in frame["arguments"]
        ]
        return {**frame, "predicate": predicate, "arguments": arguments}

    def sentence(self, sentence: dict[str, Any]) -> dict[str, Any]:
        """One sentence's output (`{"words", "frames", ...}`) with every frame made readable."""
        return {**sentence, "frames": [self.frame(frame) for frame in sentence["frames"]]}


@functools.lru_cache(maxsize=1)
def _bundled_lemmatizer() -> Lemmatizer:
    return Lemmatizer(bundled_rolesets())


def frame_file_senses(word: str) -> list[str]:
    """The sense suffixes of the rolesets that `word` (or its lemma) names in the bundled frame files, in the
    frame files' order (`approval` → `["01"]`, via `approve.01`)."""
    return bundled_rolesets().senses(_bundled_lemmatizer()(word), word)
