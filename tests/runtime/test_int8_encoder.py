"""Precision int8 in the runtime: the transformer's ONNX graph (in float32 the eager transformer's vectors; in int8
close to them), kept per archive and read back, and a labeler that labels the fixture mostly as float32 does."""

import importlib.util
import os

import pytest
import torch

import srl_zoo.archive_cache as archive_cache
from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.runtime import int8_encoder, onnx_encoder, openvino_encoder
from srl_zoo.runtime.labeler import RuntimeLabeler, load
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # exports a transformer to ONNX

SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
GOLD = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
SENTENCES = [["The", "cat", "sat", "."], ["Bush", "nominated", "two", "judges", "to", "the", "supreme", "court", "."]]


def test_the_float32_graph_gives_the_eager_transformers_vectors(tmp_path):
    words = load(SHIPPED, precision="float32").model.embedder
    pieces = words.prepare(SENTENCES)
    ids, attention = torch.from_numpy(pieces.ids), torch.from_numpy(pieces.attention_mask)
    real = attention
    with torch.inference_mode():
        eager = words.transformer(ids, attention)
        graph = onnx_encoder.onnx_encoder(words.transformer, "float32", threads=1, folder=str(tmp_path))
        torch.testing.assert_close(graph(ids, attention)[real], eager[real], atol=1e-4, rtol=1e-4)
        try:
            int8 = onnx_encoder.onnx_encoder(words.transformer, "int8", threads=1, folder=str(tmp_path))
        except onnx_encoder.EngineUnavailable as error:  # an ONNX Runtime without 8-bit kernels for this CPU
            assert str(error).startswith("ONNX Runtime cannot run the int8 graph on this CPU: ")
            return
        difference = (int8(ids, attention)[real] - eager[real]).abs()
    assert 0 < difference.mean() < 0.1 * eager[real].abs().mean()  # quantized, and close
    assert sorted(os.listdir(tmp_path)) == sorted(onnx_encoder.GRAPH_NAMES.values())
    with pytest.raises(ValueError, match="ONNX Runtime precision 'int4' is not one of"):
        onnx_encoder.onnx_encoder(words.transformer, "int4", threads=1)


@pytest.mark.parametrize("engine", int8_encoder.INT8_ENGINES)
def test_int8_labels_the_fixture_mostly_as_float32_and_keeps_its_graph(tmp_path, monkeypatch, engine):
    """Each engine (both are in the lock) runs the same kept graph, close to float32."""
    monkeypatch.setenv("SRL_ZOO_CACHE", str(tmp_path))
    float32 = list(load(SHIPPED, precision="float32", readable_frames=False).label_file(GOLD))
    try:
        labeler = load(SHIPPED, precision="int8", readable_frames=False, int8_engine=engine)
    except ValueError as error:  # an ONNX Runtime without 8-bit kernels for this CPU says so in one line
        assert "precision int8: ONNX Runtime cannot run the int8 graph on this CPU" in str(error)
        return
    int8 = list(labeler.label_file(GOLD))
    assert labeler.precision == "int8" and labeler.precision_reason == "int8 as asked"
    from srl_zoo.nn.precision import cpu_has_fast_bfloat16

    assert labeler.autocast_bfloat16 == cpu_has_fast_bfloat16()  # the rest in bfloat16 where the CPU has it
    tags = [
        (f["tags"], g["tags"])
        for s, t in zip(int8, float32, strict=True)
        for f, g in zip(s["frames"], t["frames"], strict=False)
    ]
    same = sum(a == b for pair in tags for a, b in zip(*pair, strict=True))
    assert len(tags) == sum(len(s.frames) for s in READERS[detect_format(GOLD)](GOLD))
    assert same >= 0.9 * sum(len(pair[0]) for pair in tags)
    (kept,) = os.listdir(tmp_path / int8_encoder.GRAPHS_FOLDER)
    assert sorted(os.listdir(tmp_path / int8_encoder.GRAPHS_FOLDER / kept)) == sorted(
        [onnx_encoder.GRAPH_NAMES["int8"], archive_cache.SOURCE_FILE]
    )  # the graph and the record that bounds the graphs' folders

    def no_export(*args):
        raise AssertionError("the kept graph was exported again")

    monkeypatch.setattr(onnx_encoder, "export_encoder", no_export)
    again = load(SHIPPED, precision="int8", readable_frames=False, int8_engine=engine)
    assert list(again.label_file(GOLD)) == int8
    kind = openvino_encoder.OpenVinoEncoder if engine == "openvino" else onnx_encoder.OnnxEncoder
    assert isinstance(again.model.embedder.transformer, kind)
    if engine == "openvino":  # its matrix products quantize their activations in ONNX Runtime's blocks
        compiled = again.model.embedder.transformer.compiled
        assert compiled.get_property("DYNAMIC_QUANTIZATION_GROUP_SIZE") == onnx_encoder.INT8_BLOCK


def test_int8_needs_a_transformer_and_the_cache_can_be_off(predicate_model_archive, monkeypatch):
    with pytest.raises(ValueError, match="precision int8 needs a transformer's words"):
        load(predicate_model_archive, precision="int8")
    assert int8_encoder.int8_engine_for(load(predicate_model_archive, precision="float32").model) is None
    monkeypatch.setenv("SRL_ZOO_ARCHIVE_CACHE", "off")
    assert int8_encoder.encoder_cache_folder(SHIPPED) is None


def test_where_onnx_runtime_cannot_run_int8_auto_falls_back_and_int8_is_one_line(monkeypatch):
    from srl_zoo.runtime.load import load_model

    def unavailable(*args, **kwargs):
        raise onnx_encoder.EngineUnavailable("ONNX Runtime cannot run the int8 graph on this CPU: no kernel")

    monkeypatch.setattr(int8_encoder, "onnx_encoder", unavailable)
    model = load_model(SHIPPED)
    model.f1_per_precision = {"float32": 77.32, "bfloat16": 76.0, "int8": 77.30}  # int8 kept, bfloat16 not
    labeler = RuntimeLabeler(model, precision="auto", int8_engine="onnxruntime")
    assert labeler.precision == "float32" and "int8 not taken: ONNX Runtime cannot run" in labeler.precision_reason
    with pytest.raises(ValueError, match=r"^precision int8: ONNX Runtime cannot run .*; use float32 or bfloat16$"):
        RuntimeLabeler(load_model(SHIPPED), precision="int8", int8_engine="onnxruntime")


def test_the_fastest_engine_with_a_record_runs_int8(monkeypatch):
    """OpenVINO runs int8 where installed and recorded; an archive that records int8 only through ONNX Runtime
    is labeled in int8 by ONNX Runtime, the engine its record speaks for."""
    from srl_zoo.runtime.load import load_model

    model = load_model(SHIPPED)
    model.f1_per_precision = None  # no record: the fastest installed
    assert int8_encoder.installed_int8_engines() == list(int8_encoder.INT8_ENGINES)  # both are in the lock
    assert int8_encoder.int8_engine_for(model) == "openvino"
    assert int8_encoder.int8_engine_for(model, "onnxruntime") == "onnxruntime"
    with pytest.raises(ValueError, match="int8 engine 'tvm' is not one of"):
        int8_encoder.int8_engine_for(model, "tvm")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "openvino" else real(name, *a))
    assert int8_encoder.int8_engine_for(model) == "onnxruntime"
    assert int8_encoder.int8_engine_for(model, "openvino") is None
    with pytest.raises(ImportError, match=r"OpenVINO is not installed: pip install 'srl_zoo\[openvino\]'"):
        load(SHIPPED, precision="int8", int8_engine="openvino")
    monkeypatch.setattr(importlib.util, "find_spec", real)
    model.f1_per_precision = {"float32": 77.32, "bfloat16": 76.0, "int8": 77.30}  # through ONNX Runtime only
    assert int8_encoder.int8_engine_for(model) == "onnxruntime"
    model.f1_per_precision = {"float32": 77.32, "int8": 77.30, "int8 openvino 128": 77.25}
    assert int8_encoder.int8_engine_for(model) == "openvino"
    # a record of OpenVINO's default activation blocks (archives of 2026-11-29/30) is not OpenVINO's int8 now
    model.f1_per_precision = {"float32": 77.32, "int8": 77.30, "int8 openvino": 77.25}
    assert int8_encoder.int8_engine_for(model) == "onnxruntime"
    model.f1_per_precision = {"float32": 77.32, "int8": 76.30, "int8 openvino 128": 76.25}  # neither keeps the F1
    assert int8_encoder.int8_engine_for(model) == "openvino"
    labeler = RuntimeLabeler(model, precision="auto")
    assert labeler.precision != "int8"


def test_where_openvino_cannot_run_the_graph_auto_falls_back_and_int8_is_one_line(monkeypatch):
    import openvino

    from srl_zoo.runtime.load import load_model

    class BrokenCore:
        def read_model(self, path):
            raise RuntimeError("Exception from src/frontends/onnx: unsupported operation MatMulNBits")

        def compile_model(self, model, device, settings):
            raise AssertionError("a model that was not read was compiled")

    monkeypatch.setattr(openvino, "Core", BrokenCore)
    model = load_model(SHIPPED)
    model.f1_per_precision = {"float32": 77.32, "bfloat16": 76.0, "int8 openvino 128": 77.30}
    labeler = RuntimeLabeler(model, precision="auto", encoder_cache=None)
    assert labeler.precision == "float32"
    assert "int8 not taken: OpenVINO cannot run" in labeler.precision_reason
    assert "unsupported operation MatMulNBits" in labeler.precision_reason
    with pytest.raises(ValueError, match=r"^precision int8: OpenVINO cannot run .*; use float32 or bfloat16$"):
        RuntimeLabeler(load_model(SHIPPED), precision="int8", int8_engine="openvino")
