"""Precision `int8` in the runtime: the model's transformer replaced by its ONNX graph with int8 weights, run by
OpenVINO where it is installed (srl_zoo's `openvino` extra; its activations in bfloat16 where the CPU computes it
natively, else float32), else by ONNX Runtime (the `onnx` extra, which also makes the graph); the rest of the model
runs under bfloat16 autocast where the CPU has it natively, else in float32 (the labeler's `autocast_bfloat16`).
The graph is made once per archive (export and quantization: about a minute for MPNet-base) and kept in srl_zoo's
cache, whose graph folders stay under the archive cache's bound (`SRL_ZOO_ARCHIVE_CACHE_BYTES`)."""

import importlib.util
import os
from typing import Optional

import torch

from srl_zoo.archive_cache import CACHE_VARIABLE, content_digest, keep_made_folder
from srl_zoo.cache_directory import cache_directory
from srl_zoo.nn.precision import int8_key, keeps_f1
from srl_zoo.runtime.embedders import TransformerWords
from srl_zoo.runtime.model import LabelingModel
from srl_zoo.runtime.onnx_encoder import encoder_graph, onnx_encoder
from srl_zoo.runtime.openvino_encoder import native_activations, openvino_encoder

#: the folder of srl_zoo's cache that keeps each archive's int8 graph, by the archive's content digest
GRAPHS_FOLDER = "onnx-encoders"
#: the engines that run the int8 graph, fastest first (docs/benchmarks.md, "The accurate model on a CPU")
INT8_ENGINES = ("openvino", "onnxruntime")


def installed_int8_engines() -> list[str]:
    """The engines of `INT8_ENGINES` installed here, fastest first; none without ONNX Runtime and onnx, which
    make the graph."""
    if not all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx")):
        return []
    return [engine for engine in INT8_ENGINES if importlib.util.find_spec(engine) is not None]


def int8_engine_for(model: LabelingModel, engine: Optional[str] = None) -> Optional[str]:
    """The engine that would run `model` in int8 here: `engine` (one of `INT8_ENGINES`) or, for None, the fastest
    installed one whose int8 F1 the archive records within the tolerance (`auto` reads that record), else the
    fastest installed; None where the model's words are not a transformer's or that engine is not installed."""
    if engine is not None and engine not in INT8_ENGINES:
        raise ValueError(f"int8 engine {engine!r} is not one of {INT8_ENGINES}")
    installed = installed_int8_engines()
    if not isinstance(model.embedder, TransformerWords) or not installed:
        return None
    if engine is None:
        recorded = [name for name in installed if keeps_f1(model.f1_per_precision, int8_key(name))]
        return (recorded or installed)[0]
    return engine if engine in installed else None


def missing_int8_engine(model: LabelingModel, engine: Optional[str] = None) -> Exception:
    """Why `int8_engine_for(model, engine)` found none: a `ValueError` for a model whose words are a word table,
    else an `ImportError` naming the extra to install."""
    if not isinstance(model.embedder, TransformerWords):
        return ValueError("precision int8 needs a transformer's words; this model's are a word table: use float32")
    if engine == "openvino":
        return ImportError("OpenVINO is not installed: pip install 'srl_zoo[openvino]'")
    return ImportError("ONNX Runtime is not installed: pip install 'srl_zoo[onnx]' (or 'srl_zoo[openvino]')")


def run_transformer_in_int8(model: LabelingModel, folder: Optional[str], engine: str = "onnxruntime") -> None:
    """Replace `model`'s transformer by its int8 graph run by `engine` (`openvino` or `onnxruntime`) on torch's
    thread count, the graph read from (or written to) `folder` (None: made in a temporary folder); a `ValueError`
    for a model without one, `EngineUnavailable` where the engine cannot run it."""
    if not isinstance(model.embedder, TransformerWords):
        raise missing_int8_engine(model, engine)
    if folder is not None:
        os.makedirs(folder, exist_ok=True)
    transformer = model.embedder.transformer
    if engine == "openvino":
        with encoder_graph(transformer, "int8", folder) as path:
            model.embedder.transformer = openvino_encoder(path, torch.get_num_threads(), native_activations())
    else:
        model.embedder.transformer = onnx_encoder(transformer, "int8", torch.get_num_threads(), folder)
    if folder is not None:
        keep_made_folder(folder)  # the graphs' folders stay under the archive cache's bound


def encoder_cache_folder(archive: str) -> Optional[str]:
    """Where the int8 graph of the archive at `archive` is kept (by its bytes' digest), or None when srl_zoo's
    archive cache is off (`SRL_ZOO_ARCHIVE_CACHE=off`)."""
    if os.environ.get(CACHE_VARIABLE, "").lower() == "off":
        return None
    return os.path.join(cache_directory(), GRAPHS_FOLDER, content_digest(archive))
