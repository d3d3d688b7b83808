"""The inference graphs against the torch network, same run (a benchmark): the first N sentences of a gold file as
raw text through the torch runtime in float32 and with no flags (`auto`), and through the archive's graphs in
float32 and with no flags (`auto`: int8 where the archive records it keeps the F1) on one thread and on two (exported
into a temporary archive when it has none), rounds alternating, best of `--rounds`; then the no-flags graph path's
stages, and whether the float32 graphs' tags are the torch float32 path's.

    python -m benchmarks graph_path models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz --sentences 300

Stages of the graph path: spaCy; word pieces; the sentence graph (transformer, sentence layers, predicate head's
logits); predicates (senses, scores); the frame graph; Viterbi; span scores; frames read out; readable frames and
JSON values; "other" is the rest.
"""

import argparse
import json
import os
import tempfile
import time
from typing import Any

import torch

import srl_zoo.front.request_labeling as request_labeling
from benchmarks.stages import StageClock
from srl_zoo.archive_cache import extracted_archive
from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.graphs import crf_decoding
from srl_zoo.graphs import labeler as graph_labeler
from srl_zoo.graphs.contract import MANIFEST
from srl_zoo.leaderboard.machine import processor_name
from srl_zoo.runtime.graph_export import archive_with_graphs
from srl_zoo.runtime.labeler import load as load_torch


def with_graphs(archive: str, folder: str) -> str:
    """`archive` itself where it holds graphs, else a copy (uncompressed) with its network's graphs."""
    with extracted_archive(archive) as extracted:
        if os.path.isfile(os.path.join(extracted, MANIFEST)):
            return archive
    return archive_with_graphs(archive, os.path.join(folder, "with-graphs.tar"))


def timed_stages(labeler: Any) -> StageClock:
    """A clock on every stage of a `GraphLabeler`."""
    clock = StageClock()
    network = labeler.network
    clock.wrap(labeler, "split", "spaCy: sentences and words")
    clock.wrap(network.pieces, "batch", "word pieces")
    for part, session in network.sessions.items():
        clock.wrap(session, "run", f"{part} graph")
    if network.predicate_head is not None:
        clock.wrap(network.predicate_head, "decode", "predicates: senses, scores")
    clock.wrap(crf_decoding.CrfDecoder, "viterbi", "Viterbi")
    clock.wrap(crf_decoding, "valid_paths", "valid frames: broken ones decoded again")
    clock.wrap(crf_decoding.CrfDecoder, "span_log_probabilities", "span scores")
    clock.wrap(network.readout, "readable", "tags read out as frames")
    clock.wrap(request_labeling, "finish_sentence", "readable frames, JSON values")
    clock.wrap(request_labeling, "json_values", "readable frames, JSON values")
    return clock


class _Session:
    """An ONNX Runtime session whose `run` can be wrapped (the engine's own object cannot take attributes)."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def run(self, *args: Any) -> Any:
        return self.session.run(*args)


def label(labeler: Any, lines: list[str]) -> tuple[float, list[dict[str, Any]]]:
    """Seconds and sentences of labeling `lines`."""
    started = time.perf_counter()
    sentences = [sentence for text in labeler.pipe(lines) for sentence in text]
    return time.perf_counter() - started, sentences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("gold")
    parser.add_argument("--sentences", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    lines = [" ".join(s.tokens) for _, s in zip(range(args.sentences), READERS[detect_format(args.gold)](args.gold),
                                                strict=False)]  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        graphs_archive = with_graphs(args.archive, folder)
        labelers = {
            "torch float32": load_torch(args.archive, precision="float32"),
            "torch, no flags": load_torch(args.archive),
            "graphs float32, 1 thread": graph_labeler.load(graphs_archive, threads=1, precision="float32"),
            "graphs float32, 2 threads": graph_labeler.load(graphs_archive, threads=2, precision="float32"),
            "graphs, no flags, 1 thread": graph_labeler.load(graphs_archive, threads=1),
            "graphs, no flags, 2 threads": graph_labeler.load(graphs_archive, threads=2),
        }
        graph_runs = [name for name in labelers if name.startswith("graphs")]
        for name in graph_runs:
            network = labelers[name].network
            network.sessions = {part: _Session(session) for part, session in network.sessions.items()}
        best: dict[str, float] = {}
        outputs: dict[str, list[dict[str, Any]]] = {}
        for _ in range(args.rounds):
            for name, labeler in labelers.items():
                seconds, outputs[name] = label(labeler, lines)
                best[name] = min(best.get(name, seconds), seconds)
        clock = timed_stages(labelers["graphs, no flags, 1 thread"])
        total, _ = label(labelers["graphs, no flags, 1 thread"], lines)
    words = sum(len(sentence["words"]) for sentence in outputs["torch float32"])
    print(f"{len(lines)} sentences of {args.gold} as raw text ({words} words), {processor_name()}")
    for name, seconds in best.items():
        precision = labelers[name].precision
        print(f"  {name:20s} ({precision}) {words / seconds:8,.0f} words/s  {best['torch float32'] / seconds:5.2f}x")
    tags = [[frame["tags"] for frame in sentence["frames"]] for sentence in outputs["torch float32"]]
    same = sum(
        ours == [frame["tags"] for frame in sentence["frames"]]
        for ours, sentence in zip(tags, outputs["graphs float32, 1 thread"], strict=True)
    )
    print(f"  the float32 graphs' tags are torch float32's on {same} of {len(tags)} sentences")
    staged = labelers["graphs, no flags, 1 thread"].precision
    print(f"\ngraph path stages, no flags ({staged}), one thread ({total:.2f} s):")
    stages = dict(clock.seconds)
    stages["other"] = total - sum(stages.values())
    for stage, seconds in sorted(stages.items(), key=lambda item: -item[1]):
        print(f"  {stage:38s} {seconds:7.3f} s  {100 * seconds / total:5.1f}%")
    print(json.dumps({"words": words, "seconds": best, "same_tags": same, "sentences": len(tags), "stages": stages}))


if __name__ == "__main__":
    main()
