"""An archive's graph read as data and refused unless it is what srl_zoo runs: standard ONNX operators only, any
external data inside the archive's folder, finite weights, and the inputs and outputs the manifest names."""

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from srl_zoo.archive_files import ArchiveError
from srl_zoo.graphs.contract import STANDARD_DOMAINS


def check_graph(archive: str, path: str, folder: str, inputs: Sequence[str], outputs: Sequence[str]) -> None:
    """`ArchiveError` naming `archive` and the graph unless the ONNX graph at `path` uses standard operator domains
    only, keeps its external data (if any) in files under `folder` (the archive's extracted folder), and has
    exactly `inputs` and `outputs`."""
    import onnx

    name = os.path.relpath(path, folder)
    try:
        model = onnx.load(path, load_external_data=False)
    except Exception as error:  # onnx's DecodeError and friends: not an ONNX graph
        raise ArchiveError(archive, f"{name}: not an ONNX graph ({type(error).__name__})") from None
    graphs = [model.graph]
    domains = {opset.domain for opset in model.opset_import}
    tensors = list(model.graph.initializer)
    while graphs:  # subgraphs (a Loop's or an If's body) too
        graph = graphs.pop()
        for node in graph.node:
            domains.add(node.domain)
            for attribute in node.attribute:
                graphs.extend([attribute.g] if attribute.HasField("g") else [])
                graphs.extend(attribute.graphs)
                tensors.extend([attribute.t] if attribute.HasField("t") else [])
        if graph is not model.graph:
            tensors.extend(graph.initializer)
    unknown = sorted(domains - STANDARD_DOMAINS)
    if unknown:
        raise ArchiveError(archive, f"{name}: operators of a non-standard domain {unknown[0]!r}: refused")
    for tensor in tensors:
        _check_location(archive, name, tensor, os.path.dirname(path), folder)
    mapped: dict[str, np.ndarray] = {}  # each external-data file mapped once
    for tensor in model.graph.initializer:  # the weights (a constant, e.g. a mask's -inf, may be infinite)
        _check_finite(archive, name, tensor, os.path.dirname(path), mapped)
    found = ([i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}],
             [o.name for o in model.graph.output])  # fmt: skip
    if found != (list(inputs), list(outputs)):
        raise ArchiveError(
            archive, f"{name}: inputs {found[0]} and outputs {found[1]}, not the {list(inputs)} and {list(outputs)} "
            "srl_zoo feeds and reads",
        )  # fmt: skip


def _check_location(archive: str, name: str, tensor: object, beside: str, folder: str) -> None:
    """`ArchiveError` when `tensor` keeps its data in a file (named relative to `beside`, the graph's folder)
    outside `folder`."""
    entries = {entry.key: entry.value for entry in getattr(tensor, "external_data", [])}
    if "location" not in entries:
        return
    location = entries["location"]
    root = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(beside, location))
    if os.path.isabs(location) or os.path.commonpath([root, target]) != root:
        raise ArchiveError(archive, f"{name}: external data {location!r} lies outside the archive: refused")


#: the floating-point ONNX element types a weight may have, as numpy reads them (`TensorProto`'s FLOAT, FLOAT16,
#: DOUBLE)
FLOAT_TYPES = {1: np.float32, 10: np.float16, 11: np.float64}


def _check_finite(archive: str, name: str, tensor: Any, beside: str, mapped: dict[str, np.ndarray]) -> None:
    """`ArchiveError` when the floating-point weight `tensor` (an ONNX `TensorProto`; its external data, already
    checked to lie inside the archive, named relative to `beside`, read through `mapped`: each file's bytes mapped
    once) holds a NaN or an infinity: the scores would not be numbers. A float32 sum is finite unless one is there
    (or it overflows: then every element is checked)."""
    dtype = FLOAT_TYPES.get(getattr(tensor, "data_type", 0))
    if dtype is None:
        return
    entries = {entry.key: entry.value for entry in getattr(tensor, "external_data", [])}
    if "location" in entries:
        location = os.path.join(beside, entries["location"])
        if location not in mapped:
            mapped[location] = np.memmap(location, dtype=np.uint8, mode="r")
        start, size = int(entries.get("offset", 0)), int(np.prod(tensor.dims)) * np.dtype(dtype).itemsize
        stored = mapped[location][start : start + size]
        if len(stored) != size:
            raise ArchiveError(archive, f"{name}: {tensor.name}'s external data ends before the tensor does")
        values = stored.view(dtype)
    else:
        from onnx import numpy_helper

        values = numpy_helper.to_array(tensor)
    if np.isfinite(values.sum(dtype=np.float32)) or np.isfinite(values).all():
        return
    raise ArchiveError(archive, f"{name}: {tensor.name} holds NaN or infinite values; its scores would not be numbers")
