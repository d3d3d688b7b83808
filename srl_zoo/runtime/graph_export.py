"""The labeling network exported whole to ONNX inference graphs: a sentence graph (the words' embeddings, the
sentences encoded once, the predicate head's logits) and a frame graph (each (sentence, predicate) row's tag
scores), traced from the same `LabelingModel` parts that label in torch, with the manifest that says how to
decode them in numpy (`srl_zoo.graphs`). A part without a graph form raises `NotImplementedError`."""

import hashlib
import json
import os
import tarfile
import tempfile
from collections.abc import Iterable
from typing import Any, Optional

import numpy as np
import torch
from torch import nn

from srl_zoo.archive_cache import content_digest, extracted_archive
from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.graphs.contract import (
    FORMAT,
    FRAME_INPUTS,
    FRAME_OUTPUTS,
    MANIFEST,
    SENTENCE_OUTPUTS,
    WEIGHTS_DIGEST,
    WORD_MASK,
)
from srl_zoo.graphs.engine import onnxruntime
from srl_zoo.runtime.embedders import TransformerWords
from srl_zoo.runtime.load import load_model
from srl_zoo.runtime.model import LabelingModel
from srl_zoo.runtime.onnx_encoder import OPSET, quietly
from srl_zoo.runtime.shared_weights import share_weights, stored_tensors

#: the graph files a manifest names
SENTENCE_GRAPH, FRAME_GRAPH = "graph-sentences.onnx", "graph-frames.onnx"
#: each graph's int8 form: its matrix products' weights int8 (one scale per output column), their inputs quantized
#: per call (`MatMulInteger`, `DynamicQuantizeLinear`: standard operators)
INT8_GRAPHS = {SENTENCE_GRAPH: "graph-sentences-int8.onnx", FRAME_GRAPH: "graph-frames-int8.onnx"}
#: the manifest's name of each part's (float32) graph
PARTS = {"sentences": SENTENCE_GRAPH, "frames": FRAME_GRAPH}
#: the example sentences traced (two, of different lengths, so that no size is taken for a constant)
EXAMPLE = (["Bush", "nominated", "two", "judges", "today", "."], ["He", "left", "."])


class SentenceGraph(nn.Module):
    """The sentence part: `(embedder inputs..., word_mask)` → `words (batch, num_words, dim)` and, with a predicate
    head, its `predicate_logits (batch, num_words, num_predicate_labels)`.

    # Parameters

    model : the archive's labeling model.
    """

    def __init__(self, model: LabelingModel) -> None:
        super().__init__()
        self.model = model

    def forward(self, *inputs: torch.Tensor) -> tuple[torch.Tensor, ...]:
        word_mask = inputs[-1]
        words = self.model.embedder.graph_embed(*inputs)
        if self.model.predicate_head is None:
            return (words,)
        sentences = self.model.frame_scorer.encode_sentences(words, word_mask)
        return words, self.model.predicate_head.graph_logits(sentences)


class FrameGraph(nn.Module):
    """The frame part: `(words, word_mask, row_sentences, row_predicates)` → `tag_scores (rows, num_words,
    num_labels)` (the output layer's `graph_scores`).

    # Parameters

    model : the archive's labeling model.
    """

    def __init__(self, model: LabelingModel) -> None:
        super().__init__()
        self.model = model

    def forward(
        self, words: torch.Tensor, word_mask: torch.Tensor, row_sentences: torch.Tensor, row_predicates: torch.Tensor
    ) -> torch.Tensor:
        scorer = self.model.frame_scorer
        return scorer.tag_output.graph_scores(scorer.row_logits(words, word_mask, row_sentences, row_predicates))


def manifest(model: LabelingModel, sentence_outputs: tuple[str, ...]) -> dict[str, Any]:
    """The manifest of `model`'s graphs: files, inputs and outputs, tags, decoders, calibration and F1 records."""
    if not isinstance(model.embedder, TransformerWords):
        raise NotImplementedError("only a transformer's words have an inference-graph form yet")
    head = None if model.predicate_head is None else model.predicate_head.graph_settings()
    return {
        "format": FORMAT,
        "embedder": {"type": "word_pieces", "max_length": model.embedder.pieces.max_length},
        "graphs": {
            "sentences": {
                "file": SENTENCE_GRAPH,
                "inputs": [*model.embedder.graph_inputs, WORD_MASK],
                "outputs": list(sentence_outputs),
            },
            "frames": {"file": FRAME_GRAPH, "inputs": list(FRAME_INPUTS), "outputs": list(FRAME_OUTPUTS)},
        },  # fmt: skip
        "int8_graphs": {part: {"file": INT8_GRAPHS[name]} for part, name in PARTS.items()},
        "tags": [model.tags[i] for i in range(len(model.tags))],
        "decoder": model.frame_scorer.tag_output.graph_decoder(),
        "predicate_head": head,
        "score_temperature": model.score_temperature,
    }


def export_graphs(model: LabelingModel, folder: str, weights: Optional[str] = None) -> dict[str, Any]:
    """Write `model`'s sentence and frame graphs (float32 computations), their int8 forms (`INT8_GRAPHS`) and their
    manifest into `folder`, each file whole or not at all; the manifest written.

    # Parameters

    weights : the archive's `weights.th` (float16, as `srl-zoo export` writes it), beside which the graphs will
        lie: every weight of the graphs that is one of its tensors is read from there (stored once; see
        `srl_zoo.runtime.shared_weights`). None: the graphs hold their weights (float32).
    """
    model = model.eval()
    prepared = model.prepare(EXAMPLE, [None, None])
    word_mask = torch.arange(int(prepared.lengths.max())).unsqueeze(0) < prepared.lengths.unsqueeze(1)
    sentence_inputs = (*model.embedder.graph_example(prepared.embedder_inputs), word_mask)
    sentence_outputs = SENTENCE_OUTPUTS[: 1 if model.predicate_head is None else 2]
    written = manifest(model, sentence_outputs)
    os.makedirs(folder, exist_ok=True)
    stored = None if weights is None else stored_tensors(weights)
    with torch.no_grad():
        words = SentenceGraph(model)(*sentence_inputs)[0]
        frame_inputs = (words, word_mask, torch.tensor([0, 0, 1]), torch.tensor([1, 3, 1]))
        graphs = [
            (SentenceGraph(model), sentence_inputs, written["graphs"]["sentences"]["inputs"], list(sentence_outputs),
             SENTENCE_GRAPH),
            (FrameGraph(model), frame_inputs, list(FRAME_INPUTS), list(FRAME_OUTPUTS), FRAME_GRAPH),
        ]  # fmt: skip
        embedded, int8_embedded = 0, 0
        pretrained = weight_digests(model.embedder.parameters())  # its products stay float32 (`float32_products`)
        for graph, example, inputs, outputs, name in graphs:
            axes = {tensor: _free_axes(tensor) for tensor in [*inputs, *outputs]}
            held = _export(graph, example, (inputs, outputs, axes), folder, name, (weights, stored), pretrained)
            embedded, int8_embedded = embedded + held[0], int8_embedded + held[1]
    written["embedded_bytes"], written["int8_embedded_bytes"] = embedded, int8_embedded
    if weights is not None:  # the graphs read it at fixed offsets: another weights.th is refused (`GraphNetwork`)
        written[WEIGHTS_DIGEST] = content_digest(weights)
    with atomic_write(os.path.join(folder, MANIFEST)) as handle:
        json.dump(written, handle)
    return written


def _free_axes(name: str) -> dict[int, str]:
    """The axes of the input or output `name` that vary from call to call (all of them)."""
    if name in ("piece_rows", "piece_positions", "piece_slots"):
        return {0: "pieces"}
    if name in ("piece_ids", "piece_mask"):
        return {0: "piece_rows", 1: "row_length"}
    if name in ("row_sentences", "row_predicates"):
        return {0: "rows"}
    if name == "tag_scores":
        return {0: "rows", 1: "num_words"}
    return {0: "batch", 1: "num_words"}


def _export(
    graph: nn.Module,
    example: tuple[torch.Tensor, ...],
    names: tuple[list[str], list[str], dict[str, dict[int, str]]],
    folder: str,
    name: str,
    weights: tuple[Optional[str], Optional[dict[str, tuple[int, int]]]],
    float32_weights: frozenset[str],
) -> tuple[int, int]:
    """`graph` traced on `example` and written as `folder/name` (beside it first, then renamed) with its int8 form
    (`INT8_GRAPHS`; the products whose weights' digests are in `float32_weights` kept float32), their weights read
    from `weights` where given (`share_weights`); the bytes of weights the float32 graph and the int8 one hold
    themselves. The weights stay
    as the parameters are (no constant folding: the engine folds them when it loads the graph), so that each is a
    tensor of the archive's `weights.th`."""
    inputs, outputs, axes = names
    path_of_weights, stored = weights
    with tempfile.TemporaryDirectory(dir=folder) as scratch, quietly():
        path = os.path.join(scratch, name)
        folded = os.path.join(scratch, "folded-" + name)
        for written, folding in ((path, False), (folded, True)):  # folded: each product's weight one initializer
            torch.onnx.export(
                graph.eval(), example, written, input_names=inputs, output_names=outputs, dynamic_axes=axes,
                opset_version=OPSET, dynamo=False, do_constant_folding=folding,
            )  # fmt: skip
        int8 = os.path.join(scratch, INT8_GRAPHS[name])
        quantize_dynamically(folded, int8, float32_products(folded, float32_weights))
        embedded = []
        for written in (path, int8):
            if path_of_weights is not None and stored is not None:
                embedded.append(share_weights(written, path_of_weights, stored))
            else:
                embedded.append(os.path.getsize(written))
            os.replace(written, os.path.join(folder, os.path.basename(written)))
    return embedded[0], embedded[1]


def quantize_dynamically(source: str, target: str, float32_nodes: list[str]) -> None:
    """The graph at `source` with its matrix products' weights int8 (symmetric, one scale per output column) and
    their inputs quantized to uint8 on each call, but for the products named in `float32_nodes`, written at
    `target`: standard ONNX operators only, which any engine runs (the torch runtime's int8 encoders use ONNX
    Runtime's blocked `MatMulNBits` instead)."""
    onnxruntime()  # its telemetry off before the quantizer imports it
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        source, target, weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul"],
        nodes_to_exclude=float32_nodes,
    )  # fmt: skip


def weight_digests(parameters: Iterable[torch.Tensor]) -> frozenset[str]:
    """The SHA-256 digests of `parameters` as a folded graph holds them in a product: float32, a matrix transposed
    (`x @ W.T`) and as it is."""
    digests = set()
    for parameter in parameters:
        values = parameter.detach().float().cpu().numpy()
        for form in [values] + ([values.T] if values.ndim == 2 else []):
            digests.add(hashlib.sha256(np.ascontiguousarray(form).tobytes()).hexdigest())
    return frozenset(digests)


def float32_products(graph_path: str, float32_weights: frozenset[str]) -> list[str]:
    """The matrix products of the graph at `graph_path` that its int8 form keeps float32: each whose weight is one
    of `float32_weights` (`weight_digests`), and each last one before a graph output (the products that give the
    scores). Measured on the shipped default (EWT dev, srl_zoo's F1 = srl-eval.pl's): int8 per call in the
    products that give the tag scores cost 0.73 F1, in its pretrained transformer's 0.07, in the rest 0.04."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(graph_path)
    initializers = {tensor.name: tensor for tensor in model.graph.initializer}
    kept = []
    for node in model.graph.node:
        weight = initializers.get(node.input[1]) if node.op_type == "MatMul" else None
        if weight is not None:
            values = np.ascontiguousarray(numpy_helper.to_array(weight).astype(np.float32))
            if hashlib.sha256(values.tobytes()).hexdigest() in float32_weights:
                kept.append(node.name)
    producers = {output: node for node in model.graph.node for output in node.output}
    waiting, seen = [output.name for output in model.graph.output], set()
    while waiting:  # back from each output to the first product on every path
        node = producers.get(waiting.pop())
        if node is None or node.name in seen:
            continue
        seen.add(node.name)
        if node.op_type == "MatMul":
            kept.append(node.name)
        else:
            waiting.extend(node.input)
    return sorted(set(kept))


def archive_with_graphs(archive: str, output: str) -> str:
    """`output`: a copy of `archive` (an uncompressed tar) with its network's graphs beside its `weights.th` (what
    `srl-zoo export --graphs` adds, without re-exporting the weights); `output` returned."""
    with extracted_archive(archive) as extracted, tempfile.TemporaryDirectory() as graphs:
        export_graphs(load_model(archive), graphs, os.path.join(extracted, "weights.th"))
        made = set(os.listdir(graphs))
        with atomic_write(output, "wb") as handle, tarfile.open(fileobj=handle, mode="w") as written:
            for name in sorted(set(os.listdir(extracted)) - made):  # graphs it held already are made again
                written.add(os.path.join(extracted, name), arcname=name)
            for name in sorted(os.listdir(graphs)):
                written.add(os.path.join(graphs, name), arcname=name)
    return output
