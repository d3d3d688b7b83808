"""The labeling network exported whole to ONNX inference graphs: a sentence graph (the words' embeddings, the
sentences encoded once, the predicate head's logits) and a frame graph (each (sentence, predicate) row's tag
scores), traced from the same `LabelingModel` parts that label in torch, with the manifest that says how to
decode them in numpy (`srl_zoo.graphs`). A part without a graph form raises `NotImplementedError`."""

import json
import os
import tempfile
from typing import Any

import torch
from torch import nn

from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.graphs.contract import (
    FORMAT,
    FRAME_INPUTS,
    FRAME_OUTPUTS,
    MANIFEST,
    SENTENCE_OUTPUTS,
    WORD_MASK,
)
from srl_zoo.runtime.embedders import TransformerWords
from srl_zoo.runtime.model import LabelingModel
from srl_zoo.runtime.onnx_encoder import OPSET, quietly

#: the graph files a manifest names
SENTENCE_GRAPH, FRAME_GRAPH = "sentences-float32.onnx", "frames-float32.onnx"
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
        "tags": [model.tags[i] for i in range(len(model.tags))],
        "decoder": model.frame_scorer.tag_output.graph_decoder(),
        "predicate_head": head,
        "score_temperature": model.score_temperature,
    }


def export_graphs(model: LabelingModel, folder: str) -> dict[str, Any]:
    """Write `model`'s sentence and frame graphs (float32) and their manifest into `folder`, each file whole or not
    at all; the manifest written."""
    model = model.eval()
    prepared = model.prepare(EXAMPLE, [None, None])
    word_mask = torch.arange(int(prepared.lengths.max())).unsqueeze(0) < prepared.lengths.unsqueeze(1)
    sentence_inputs = (*model.embedder.graph_example(prepared.embedder_inputs), word_mask)
    sentence_outputs = SENTENCE_OUTPUTS[: 1 if model.predicate_head is None else 2]
    written = manifest(model, sentence_outputs)
    os.makedirs(folder, exist_ok=True)
    with torch.no_grad():
        words = SentenceGraph(model)(*sentence_inputs)[0]
        names = written["graphs"]["sentences"]["inputs"]
        axes = {name: _free_axes(name) for name in [*names, *sentence_outputs]}
        _export(SentenceGraph(model), sentence_inputs, names, list(sentence_outputs), axes, folder, SENTENCE_GRAPH)
        frame_inputs = (words, word_mask, torch.tensor([0, 0, 1]), torch.tensor([1, 3, 1]))
        axes = {name: _free_axes(name) for name in [*FRAME_INPUTS, *FRAME_OUTPUTS]}
        _export(FrameGraph(model), frame_inputs, list(FRAME_INPUTS), list(FRAME_OUTPUTS), axes, folder, FRAME_GRAPH)
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
    inputs: list[str],
    outputs: list[str],
    axes: dict[str, dict[int, str]],
    folder: str,
    name: str,
) -> None:
    """`graph` traced on `example` and written as `folder/name` (beside it first, then renamed)."""
    with tempfile.TemporaryDirectory(dir=folder) as scratch, quietly():
        path = os.path.join(scratch, name)
        torch.onnx.export(
            graph.eval(), example, path, input_names=inputs, output_names=outputs, dynamic_axes=axes,
            opset_version=OPSET, dynamo=False,
        )  # fmt: skip
        os.replace(path, os.path.join(folder, name))
