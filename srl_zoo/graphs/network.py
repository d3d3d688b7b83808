"""An archive's inference graphs run as the labeling network: word pieces on the host, the sentence graph over a
batch, the predicates chosen, the frame graph over the (sentence, predicate) rows in chunks of similar length, the
tags decoded and scored in numpy, and the frames read out (`srl_zoo.parts.frame_readout`, shared with torch)."""

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from srl_zoo.archive_cache import content_digest
from srl_zoo.archive_files import ArchiveError
from srl_zoo.graphs.contract import (
    EMBEDDER_INPUTS,
    FORMAT,
    FRAME_INPUTS,
    FRAME_OUTPUTS,
    GRAPH_FILE,
    MANIFEST,
    SENTENCE_OUTPUTS,
    WEIGHTS_DIGEST,
    WORD_MASK,
)
from srl_zoo.graphs.crf_decoding import CrfDecoder
from srl_zoo.graphs.engine import graph_session
from srl_zoo.graphs.graph_check import check_graph
from srl_zoo.graphs.graph_precision import PRECISION_GRAPHS
from srl_zoo.graphs.predicates import PredicateDecoder, chosen_predicates
from srl_zoo.parts.frame_readout import FrameReadout
from srl_zoo.pretrained.word_pieces import PieceBatch, WordPieces

#: padded row tokens per frame-graph call, at most (rows of similar length go together)
ROW_TOKENS = 8192


def read_manifest(archive: str, folder: str) -> Optional[dict[str, Any]]:
    """The manifest of the graphs of `archive` (extracted in `folder`), None where it has none; `ArchiveError`
    naming the archive where it is no JSON object of this format."""
    path = os.path.join(folder, MANIFEST)
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
    except (OSError, ValueError) as error:
        raise ArchiveError(archive, f"{MANIFEST}: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else manifest
        raise ArchiveError(archive, f"{MANIFEST}: format {found!r}, not {FORMAT}")
    return manifest


@dataclass
class GraphBatch:
    """One batch as the host prepared it.

    # Parameters

    words : each sentence's words. pieces : their word pieces. word_mask : `(batch, num_words)` bool.
    predicates : per sentence the given predicate indices, None where the head is to find them.
    """

    words: list[list[str]]
    pieces: PieceBatch
    word_mask: np.ndarray
    predicates: list[Optional[list[int]]]


class GraphNetwork:
    """The labeling network of an archive's inference graphs.

    # Parameters

    archive : the archive's path (named in errors). folder : where it was extracted (its graphs, `weights.th` and
        `transformer/` tokenizer). manifest : its `graphs.json` (`read_manifest`). threads : the engine's threads per
        call. precision : which of the manifest's graphs run: `float32` (`graphs`) or `int8` (`int8_graphs`, with
        the same inputs and outputs).
    """

    def __init__(
        self, archive: str, folder: str, manifest: dict[str, Any], threads: int, precision: str = "float32"
    ) -> None:
        self.manifest = manifest
        recorded = manifest.get(WEIGHTS_DIGEST)
        if recorded != content_digest(os.path.join(folder, "weights.th")):
            raise ArchiveError(archive, "weights.th: not the weights its graphs were made from (graphs.json's digest)")
        embedder, head = self.manifest["embedder"], self.manifest.get("predicate_head")
        expected = {  # the contract's inputs and outputs: the sentence graph gives the head's logits where it has one
            "sentences": ([*EMBEDDER_INPUTS[embedder["type"]], WORD_MASK], SENTENCE_OUTPUTS[: 2 if head else 1]),
            "frames": (FRAME_INPUTS, FRAME_OUTPUTS),
        }
        graphs = self.manifest.get(PRECISION_GRAPHS[precision])
        if not isinstance(graphs, dict):
            raise ArchiveError(archive, f"{MANIFEST}: no {precision} graphs")
        self.precision = precision
        self.sessions = {}
        for part, (inputs, outputs) in expected.items():
            entry = graphs.get(part)
            if not isinstance(entry, dict):
                raise ArchiveError(archive, f"{MANIFEST}: no {precision} {part} graph")
            if not re.fullmatch(GRAPH_FILE, str(entry.get("file"))):
                raise ArchiveError(archive, f"{MANIFEST}: graph file {entry.get('file')!r} is no graph-*.onnx name")
            path = os.path.join(folder, entry["file"])
            check_graph(archive, path, folder, inputs, outputs)
            self.sessions[part] = graph_session(path, threads)
        self.pieces = WordPieces(os.path.join(folder, "transformer"), embedder.get("max_length"))
        self.tags = dict(enumerate(self.manifest["tags"]))
        try:
            self.decoder = CrfDecoder.from_json(self.manifest["decoder"], self.manifest["tags"])
        except ValueError as error:
            raise ArchiveError(archive, f"{MANIFEST}: {error}") from None
        self.predicate_head = PredicateDecoder(head) if head else None
        self.temperature = float(self.manifest.get("score_temperature", 1.0))
        self.readout = FrameReadout(self.tags, self.predicate_head)

    def prepare(self, words: Sequence[Sequence[str]], predicates: Sequence[Optional[list[int]]]) -> GraphBatch:
        """The host's work for one batch of (non-empty) sentences."""
        lengths = np.array([len(sentence) for sentence in words])
        word_mask = np.arange(lengths.max()) < lengths[:, None]
        return GraphBatch([list(s) for s in words], self.pieces.batch(words), word_mask, list(predicates))

    def decode(self, batch: GraphBatch) -> dict[str, Any]:
        """The decoded batch as the readout reads it (`LabelingModel.decode`'s keys, numpy arrays)."""
        pieces = batch.pieces
        inputs = {
            "piece_ids": pieces.ids, "piece_mask": pieces.attention_mask.astype(np.int64),
            "piece_rows": pieces.piece_rows, "piece_positions": pieces.piece_positions,
            "piece_slots": pieces.piece_slots, WORD_MASK: batch.word_mask,
        }  # fmt: skip
        found = self.sessions["sentences"].run(None, inputs)
        words = found[0]
        outputs: dict[str, Any] = {"mask": batch.word_mask, "words": batch.words}
        is_predicate = None
        if self.predicate_head is not None:
            label_ids, scores = self.predicate_head.decode(found[1], batch.word_mask, batch.words)
            outputs |= {"predicate_label_ids": label_ids, "predicate_scores": scores}
            is_predicate = label_ids != self.predicate_head.not_a_predicate
        indices = chosen_predicates(batch.predicates, is_predicate)
        tags, span_logs = self._frames(words, batch.word_mask, indices)
        return outputs | {"predicate_indices": indices, "predicted_tags": tags, "span_log_probabilities": span_logs}

    def _frames(self, words: np.ndarray, word_mask: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`(batch, num_frames, num_words)` the decoded tags (-1 outside real frames and words) and each decoded
        span's log-probability at its last word (0 outside real frames)."""
        batch, num_frames = indices.shape
        num_words = word_mask.shape[1]
        tags = np.full((batch, num_frames, num_words), -1, dtype=np.int64)
        span_logs = np.zeros((batch, num_frames, num_words), dtype=np.float32)
        row_sentences, row_frames = np.nonzero(indices >= 0)
        lengths = word_mask.sum(-1)[row_sentences]
        order = np.argsort(-lengths, kind="stable")
        start = 0
        while start < len(order):
            longest = max(int(lengths[order[start]]), 1)
            chunk = order[start : start + max(1, ROW_TOKENS // longest)]
            sentences, frames = row_sentences[chunk], row_frames[chunk]
            feed = {"words": words[:, :longest], WORD_MASK: word_mask[:, :longest], "row_sentences": sentences,
                    "row_predicates": indices[sentences, frames]}  # fmt: skip
            (scores,) = self.sessions["frames"].run(None, feed)  # (rows, longest, num_labels)
            row_mask = word_mask[sentences, :longest]
            path = self.decoder.decode(scores, row_mask)
            tags[sentences, frames, :longest] = np.where(row_mask, path, -1)
            span_logs[sentences, frames, :longest] = self.decoder.span_log_probabilities(
                scores, path, row_mask, self.temperature
            )
            start += len(chunk)
        return tags, span_logs

    def readable_frames(self, decoded: dict[str, Any]) -> list[list[dict[str, Any]]]:
        """Each sentence's frames (`frame_json`'s form) of a decoded batch."""
        return self.readout.readable(decoded, dependency=False)
