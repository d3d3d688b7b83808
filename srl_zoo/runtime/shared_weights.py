"""The graphs' weights read from the archive's own `weights.th`, stored once: a torch weights file is a zip whose
tensors are stored uncompressed, so a graph's initializer that is one of them in float16 becomes ONNX external data
at that tensor's offset in `weights.th` (beside the graph), cast to float32 inside the graph (and transposed there,
where it is a stored matrix's transpose: a product's weight in a graph whose constants were folded). (`onnx`, an
optional extra, is imported where a graph is rewritten.)"""

import hashlib
import os
import struct
import zipfile
from typing import Any, Optional

import numpy as np

#: a zip entry's local header: 30 bytes, the name's and the extra field's lengths at 26 and 28
LOCAL_HEADER = struct.Struct("<4s22xHH")
#: the suffix of a float16 initializer that a graph casts to the float32 one it names
FLOAT16_SUFFIX = "::float16"
#: the suffix of the float32 matrix a graph transposes into the one it names (a folded product's weight)
TRANSPOSED_SUFFIX = "::transposed"


def stored_tensors(weights: str) -> dict[str, tuple[int, int]]:
    """Each tensor storage of the torch weights file `weights`, by the SHA-256 of its bytes: `(offset, length)` of
    those bytes in the file."""
    found = {}
    with zipfile.ZipFile(weights) as archive, open(weights, "rb") as handle:
        for entry in archive.infolist():
            if "/data/" not in entry.filename or entry.compress_type != zipfile.ZIP_STORED:
                continue
            handle.seek(entry.header_offset)
            _, name_length, extra_length = LOCAL_HEADER.unpack(handle.read(LOCAL_HEADER.size))
            offset = entry.header_offset + LOCAL_HEADER.size + name_length + extra_length
            handle.seek(offset)
            found[hashlib.sha256(handle.read(entry.file_size)).hexdigest()] = (offset, entry.file_size)
    return found


def share_weights(graph_path: str, weights: str, stored: dict[str, tuple[int, int]]) -> int:
    """Rewrite the graph at `graph_path` so that each float32 initializer whose float16 rounding is exact and is a
    tensor of `weights` (`stored_tensors`), or a stored matrix's transpose, is read from there; the bytes still
    embedded in the graph."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(graph_path)
    kept, casts = [], []
    location = os.path.basename(weights)
    for tensor in model.graph.initializer:
        shared = _shared(tensor, stored) if tensor.data_type == TensorProto.FLOAT else None
        if shared is None:
            kept.append(tensor)
            continue
        (offset, length), transposed = shared
        dims = list(reversed(tensor.dims)) if transposed else list(tensor.dims)
        half = TensorProto(name=tensor.name + FLOAT16_SUFFIX, data_type=TensorProto.FLOAT16, dims=dims)
        half.data_location = TensorProto.EXTERNAL
        for key, value in (("location", location), ("offset", str(offset)), ("length", str(length))):
            half.external_data.add(key=key, value=value)
        kept.append(half)
        cast = tensor.name + TRANSPOSED_SUFFIX if transposed else tensor.name
        casts.append(helper.make_node("Cast", [half.name], [cast], to=TensorProto.FLOAT))
        if transposed:  # a product's folded weight: the stored matrix turned
            casts.append(helper.make_node("Transpose", [cast], [tensor.name], perm=[1, 0]))
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    nodes = [*casts, *model.graph.node]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    onnx.save(model, graph_path)
    return sum(len(t.raw_data) for t in kept if t.data_location != TensorProto.EXTERNAL)


def _shared(tensor: Any, stored: dict[str, tuple[int, int]]) -> Optional[tuple[tuple[int, int], bool]]:
    """Where `tensor`'s (an ONNX `TensorProto`) float16 bytes are stored, or those of its transpose (a matrix), and
    whether they are the transpose's, where its values are exactly float16 ones and stored."""
    from onnx import numpy_helper

    values = numpy_helper.to_array(tensor)
    half = values.astype(np.float16)
    if values.size < 2 or not np.array_equal(half.astype(np.float32), values):
        return None
    for transposed, form in ((False, half), (True, half.T if half.ndim == 2 else None)):
        if form is None:
            continue
        found = stored.get(hashlib.sha256(np.ascontiguousarray(form).astype("<f2").tobytes()).hexdigest())
        if found is not None:
            return found, transposed
    return None
