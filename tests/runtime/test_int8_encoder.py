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
        int8 = onnx_encoder.onnx_encoder(words.transformer, "int8", threads=1, folder=str(tmp_path))
        difference = (int8(batch.ids, batch.attention_mask)[real] - eager[real]).abs()
    assert 0 < difference.mean() < 0.1 * eager[real].abs().mean()  # quantized, and close
    assert sorted(os.listdir(tmp_path)) == sorted(onnx_encoder.GRAPH_NAMES.values())
    with pytest.raises(ValueError, match="ONNX Runtime precision 'int4' is not one of"):
        onnx_encoder.onnx_encoder(words.transformer, "int4", threads=1)


def test_int8_labels_the_fixture_mostly_as_float32_and_keeps_its_graph(tmp_path, monkeypatch):
    monkeypatch.setenv("SRL_ZOO_CACHE", str(tmp_path))
    float32 = list(load(SHIPPED, precision="float32", readable_frames=False).label_file(GOLD))
    labeler = load(SHIPPED, precision="int8", readable_frames=False)
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
