"""A graph's weights read from a torch weights file: each initializer that is one of its tensors in float16 becomes
external data at that tensor's offset (the session gives the same values), and one that is not stays in the graph."""

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

from srl_zoo.graphs.engine import graph_session
from srl_zoo.runtime.shared_weights import share_weights, stored_tensors


def test_stored_weights_are_read_from_the_file_and_others_stay(tmp_path):
    rng = np.random.default_rng(0)
    shared = rng.normal(size=(3, 4)).astype(np.float16).astype(np.float32)  # exactly float16 values
    other = rng.normal(size=(3, 4)).astype(np.float32)  # not stored: stays in the graph
    torch.save({"a.weight": torch.from_numpy(shared).half(), "b": torch.zeros(2)}, tmp_path / "weights.th")
    nodes = [helper.make_node("Add", ["x", "shared"], ["y0"]), helper.make_node("Add", ["y0", "other"], ["y"])]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
        [numpy_helper.from_array(shared, "shared"), numpy_helper.from_array(other, "other")],
    )  # fmt: skip
    path = str(tmp_path / "graph-test.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    embedded = share_weights(path, str(tmp_path / "weights.th"), stored_tensors(str(tmp_path / "weights.th")))
    assert embedded == other.nbytes
    written = onnx.load(path, load_external_data=False)
    external = [t for t in written.graph.initializer if t.data_location == TensorProto.EXTERNAL]
    assert [(t.name, {e.key: e.value for e in t.external_data}["location"]) for t in external] == [
        ("shared::float16", "weights.th")
    ]
    x = rng.normal(size=(3, 4)).astype(np.float32)
    (y,) = graph_session(path, 1).run(None, {"x": x})
    np.testing.assert_array_equal(y, x + shared + other)


def test_a_folded_products_transposed_weight_is_read_from_the_stored_matrix(tmp_path):
    rng = np.random.default_rng(1)
    stored = rng.normal(size=(3, 4)).astype(np.float16)  # a Linear's (out, in) weight
    torch.save({"linear.weight": torch.from_numpy(stored)}, tmp_path / "weights.th")
    folded = stored.astype(np.float32).T.copy()  # what a folded graph multiplies by: (in, out)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "folded"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])], [numpy_helper.from_array(folded, "folded")],
    )  # fmt: skip
    path = str(tmp_path / "graph-test.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    assert share_weights(path, str(tmp_path / "weights.th"), stored_tensors(str(tmp_path / "weights.th"))) == 0
    written = onnx.load(path, load_external_data=False)
    assert [list(t.dims) for t in written.graph.initializer] == [[3, 4]]
    x = rng.normal(size=(2, 4)).astype(np.float32)
    (y,) = graph_session(path, 1).run(None, {"x": x})
    np.testing.assert_allclose(y, x @ folded, rtol=1e-6, atol=1e-6)
