"""An archive's graph is data: refused in one line naming the archive for an operator of a non-standard domain, an
external-data file outside the archive's folder, other inputs or outputs than srl_zoo's, or bytes that are no
graph; a standard graph passes."""

import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from srl_zoo.archive_files import ArchiveError
from srl_zoo.graphs.graph_check import check_graph

ARCHIVE = "model.tar.gz"


def write_graph(path: str, domain: str = "", external: str = "", inputs: tuple[str, ...] = ("x",)) -> None:
    """A graph `y = x + w` (or with its one node in `domain`, or `w` named as external data at `external`)."""
    weight = numpy_helper.from_array(np.ones(2, dtype=np.float32), "w")
    if external:
        weight.ClearField("raw_data")
        weight.data_location = TensorProto.EXTERNAL
        weight.external_data.add(key="location", value=external)
    node = helper.make_node("Add", ["x", "w"], ["y"], domain=domain)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(name, TensorProto.FLOAT, [2]) for name in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])], [weight],
    )  # fmt: skip
    opsets = [helper.make_opsetid("", 17)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    onnx.save(helper.make_model(graph, opset_imports=opsets), path)


def check(folder, name: str = "graphs/g.onnx", inputs=("x",)) -> None:
    check_graph(ARCHIVE, os.path.join(folder, name), str(folder), inputs, ("y",))


def test_a_standard_graph_passes_and_one_with_data_beside_it(tmp_path):
    (tmp_path / "graphs").mkdir()
    write_graph(str(tmp_path / "graphs" / "g.onnx"))
    check(tmp_path)
    np.ones(2, dtype=np.float32).tofile(tmp_path / "graphs" / "weights.bin")
    write_graph(str(tmp_path / "graphs" / "g.onnx"), external="weights.bin")
    check(tmp_path)


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_a_weight_that_is_no_number_is_refused_in_one_line(tmp_path, value):
    (tmp_path / "graphs").mkdir()
    np.array([1.0, value], dtype=np.float32).tofile(tmp_path / "graphs" / "weights.bin")
    write_graph(str(tmp_path / "graphs" / "g.onnx"), external="weights.bin")
    with pytest.raises(ArchiveError) as raised:
        check(tmp_path)
    assert (
        str(raised.value)
        == f"{ARCHIVE}: graphs/g.onnx: w holds NaN or infinite values; its scores would not be numbers"
    )


@pytest.mark.parametrize(
    ("domain", "external", "inputs", "message"),
    [
        ("com.microsoft", "", ("x",), "graphs/g.onnx: operators of a non-standard domain 'com.microsoft': refused"),
        ("", "../../outside.bin", ("x",), "graphs/g.onnx: external data '../../outside.bin' lies outside the archive"),
        ("", "/etc/passwd", ("x",), "graphs/g.onnx: external data '/etc/passwd' lies outside the archive"),
        ("", "", ("x", "z"), "graphs/g.onnx: inputs ['x', 'z'] and outputs ['y'], not the ['x'] and ['y'] srl_zoo"),
    ],
)
def test_a_graph_srl_zoo_would_not_run_is_refused_in_one_line(tmp_path, domain, external, inputs, message):
    (tmp_path / "graphs").mkdir()
    write_graph(str(tmp_path / "graphs" / "g.onnx"), domain, external, inputs)
    with pytest.raises(ArchiveError) as raised:
        check(tmp_path)
    assert str(raised.value).startswith(f"{ARCHIVE}: {message}")
    assert "\n" not in str(raised.value)


def test_a_link_out_of_the_folder_is_outside_too(tmp_path):
    (tmp_path / "graphs").mkdir()
    outside = tmp_path.parent / f"{tmp_path.name}-outside.bin"
    outside.write_bytes(b"\0" * 8)
    os.symlink(outside, tmp_path / "graphs" / "linked.bin")
    write_graph(str(tmp_path / "graphs" / "g.onnx"), external="linked.bin")
    with pytest.raises(ArchiveError, match="external data 'linked.bin' lies outside the archive"):
        check(tmp_path)


def test_bytes_that_are_no_graph_are_refused(tmp_path):
    (tmp_path / "graphs").mkdir()
    (tmp_path / "graphs" / "g.onnx").write_bytes(b"not a graph at all")
    with pytest.raises(ArchiveError, match=r"^model.tar.gz: graphs/g.onnx: not an ONNX graph"):
        check(tmp_path)
