"""A transformer run by ONNX Runtime (srl_zoo's optional `onnx` extra): the runtime's encoder exported once to an
ONNX graph, in float32 or with its matrix products in int8 (weights and activations quantized in blocks), and
called as the eager one is: `(input_ids, attention_mask)` in, the last layer's vectors out."""

import contextlib
import logging
import os
import tempfile
import warnings
from collections.abc import Iterator
from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.graphs.engine import onnxruntime
from srl_zoo.nn.precision import INT8_BLOCK

ONNX_PRECISIONS = ("float32", "int8")
#: the ONNX opset of the exported graphs
OPSET = 17
#: each precision's graph file: the name says how it was made, so a graph kept from another way is not read
GRAPH_NAMES = {"float32": "encoder-float32.onnx", "int8": f"encoder-int8-blocks{INT8_BLOCK}.onnx"}


def _onnxruntime() -> Any:
    """The `onnxruntime` module (its telemetry off: `srl_zoo.graphs.engine`), or an `ImportError` naming the extra to
    install."""
    try:
        return onnxruntime()
    except ImportError:
        raise ImportError("ONNX Runtime is not installed: pip install 'srl_zoo[onnx]'") from None


class OnnxEncoder(nn.Module):
    """An ONNX Runtime session standing in for the runtime's transformer.

    # Parameters

    session : an `onnxruntime.InferenceSession` of a graph with inputs `input_ids`, `attention_mask` (int64,
        `(rows, row_length)`) and output `last_hidden_state` (`(rows, row_length, dim)`, float32).
    """

    def __init__(self, session: Any) -> None:
        super().__init__()
        self.session = session

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """`(rows, row_length, dim)` vectors of the last layer (float32, on the CPU)."""
        (states,) = self.session.run(
            None, {"input_ids": input_ids.cpu().numpy(), "attention_mask": attention_mask.long().cpu().numpy()}
        )
        return torch.from_numpy(states)


def export_encoder(transformer: nn.Module, path: str) -> None:
    """Write `transformer` (`(input_ids, attention_mask)` to the last layer) as an ONNX graph at `path`, its row
    and piece axes free."""
    example = (torch.randint(1000, 2000, (2, 7)), torch.ones(2, 7, dtype=torch.long))
    axes = {0: "rows", 1: "pieces"}
    with torch.no_grad(), quietly():
        torch.onnx.export(
            transformer.eval(),
            example,
            path,
            input_names=["input_ids", "attention_mask"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
            opset_version=OPSET,
            dynamo=False,
        )


@contextlib.contextmanager
def quietly() -> Iterator[None]:
    """Keep the exporter's and the quantizer's advice (warnings, root-logger lines) off the user's terminal."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.setLevel(level)


def quantize_to_int8(source: str, target: str) -> None:
    """The graph at `source` with its matrix products' weights stored as int8 in blocks of `INT8_BLOCK` values
    along the input (one scale each), written at `target`. ONNX Runtime then multiplies in int8, quantizing each
    block of `INT8_BLOCK` activations with its own scale (`accuracy_level` 4), so that a large activation in one
    feature does not coarsen the others (one scale per call cost the accurate model 3.7 EWT dev F1)."""
    _onnxruntime()
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    with quietly():
        quantizer = MatMulNBitsQuantizer(source, bits=8, block_size=INT8_BLOCK, is_symmetric=True, accuracy_level=4)
        quantizer.process()
        quantizer.model.save_model_to_file(target, use_external_data_format=False)


def onnx_encoder(transformer: nn.Module, precision: str, threads: int, folder: Optional[str] = None) -> OnnxEncoder:
    """`transformer` exported to ONNX (kept in `folder` as `GRAPH_NAMES[precision]` and read from there when it
    is already there; None: a temporary folder) and run by ONNX Runtime on `threads` threads.

    # Parameters

    transformer : `(input_ids, attention_mask)` → `(rows, row_length, dim)`, with its final weights (adapters
        merged).
    precision : `float32` or `int8` (weights of the matrix products quantized).
    """
    onnxruntime = _onnxruntime()
    with encoder_graph(transformer, precision, folder) as path:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only
        try:
            encoder = OnnxEncoder(onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"]))
            encoder(torch.tensor([[101, 102]]), torch.ones(1, 2, dtype=torch.long))  # a CPU without its kernels fails
        except Exception as error:  # onnxruntime's own exception types, whatever this version calls them
            reason = str(error).strip().splitlines()[-1][:200] if str(error).strip() else type(error).__name__
            raise EngineUnavailable(f"ONNX Runtime cannot run the {precision} graph on this CPU: {reason}") from None
    return encoder


@contextlib.contextmanager
def encoder_graph(transformer: nn.Module, precision: str, folder: Optional[str] = None) -> Iterator[str]:
    """The path of `transformer`'s `precision` graph (`float32` or `int8`), kept in `folder` (made there when it is
    missing) or, for None, made in a temporary folder that lasts while the context is open."""
    if precision not in ONNX_PRECISIONS:
        raise ValueError(f"ONNX Runtime precision {precision!r} is not one of {ONNX_PRECISIONS}")
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(folder or scratch, GRAPH_NAMES[precision])
        if not os.path.exists(path):
            _write_graph(transformer, precision, path, scratch)
        yield path


class EngineUnavailable(RuntimeError):
    """ONNX Runtime cannot run a graph here (for example no kernel for its 8-bit blocks on this CPU)."""


def _write_graph(transformer: nn.Module, precision: str, path: str, scratch: str) -> None:
    """The `precision` graph of `transformer` at `path`, whole or not at all (written beside it, then renamed)."""
    float32 = os.path.join(scratch, "float32.onnx")
    export_encoder(transformer, float32)
    made = float32
    if precision == "int8":
        made = os.path.join(scratch, "int8.onnx")
        quantize_to_int8(float32, made)
    partial = f"{path}.partial"
    with open(made, "rb") as source, open(partial, "wb") as target:
        while chunk := source.read(1 << 20):
            target.write(chunk)
    os.replace(partial, path)
