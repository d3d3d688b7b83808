"""An archive's transformer (as the runtime labels with it: adapters merged) in each engine and precision this CPU
offers, on one thread, measured alternately in one run (a benchmark): eager PyTorch in float32 and, where the CPU
has it natively, bfloat16 autocast; ONNX Runtime in float32 (its graph optimisations), in srl_zoo's `int8`
(`MatMulNBits`: weights and activations in blocks of 128 values, one scale each) and with ONNX Runtime's dynamic
quantization (int8 weights per output channel, each call's activations under one scale: not offered, shown for
its F1); where OpenVINO is installed (the `openvino` extra), OpenVINO on the float32 graph and on srl_zoo's int8
graph (the runtime's int8 where it is installed; its matrix products quantize their activations in blocks of 128),
in float32 and (on a CPU with native bfloat16) bfloat16, and the int8 graph with its activations in OpenVINO's
default blocks of 32 and not quantized (measured, not offered). Word pieces of the first N sentences of a gold
file, batches of similar length, best of `--rounds`; each engine's mean difference from eager float32 (relative to
its mean size) and, with `--f1-sentences M`, the span F1 of the whole model labeling the first M sentences at their
gold predicates with that engine's transformer.

ONNX Runtime is srl_zoo's optional `onnx` extra (`pip install '.[onnx]'`):

    python -m benchmarks encoder_engines models/ewt-english-accurate.tar.gz data/ewt/conll2012/dev.gold_conll.gz \
        --f1-sentences 300
"""

import argparse
import os
import tempfile
import time

import torch

import srl_zoo
from srl_zoo.commands.precision_f1 import span_f1
from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.leaderboard.machine import processor_name
from srl_zoo.nn.inference_speed import bfloat16_autocast
from srl_zoo.nn.precision import cpu_has_fast_bfloat16
from srl_zoo.runtime.onnx_encoder import GRAPH_NAMES, OnnxEncoder, export_encoder, onnx_encoder
from srl_zoo.runtime.openvino_encoder import native_activations, openvino_encoder

Encoder = torch.nn.Module  # (input_ids, attention_mask) -> (rows, row_length, dim)


class InBfloat16(torch.nn.Module):
    """`transformer` under bfloat16 autocast, its vectors back in float32."""

    def __init__(self, transformer: torch.nn.Module) -> None:
        super().__init__()
        self.transformer = transformer

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        with bfloat16_autocast(True, "cpu"):
            return self.transformer(ids, mask).float()


def dynamic_int8(transformer: torch.nn.Module, folder: str) -> OnnxEncoder:
    """`transformer` under ONNX Runtime's dynamic quantization (one activation scale per call), one thread."""
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic

    float32, quantized = os.path.join(folder, "float32.onnx"), os.path.join(folder, "dynamic.onnx")
    export_encoder(transformer, float32)
    quantize_dynamic(float32, quantized, weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul"])
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    return OnnxEncoder(onnxruntime.InferenceSession(quantized, options, providers=["CPUExecutionProvider"]))


def openvino_engines(transformer: torch.nn.Module, folder: str) -> dict[str, Encoder]:
    """OpenVINO's engines where OpenVINO is installed (none without it): on `transformer`'s float32 ONNX graph and on
    srl_zoo's int8 graph (which `onnx_encoder` must have written to `folder` first), each in float32 and, on a CPU
    with native bfloat16, bfloat16."""
    try:
        import openvino  # noqa: F401
    except ImportError:
        return {}
    path = os.path.join(folder, "openvino-float32.onnx")
    export_encoder(transformer, path)
    int8 = os.path.join(folder, GRAPH_NAMES["int8"])  # srl_zoo's int8 graph (onnx_encoder made it there)
    engines: dict[str, Encoder] = {"OpenVINO, float32": openvino_encoder(path, 1)}
    engines["OpenVINO, srl_zoo's int8 graph (the runtime's int8)"] = openvino_encoder(int8, 1)
    if cpu_has_fast_bfloat16():
        engines["OpenVINO, bfloat16"] = openvino_encoder(path, 1, "bf16")
        engines["OpenVINO, srl_zoo's int8 graph, bfloat16"] = openvino_encoder(int8, 1, "bf16")
    activations = native_activations()
    for block, meaning in ((32, "OpenVINO's default"), (0, "not quantized")):
        name = f"OpenVINO, srl_zoo's int8 graph, {activations}, activations in blocks of {block} ({meaning})"
        engines[name] = openvino_encoder(int8, 1, activations, block)
    return engines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("data", help="gold file (CoNLL-2005/2012/2009)")
    parser.add_argument("--sentences", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--f1-sentences", type=int, default=0, help="label this many sentences with each engine")
    args = parser.parse_args()
    torch.set_num_threads(1)
    labeler = srl_zoo.load(args.archive, precision="float32", readable_frames=False)
    words = labeler.model.embedder
    gold = [
        s
        for _, s in zip(
            range(max(args.sentences, args.f1_sentences)), READERS[detect_format(args.data)](args.data), strict=False
        )
    ]
    sentences = sorted((s.tokens for s in gold[: args.sentences]), key=len)
    batches = [words.prepare(sentences[i : i + args.batch_size]) for i in range(0, len(sentences), args.batch_size)]
    pieces = sum(int(b.attention_mask.sum()) for b in batches)
    eager = words.transformer.eval()

    engines: dict[str, Encoder] = {"eager PyTorch, float32": eager}
    if cpu_has_fast_bfloat16():
        engines["eager PyTorch, bfloat16 autocast"] = InBfloat16(eager)
    scratch = tempfile.TemporaryDirectory()
    engines["ONNX Runtime, float32"] = onnx_encoder(eager, "float32", threads=1)
    engines["ONNX Runtime, int8 in blocks (srl_zoo's int8)"] = onnx_encoder(eager, "int8", 1, scratch.name)
    engines["ONNX Runtime, dynamic int8"] = dynamic_int8(eager, scratch.name)
    engines.update(openvino_engines(eager, scratch.name))
    seconds = {name: float("inf") for name in engines}
    with torch.inference_mode():
        reference = [eager(b.ids, b.attention_mask) for b in batches]
        differences = {name: relative_difference(engine, batches, reference) for name, engine in engines.items()}
        for _ in range(args.rounds):
            for name, engine in engines.items():
                started = time.perf_counter()
                for batch in batches:
                    engine(batch.ids, batch.attention_mask)
                seconds[name] = min(seconds[name], time.perf_counter() - started)
        f1 = {name: model_f1(labeler, engine, gold[: args.f1_sentences]) for name, engine in engines.items()}
    scratch.cleanup()
    print(f"{len(sentences)} sentences, {pieces:,} word pieces, one thread, {processor_name()}, best of {args.rounds}")
    base = pieces / seconds["eager PyTorch, float32"]
    for name, value in seconds.items():
        speed = pieces / value
        scored = f"  F1 {f1[name]:.2f} on {args.f1_sentences} sentences" if f1[name] is not None else ""
        print(f"{name:46s} {speed:7,.0f} pieces/s  {speed / base:5.2f}x  difference {differences[name]:.4f}{scored}")


def relative_difference(engine: Encoder, batches: list, reference: list[torch.Tensor]) -> float:
    """The mean absolute difference of `engine`'s vectors from `reference` over real pieces, over their mean size."""
    total, size = 0.0, 0.0
    for batch, expected in zip(batches, reference, strict=True):
        real = batch.attention_mask
        total += (engine(batch.ids, batch.attention_mask)[real] - expected[real]).abs().sum().item()
        size += expected[real].abs().sum().item()
    return total / size


def model_f1(labeler, engine: Encoder, gold: list) -> "float | None":
    """The span F1 (percent) of `labeler` with `engine` as its transformer on `gold` at its predicates (None: none)."""
    if not gold:
        return None
    words = labeler.model.embedder
    kept, words.transformer = words.transformer, engine
    try:
        labeled = labeler.label_words([s.tokens for s in gold], [[f.index for f in s.frames] for s in gold])
    finally:
        words.transformer = kept
    return 100 * span_f1(gold, labeled)


if __name__ == "__main__":
    main()
