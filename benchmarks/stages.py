"""Where the time of labeling raw text goes, stage by stage, for each archive given, on one thread (a benchmark):
the first N sentences of a gold file as raw text (one line each, words joined by spaces) through `srl_zoo.load`
with no flags (what `srl-zoo label` runs), best of `--rounds` whole passes; each stage's time is its own,
without the stages it calls.

    python -m benchmarks stages models/ewt-english.tar.gz models/ewt-english-accurate.tar.gz \
        data/ewt/conll2012/dev.gold_conll.gz --sentences 300

Stages: spaCy's sentence splitting and tokenizing; word pieces; the rest of building a batch's tensors; the
transformer (the embedder's forward: encoder and word pooling); the sentence layers and predicate head; the
per-predicate layers; decoding (Viterbi); span scores; reading tags out as frames; readable frames (lemma,
roleset, role descriptions) and JSON values. "other" is the rest (batching, Python between stages).
"""

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import torch

import srl_zoo
from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.leaderboard.machine import processor_name


class StageClock:
    """Seconds per stage, each stage's own (a stage called inside another is taken out of the outer one)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._inner: list[float] = []  # per open stage: seconds spent in the stages it called

    def wrap(self, owner: Any, attribute: str, stage: str) -> None:
        """Replace `owner.attribute` (a method or function) by one that times its calls as `stage`."""
        original: Callable[..., Any] = getattr(owner, attribute)

        def timed(*args: Any, **kwargs: Any) -> Any:
            self._inner.append(0.0)
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - started
                inner = self._inner.pop()
                self.seconds[stage] = self.seconds.get(stage, 0.0) + elapsed - inner
                if self._inner:
                    self._inner[-1] += elapsed

        setattr(owner, attribute, timed)


def instrumented(archive: str) -> tuple[Any, StageClock]:
    """The archive's labeler (`srl_zoo.load`, no flags) with every stage timed."""
    import srl_zoo.runtime.labeler as labeler_module

    labeler = srl_zoo.load(archive)
    clock = StageClock()
    model = labeler.model
    clock.wrap(labeler, "split", "spaCy: sentences and words")
    clock.wrap(model.embedder, "prepare", "word pieces")
    clock.wrap(labeler, "prepare_batch", "batch tensors")
    clock.wrap(model.embedder, "forward", "transformer")
    clock.wrap(model.frame_scorer, "encode_sentences", "sentence layers, predicate head")
    if model.predicate_head is not None:
        clock.wrap(model.predicate_head, "tag", "sentence layers, predicate head")
    clock.wrap(model.frame_scorer, "forward", "per-predicate layers")
    clock.wrap(model.frame_scorer, "decode", "decoding")
    clock.wrap(model.frame_scorer, "span_log_probabilities", "span scores")
    clock.wrap(model.readout, "readable", "tags read out as frames")
    clock.wrap(labeler_module, "finish_sentence", "readable frames, JSON values")
    clock.wrap(labeler_module, "json_values", "readable frames, JSON values")
    return labeler, clock


def profile(archive: str, lines: list[str], rounds: int) -> dict[str, Any]:
    """The best round's total and stage seconds of labeling `lines` (each a text) with `archive`."""
    labeler, clock = instrumented(archive)
    best: dict[str, Any] = {}
    for _ in range(rounds):
        clock.seconds = {}
        started = time.perf_counter()
        sentences = [sentence for text in labeler.pipe(lines) for sentence in text]
        total = time.perf_counter() - started
        if not best or total < best["seconds"]:
            words = sum(len(sentence["words"]) for sentence in sentences)
            stages = dict(clock.seconds)
            stages["other"] = total - sum(stages.values())
            best = {"seconds": total, "words": words, "stages": stages, "precision": labeler.precision}
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archives", nargs="+", help="srl_zoo archives, then the gold file the text comes from")
    parser.add_argument("--sentences", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    *archives, gold = args.archives
    torch.set_num_threads(1)
    lines = [
        " ".join(s.tokens) for _, s in zip(range(args.sentences), READERS[detect_format(gold)](gold), strict=False)
    ]
    print(f"{len(lines)} sentences of {gold} as raw text, one thread, {processor_name()}")
    results = {archive: profile(archive, lines, args.rounds) for archive in archives}
    for archive, result in results.items():
        speed = result["words"] / result["seconds"]
        print(f"\n{archive} ({result['precision']}): {result['seconds']:.2f} s, {speed:,.0f} words/s")
        for stage, seconds in sorted(result["stages"].items(), key=lambda item: -item[1]):
            print(f"  {stage:38s} {seconds:7.3f} s  {100 * seconds / result['seconds']:5.1f}%")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
