"""A transformer's ONNX graph run by OpenVINO (srl_zoo's optional `openvino` extra): called as the eager
transformer is, `(input_ids, attention_mask)` in, the last layer's vectors out. OpenVINO runs srl_zoo's int8 graph
(`onnx_encoder.GRAPH_NAMES["int8"]`) 1.4x faster than ONNX Runtime on the accurate model's transformer
(docs/benchmarks.md, "The accurate model on a CPU")."""

import os
from typing import Any

import torch
from torch import nn

from srl_zoo.nn.precision import INT8_BLOCK, cpu_has_fast_bfloat16
from srl_zoo.runtime.onnx_encoder import EngineUnavailable

#: OpenVINO's CPU settings: latency over throughput (one request at a time)
SETTINGS = {"PERFORMANCE_HINT": "LATENCY"}


def openvino_installed() -> bool:
    """Whether OpenVINO can be imported here."""
    try:
        import openvino  # noqa: F401
    except ImportError:
        return False
    return True


class OpenVinoEncoder(nn.Module):
    """An OpenVINO compiled model standing in for the runtime's transformer.

    # Parameters

    compiled : an `openvino.CompiledModel` of a graph whose two inputs are the word-piece ids and the attention
        mask (int64, `(rows, row_length)`, in that order: quantizing renames them) and whose first output is
        `(rows, row_length, dim)` float32.
    """

    def __init__(self, compiled: Any) -> None:
        super().__init__()
        self.compiled = compiled
        self.output = compiled.output(0)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """`(rows, row_length, dim)` vectors of the last layer (float32, on the CPU)."""
        result = self.compiled([input_ids.cpu().numpy(), attention_mask.long().cpu().numpy()])
        return torch.from_numpy(result[self.output].copy())


def native_activations() -> str:
    """The activation precision OpenVINO runs srl_zoo's int8 graph in here: `bf16` where the CPU computes bfloat16
    natively, else `f32`."""
    return "bf16" if cpu_has_fast_bfloat16() else "f32"


def openvino_encoder(
    graph_path: str, threads: int, activations: str = "f32", activation_block: int = INT8_BLOCK
) -> OpenVinoEncoder:
    """The ONNX graph at `graph_path` compiled by OpenVINO for the CPU on `threads` threads, its activations in
    `activations` (`f32` or `bf16`); `EngineUnavailable` where OpenVINO is missing or cannot run it.

    # Parameters

    activation_block : the matrix products with int8 weights quantize their activations in blocks of this many
        values, one scale each (OpenVINO's dynamic quantization; 0: not quantized). `INT8_BLOCK`, as ONNX
        Runtime's do, ran the accurate model's transformer faster than OpenVINO's default of 32 at an F1 within
        0.1 (docs/benchmarks.md, "The accurate model on a CPU"); a graph without int8 weights is not affected.
    """
    try:
        import openvino
    except ImportError:
        raise EngineUnavailable("OpenVINO is not installed: pip install 'srl_zoo[openvino]'") from None
    try:
        core = openvino.Core()
        settings = {
            **SETTINGS,
            "INFERENCE_NUM_THREADS": threads,
            "INFERENCE_PRECISION_HINT": activations,
            "DYNAMIC_QUANTIZATION_GROUP_SIZE": activation_block,
        }
        compiled = core.compile_model(core.read_model(graph_path), "CPU", settings)
        encoder = OpenVinoEncoder(compiled)
        encoder(torch.tensor([[101, 102]]), torch.ones(1, 2, dtype=torch.long))
    except Exception as error:  # OpenVINO's own exception types
        reason = str(error).strip().splitlines()[-1][:200] if str(error).strip() else type(error).__name__
        raise EngineUnavailable(f"OpenVINO cannot run {os.path.basename(graph_path)} on this CPU: {reason}") from None
    return encoder
