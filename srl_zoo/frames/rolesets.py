"""PropBank's rolesets as srl_zoo bundles them (`propbank_frames.json.gz`, built by `build_table` from the
frame files; CC BY-SA 4.0): which rolesets a word names, and what each roleset and its roles mean."""

import functools
import gzip
import json
from pathlib import Path
from typing import Any, NamedTuple, Optional

#: the bundled table (its source commit and licence in `SOURCE.md` beside it)
BUNDLED_TABLE = Path(__file__).with_name("propbank_frames.json.gz")


class Roleset(NamedTuple):
    """One roleset: `approve.01`, its name ("assent to") and its roles (`ARG0` → "approver")."""

    id: str
    name: str
    roles: dict[str, str]

    @property
    def sense(self) -> str:
        """The sense suffix: `01` of `approve.01`."""
        return self.id.rsplit(".", 1)[-1]


class Rolesets:
    """The rolesets of the frame files, looked up by the words (lemmas and aliases) that name them.

    # Parameters

    table : `{"rolesets": {id: {"name", "roles"}}, "aliases": {word: [ids]}, "source": {...}}`.
    """

    def __init__(self, table: dict[str, Any]) -> None:
        self.rolesets: dict[str, dict[str, Any]] = table["rolesets"]
        self.aliases: dict[str, list[str]] = table["aliases"]
        self.source: dict[str, str] = table.get("source", {})

    @classmethod
    def read(cls, path: Path) -> "Rolesets":
        """The table of a `build_table` output; `ValueError` naming the file when it is not one."""
        try:
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                table = json.load(handle)
            return cls(table)
        except (OSError, EOFError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}: not a rolesets table ({error})") from None

    def named_by(self, *words: str) -> list[str]:
        """The ids of the rolesets the words name (each word's own first, in the frame files' order)."""
        found: list[str] = []
        for word in words:
            for roleset_id in self.aliases.get(word.lower(), []):
                if roleset_id not in found:
                    found.append(roleset_id)
        return found

    def __contains__(self, word: object) -> bool:
        """Whether `word` names some roleset (a predicate lemma or an alias)."""
        return isinstance(word, str) and word in self.aliases

    def get(self, roleset_id: str) -> Optional[Roleset]:
        """The roleset of an id such as `approve.01`, or None."""
        entry = self.rolesets.get(roleset_id)
        return None if entry is None else Roleset(roleset_id, entry["name"], entry["roles"])

    def find(self, sense: str, *words: str) -> Optional[Roleset]:
        """The first roleset the words name whose sense suffix is `sense` (`01`), or None."""
        for roleset_id in self.named_by(*words):
            if roleset_id.rsplit(".", 1)[-1] == sense:
                return self.get(roleset_id)
        return None

    def senses(self, *words: str) -> list[str]:
        """The sense suffixes of the rolesets the words name (`["01", "02"]`), in order, once each."""
        return list(dict.fromkeys(roleset_id.rsplit(".", 1)[-1] for roleset_id in self.named_by(*words)))


@functools.lru_cache(maxsize=1)
def bundled_rolesets() -> Rolesets:
    """The bundled table, read once when first needed."""
    return Rolesets.read(BUNDLED_TABLE)
