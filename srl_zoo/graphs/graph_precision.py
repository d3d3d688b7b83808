"""Which of an archive's inference graphs label: float32, or int8 where the archive has int8 graphs and asks for
them by name or (`auto`) records their F1 within `F1_TOLERANCE` of the float32 graphs' on the data it was measured
on (`srl-zoo export --graphs --measure-precision`). The choice reads the archive alone: the same archive gives the
same graphs on every machine."""

from collections.abc import Mapping
from typing import Any, NamedTuple, Optional

from srl_zoo.archive_settings import F1_TOLERANCE, keeps_f1

#: the manifest's key of the F1 per precision of its graphs (`{"float32": F1, "int8": F1, "sentences": n}`)
GRAPH_F1_KEY = "f1_per_precision"
#: the manifest's key of the graphs of each precision
PRECISION_GRAPHS = {"float32": "graphs", "int8": "int8_graphs"}


class GraphPrecision(NamedTuple):
    """The graphs' precision (`float32` or `int8`) and why."""

    name: str
    reason: str


def graph_precision(requested: str, manifest: Mapping[str, Any]) -> Optional[GraphPrecision]:
    """The precision of the graphs of `manifest` that label for a `requested` precision (`auto`, `float32`,
    `int8`), None where these graphs do not run it (`bfloat16`, or `int8` without int8 graphs)."""
    has_int8 = isinstance(manifest.get(PRECISION_GRAPHS["int8"]), dict)
    if requested == "float32":
        return GraphPrecision("float32", "asked for: the archive's float32 inference graphs, run by ONNX Runtime")
    if requested == "int8":
        return GraphPrecision("int8", "asked for: the archive's int8 inference graphs") if has_int8 else None
    if requested != "auto":
        return None
    if has_int8 and keeps_f1(manifest.get(GRAPH_F1_KEY), "int8"):
        return GraphPrecision(
            "int8", f"auto: the archive records its int8 inference graphs within {F1_TOLERANCE} F1 of float32"
        )
    return GraphPrecision(
        "float32", f"auto: the archive's float32 inference graphs (no int8 ones recorded within {F1_TOLERANCE} F1)"
    )
