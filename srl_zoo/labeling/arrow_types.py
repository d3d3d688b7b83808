"""Labeled sentences as Arrow types: what the Ray labeler's columns and a Ray run's Parquet outputs hold (the keys
of `srl_zoo.load`'s sentences; character offsets are null for given tokens).

The types are built on first use, when pyarrow (the `ray` extra) is imported: without it this module still imports,
as `--include-package srl_zoo` needs."""

from functools import cache
from typing import Any

#: what this module offers: Arrow types, and `LABELED_FIELDS`, the columns a labeled record adds to its input's
NAMES = ("PREDICATE_TYPE", "ARGUMENT_TYPE", "FRAME_TYPE", "SENTENCE_TYPE", "LABELED_FIELDS")


@cache
def _types() -> dict[str, Any]:
    """Each of `NAMES`: `pyarrow` struct types of a predicate, an argument, a frame and one labeled sentence, and the
    fields `sentences` (a list of those sentences) and `error` (a string, null where the record was labeled)."""
    import pyarrow as pa

    predicate = pa.struct(
        [
            ("index", pa.int32()),
            ("word", pa.string()),
            ("sense", pa.string()),
            ("score", pa.float64()),
            ("lemma", pa.string()),
            ("roleset", pa.string()),
            ("roleset_name", pa.string()),
            ("start_char", pa.int32()),
            ("end_char", pa.int32()),
        ]
    )
    argument = pa.struct(
        [
            ("role", pa.string()),
            ("start", pa.int32()),
            ("end", pa.int32()),
            ("text", pa.string()),
            ("score", pa.float64()),
            ("description", pa.string()),
            ("start_char", pa.int32()),
            ("end_char", pa.int32()),
        ]
    )
    frame = pa.struct(
        [
            ("predicate", predicate),
            ("tags", pa.list_(pa.string())),
            ("arguments", pa.list_(argument)),
            ("description", pa.string()),
        ]
    )
    sentence = pa.struct(
        [
            ("text", pa.string()),
            ("start_char", pa.int32()),
            ("end_char", pa.int32()),
            ("words", pa.list_(pa.string())),
            ("frames", pa.list_(frame)),
        ]
    )
    return {
        "PREDICATE_TYPE": predicate,
        "ARGUMENT_TYPE": argument,
        "FRAME_TYPE": frame,
        "SENTENCE_TYPE": sentence,
        "LABELED_FIELDS": (pa.field("sentences", pa.list_(sentence)), pa.field("error", pa.string())),
    }


def __getattr__(name: str) -> Any:
    """`SENTENCE_TYPE` and the others of `NAMES`, built on first use."""
    if name in NAMES:
        return _types()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
