"""Labeled sentences as Arrow types: what the Ray labeler's columns and a Ray run's Parquet outputs hold (the keys
of `srl_zoo.load`'s sentences; character offsets are null for given tokens)."""

import pyarrow as pa

PREDICATE_TYPE = pa.struct(
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
ARGUMENT_TYPE = pa.struct(
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
FRAME_TYPE = pa.struct(
    [
        ("predicate", PREDICATE_TYPE),
        ("tags", pa.list_(pa.string())),
        ("arguments", pa.list_(ARGUMENT_TYPE)),
        ("description", pa.string()),
    ]
)
#: one labeled sentence
SENTENCE_TYPE = pa.struct(
    [
        ("text", pa.string()),
        ("start_char", pa.int32()),
        ("end_char", pa.int32()),
        ("words", pa.list_(pa.string())),
        ("frames", pa.list_(FRAME_TYPE)),
    ]
)
