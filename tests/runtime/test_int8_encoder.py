"""Precision int8 in the runtime: the transformer's ONNX graph (in float32 the eager transformer's vectors; in int8
close to them), kept per archive and read back, and a labeler that labels the fixture mostly as float32 does."""

import os

import pytest
import torch

from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.runtime import int8_encoder, onnx_encoder
from srl_zoo.runtime.labeler import load
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # exports a transformer to ONNX

SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
GOLD = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
SENTENCES = [["The", "cat", "sat", "."], ["Bush", "nominated", "two", "judges", "to", "the", "supreme", "court", "."]]


def test_the_float32_graph_gives_the_eager_transformers_vectors(tmp_path):
    words = load(SHIPPED, precision="float32").model.embedder
    batch = words.prepare(SENTENCES)
    real = batch.attention_mask
    with torch.inference_mode():
        eager = words.transformer(batch.ids, batch.attention_mask)
        graph = onnx_encoder.onnx_encoder(words.transformer, "float32", threads=1, folder=str(tmp_path))
        torch.testing.assert_close(graph(batch.ids, batch.attention_mask)[real], eager[real], atol=1e-4, rtol=1e-4)
        try:
            int8 = onnx_encoder.onnx_encoder(words.transformer, "int8", threads=1, folder=str(tmp_path))
        except onnx_encoder.EngineUnavailable as error:  # an ONNX Runtime without 8-bit kernels for this CPU
            assert str(error).startswith("ONNX Runtime cannot run the int8 graph on this CPU: ")
            return
        difference = (int8(batch.ids, batch.attention_mask)[real] - eager[real]).abs()
    assert 0 < difference.mean() < 0.1 * eager[real].abs().mean()  # quantized, and close
    assert sorted(os.listdir(tmp_path)) == sorted(onnx_encoder.GRAPH_NAMES.values())
    with pytest.raises(ValueError, match="ONNX Runtime precision 'int4' is not one of"):
        onnx_encoder.onnx_encoder(words.transformer, "int4", threads=1)


def test_int8_labels_the_fixture_mostly_as_float32_and_keeps_its_graph(tmp_path, monkeypatch):
    monkeypatch.setenv("SRL_ZOO_CACHE", str(tmp_path))
    float32 = list(load(SHIPPED, precision="float32", readable_frames=False).label_file(GOLD))
    try:
        labeler = load(SHIPPED, precision="int8", readable_frames=False)
    except ValueError as error:  # an ONNX Runtime without 8-bit kernels for this CPU says so in one line
        assert "precision int8: ONNX Runtime cannot run the int8 graph on this CPU" in str(error)
        return
    int8 = list(labeler.label_file(GOLD))
    assert labeler.precision == "int8" and labeler.precision_reason == "int8 as asked"
    tags = [
        (f["tags"], g["tags"])
        for s, t in zip(int8, float32, strict=True)
        for f, g in zip(s["frames"], t["frames"], strict=False)
    ]
    same = sum(a == b for pair in tags for a, b in zip(*pair, strict=True))
    assert len(tags) == sum(len(s.frames) for s in READERS[detect_format(GOLD)](GOLD))
    assert same >= 0.9 * sum(len(pair[0]) for pair in tags)
    (kept,) = os.listdir(tmp_path / int8_encoder.GRAPHS_FOLDER)
    assert os.listdir(tmp_path / int8_encoder.GRAPHS_FOLDER / kept) == [onnx_encoder.GRAPH_NAMES["int8"]]

    def no_export(*args):
        raise AssertionError("the kept graph was exported again")

    monkeypatch.setattr(onnx_encoder, "export_encoder", no_export)
    assert list(load(SHIPPED, precision="int8", readable_frames=False).label_file(GOLD)) == int8


def test_int8_needs_a_transformer_and_the_cache_can_be_off(predicate_model_archive, monkeypatch):
    with pytest.raises(ValueError, match="precision int8 needs a transformer's words"):
        load(predicate_model_archive, precision="int8")
    assert not int8_encoder.int8_runs_here(load(predicate_model_archive, precision="float32").model)
    monkeypatch.setenv("SRL_ZOO_ARCHIVE_CACHE", "off")
    assert int8_encoder.encoder_cache_folder(SHIPPED) is None


def test_where_onnx_runtime_cannot_run_int8_auto_falls_back_and_int8_is_one_line(monkeypatch):
    from srl_zoo.runtime.labeler import RuntimeLabeler
    from srl_zoo.runtime.load import load_model

    def unavailable(*args, **kwargs):
        raise onnx_encoder.EngineUnavailable("ONNX Runtime cannot run the int8 graph on this CPU: no kernel")

    monkeypatch.setattr(int8_encoder, "onnx_encoder", unavailable)
    model = load_model(SHIPPED)
    model.f1_per_precision = {"float32": 77.32, "bfloat16": 76.0, "int8": 77.30}  # int8 kept, bfloat16 not
    labeler = RuntimeLabeler(model, precision="auto")
    assert labeler.precision == "float32" and "int8 not taken: ONNX Runtime cannot run" in labeler.precision_reason
    with pytest.raises(ValueError, match=r"^precision int8: ONNX Runtime cannot run .*; use float32 or bfloat16$"):
        RuntimeLabeler(load_model(SHIPPED), precision="int8")
