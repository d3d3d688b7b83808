"""Which of an archive's graphs label: float32 unless int8 is asked for by name, or `auto` finds the int8 graphs'
recorded F1 within 0.1 of float32's; None for a precision the graphs do not run."""

import pytest

from srl_zoo.graphs.graph_precision import GRAPH_F1_KEY, graph_precision

WITH_INT8 = {"graphs": {}, "int8_graphs": {}}


@pytest.mark.parametrize(
    ("requested", "manifest", "expected"),
    [
        ("float32", WITH_INT8, "float32"),
        ("int8", WITH_INT8, "int8"),
        ("int8", {"graphs": {}}, None),
        ("bfloat16", WITH_INT8, None),
        ("auto", WITH_INT8, "float32"),  # nothing recorded
        ("auto", WITH_INT8 | {GRAPH_F1_KEY: {"float32": 78.54, "int8": 78.50}}, "int8"),
        ("auto", WITH_INT8 | {GRAPH_F1_KEY: {"float32": 78.54, "int8": 78.43}}, "float32"),
        ("auto", WITH_INT8 | {GRAPH_F1_KEY: {"float32": 78.54, "int8": None}}, "float32"),
        ("auto", WITH_INT8 | {GRAPH_F1_KEY: {"float32": 78.54, "int8": "78.6"}}, "float32"),
        ("auto", {"graphs": {}, GRAPH_F1_KEY: {"float32": 78.54, "int8": 78.54}}, "float32"),
    ],
)
def test_the_graphs_precision(requested, manifest, expected):
    chosen = graph_precision(requested, manifest)
    assert (chosen and chosen.name) == expected
    assert chosen is None or chosen.reason
