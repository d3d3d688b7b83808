"""Lemmas of predicates: spaCy's English lookup table (`spacy-lookups-data`, loaded once, lazily, from the
installed package: nothing is downloaded), checked against the frame files' aliases."""

import functools
from collections.abc import Callable, Container
from typing import Any, Protocol

from srl_zoo.dependencies import require


class LemmaTable(Protocol):
    """Word form → lemma (spaCy's `Table` keys its entries by the string's hash: look up with `get`)."""

    def get(self, key: str, default: Any = None) -> Any: ...


@functools.lru_cache(maxsize=1)
def english_lemma_table() -> LemmaTable:
    """spaCy's English `lemma_lookup` table (word form → lemma; about 42,000 forms)."""
    require("spacy_lookups_data", "lemmas of predicates (srl_zoo.frames)")
    from spacy.lookups import load_lookups

    return load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")


#: forms the table (which knows no part of speech) lemmatizes otherwise than a predicate reads: contractions
#: of copular `be` (the table says `'s` → `have`), and `does` (→ `doe`, the deer) and `done`
PREDICATE_FORMS = {
    "'s": "be",
    "’s": "be",
    "s": "be",
    "'re": "be",
    "’re": "be",
    "r": "be",
    "'m": "be",
    "’m": "be",
    "does": "do",
    "done": "do",
}


class Lemmatizer:
    """A predicate's word lemma: the lookup table's lemma of the word (or of its lowercase form), lowercased
    (`PREDICATE_FORMS` first); where that lemma names no roleset but the word itself does (a noun the table
    maps elsewhere), the word.

    # Parameters

    known : the words that name a roleset in the frame files (their aliases).
    table : word form → lemma (default spaCy's English lookup table, loaded when first needed).
    """

    def __init__(self, known: Container[str], table: Callable[[], LemmaTable] = english_lemma_table) -> None:
        self.known = known
        self._table = table

    def __call__(self, word: str) -> str:
        table = self._table()
        lowered = word.lower()
        if lowered in PREDICATE_FORMS:
            return PREDICATE_FORMS[lowered]
        lemma = (table.get(word) or table.get(lowered) or lowered).lower()
        if lemma not in self.known and lowered in self.known:
            return lowered
        return lemma
