"""What keeping frames valid costs (a benchmark): an archive's default labeling (`srl_zoo.load`, no flags: through its
inference graphs where it has them) with its CRF decoding under BIO alone (`viterbi`) and under PropBank's frame
constraints (`valid_frames`), alternating in one run on one thread, best of `--rounds`: tokens/s of each, the ratio,
and how many frames of each break a constraint (a core role twice, a C-X before any X, an R-X without an X).

    python -m benchmarks valid_frames models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz
"""

import argparse
import dataclasses
from typing import Any

import torch

import srl_zoo
from benchmarks.alternating_runs import best_of_alternating_runs
from srl_zoo.data.gold_requests import as_request, gold_sentence_batches
from srl_zoo.frames.valid_frames import FrameConstraints
from srl_zoo.leaderboard.machine import processor_name


def broken_frames(outputs: list[list[dict[str, Any]]], constraints: FrameConstraints) -> int:
    """The frames of labeled batches `outputs` that break a constraint."""
    ids = {label: index for index, label in enumerate(constraints.labels)}
    return sum(
        bool(constraints.broken_roles([ids[tag] for tag in frame["tags"]]))
        for batch in outputs
        for sentence in batch
        for frame in sentence["frames"]
    )


def set_decoding(labeler: Any, decoding: str) -> None:
    """Make `labeler` (the torch runtime's, or the graphs' where the archive has them) decode its CRF's scores by
    `decoding`."""
    if hasattr(labeler, "network"):  # a GraphLabeler: its numpy decoder keeps the constraints or not
        tags = [labeler.tags[i] for i in range(len(labeler.tags))]
        constraints = FrameConstraints(tags) if decoding == "valid_frames" else None
        labeler.network.decoder = dataclasses.replace(labeler.network.decoder, constraints=constraints)
    else:
        labeler.model.frame_scorer.set_decoding(decoding)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", help="an srl_zoo archive with a crf output layer")
    parser.add_argument("data", help="gold file (CoNLL-2005/2012/2009)")
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    batches, tokens = gold_sentence_batches(args.data, sentences=args.sentences)
    labelers = {decoding: srl_zoo.load(args.archive) for decoding in ("viterbi", "valid_frames")}
    for decoding, labeler in labelers.items():
        set_decoding(labeler, decoding)
    runs = {
        decoding: lambda b, labeler=labeler: labeler.label_tokenized([as_request(s) for s in b])
        for decoding, labeler in labelers.items()
    }
    best, outputs = best_of_alternating_runs(runs, batches, tokens, args.rounds, tags_of=lambda labeled: labeled)
    constraints = FrameConstraints([labelers["viterbi"].tags[i] for i in range(len(labelers["viterbi"].tags))])
    frames = sum(len(sentence["frames"]) for batch in outputs["viterbi"] for sentence in batch)
    print(f"{tokens:,} tokens, {frames:,} frames in {len(batches)} batches, one thread, {processor_name()}; "
          f"precision {labelers['viterbi'].precision}")  # fmt: skip
    for decoding, speed in best.items():
        broken = broken_frames(outputs[decoding], constraints)
        ratio = speed / best["viterbi"]
        print(f"  {decoding:12s} {speed:8,.0f} tokens/s  {ratio:.3f}x  {broken} frames break a constraint")


if __name__ == "__main__":
    main()
