"""Precision `int8` in the runtime: the model's transformer replaced by its ONNX graph with int8 weights, run by
ONNX Runtime (srl_zoo's optional `onnx` extra); the rest of the model stays float32. The graph is made once per
archive (export and quantization: about a minute for MPNet-base) and kept in srl_zoo's cache."""

import importlib.util
import os
from typing import Optional

import torch

from srl_zoo.archive_cache import CACHE_VARIABLE, content_digest
from srl_zoo.cache_directory import cache_directory
from srl_zoo.runtime.embedders import TransformerWords
from srl_zoo.runtime.model import LabellingModel
from srl_zoo.runtime.onnx_encoder import onnx_encoder

#: the folder of srl_zoo's cache that keeps each archive's int8 graph, by the archive's content digest
GRAPHS_FOLDER = "onnx-encoders"


def int8_runs_here(model: LabellingModel) -> bool:
    """Whether `model` can label in int8 here: its words are a transformer's and ONNX Runtime is installed."""
    installed = all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx"))
    return installed and isinstance(model.embedder, TransformerWords)


def run_transformer_in_int8(model: LabellingModel, folder: Optional[str]) -> None:
    """Replace `model`'s transformer by its int8 ONNX Runtime session on torch's thread count, the graph read
    from (or written to) `folder` (None: made in a temporary folder); a `ValueError` for a model without one."""
    if not isinstance(model.embedder, TransformerWords):
        raise ValueError("precision int8 needs a transformer's words; this model's are a word table: use float32")
    if folder is not None:
        os.makedirs(folder, exist_ok=True)
    transformer = model.embedder.transformer
    model.embedder.transformer = onnx_encoder(transformer, "int8", torch.get_num_threads(), folder)


def encoder_cache_folder(archive: str) -> Optional[str]:
    """Where the int8 graph of the archive at `archive` is kept (by its bytes' digest), or None when srl_zoo's
    archive cache is off (`SRL_ZOO_ARCHIVE_CACHE=off`)."""
    if os.environ.get(CACHE_VARIABLE, "").lower() == "off":
        return None
    return os.path.join(cache_directory(), GRAPHS_FOLDER, content_digest(archive))
