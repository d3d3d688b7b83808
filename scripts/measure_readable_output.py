"""Measure the readable output of a model on a CoNLL-2012 dev file (docs/output.md):

    python scripts/measure_readable_output.py models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz \
        --train data/ewt/conll2012/train.gold_conll.gz --diagram docs/images/calibration.png --json out.json

- lemma accuracy: the output's `lemma` of each gold predicate against the file's lemma column (the predicate
  lemma: `serve` for `service`);
- sense and roleset accuracy with gold predicates: the predicted sense suffix and roleset (`come.03`) against
  the file's, overall and for predicates whose word form never was a predicate in `--train`;
- calibration: the expected calibration error (10 bins) of argument scores (an argument is right when its
  role and span are a gold argument of its predicate), on the first and on the second half of the
  sentences (each held out: nothing is fitted on either), with the reliability diagram of all;
- the cost of the scores: prediction time with and without them (alternating runs, best of `--repeats`).
"""

import argparse
import json
import sys
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import srl_zoo.plugin  # noqa: E402
from srl_zoo.analysis.calibration import calibration_bins  # noqa: E402
from srl_zoo.analysis.plots import plot_reliability  # noqa: E402
from srl_zoo.api import predict_by_length  # noqa: E402
from srl_zoo.commands.score_calibration import argument_outcomes, ece_of  # noqa: E402
from srl_zoo.data.formats.conll2012 import read_conll2012  # noqa: E402
from srl_zoo.front.batch_budget import BatchBudget  # noqa: E402


def share(hits: list[bool]) -> dict[str, float]:
    return {"accuracy": round(100.0 * sum(hits) / max(1, len(hits)), 2), "count": len(hits)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("archive")
    parser.add_argument("dev")
    parser.add_argument("--train", required=True, help="the training file (which word forms were predicates)")
    parser.add_argument("--diagram", help="write the reliability diagram here (PNG)")
    parser.add_argument("--json", help="write the numbers here")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timing-sentences", type=int, default=400)
    args = parser.parse_args()

    seen = {
        frame_word.lower() for s in read_conll2012(args.train) for frame_word in (s.tokens[f.index] for f in s.frames)
    }
    dev = list(read_conll2012(args.dev))

    labeler = srl_zoo.load(args.archive, precision="float32")
    predictor = labeler.predictor
    sentences = [s.tokens for s in dev]
    predicates = [[f.index for f in s.frames] for s in dev]
    outputs = predict_by_length(predictor, sentences, BatchBudget(64), predicates=predicates)

    lemma_hits, senses, rolesets, senses_unseen, rolesets_unseen = [], [], [], [], []
    for sentence, output in zip(dev, outputs, strict=True):
        gold = {f.index: f for f in sentence.frames}
        for frame in output["frames"]:
            truth = gold[frame["predicate"]["index"]]
            lemma_hits.append(frame["predicate"]["lemma"] == (truth.lemma or "").lower())
            gold_sense = (truth.sense or "").rsplit(".", 1)[-1]
            sense_right = frame["predicate"].get("sense") == gold_sense
            roleset_right = frame["predicate"].get("roleset") == truth.sense
            senses.append(sense_right)
            rolesets.append(roleset_right)
            if frame["predicate"]["word"].lower() not in seen:
                senses_unseen.append(sense_right)
                rolesets_unseen.append(roleset_right)

    scored = argument_outcomes(dev, outputs)
    half = len(dev) // 2
    calibration = {}
    for name, part in (
        ("first half", [o for o in scored if o.sentence < half]),
        ("second half", [o for o in scored if o.sentence >= half]),
        ("all", scored),
    ):
        calibration[name] = {"ece": round(ece_of(part), 4), "arguments": len(part)}
    bins = calibration_bins([o.score for o in scored], [o.right for o in scored])
    if args.diagram:
        plot_reliability(
            bins, args.diagram, f"argument scores, EWT dev, gold predicates (ECE {calibration['all']['ece']:.3f})"
        )

    timing_sentences = sorted(sentences, key=len)[:: max(1, len(sentences) // args.timing_sentences)]
    model = predictor.model
    best = {"with scores": float("inf"), "without scores": float("inf")}
    original = model.with_span_scores
    for _ in range(args.repeats):
        for name in best:
            model.with_span_scores = original if name == "with scores" else nullcontext  # type: ignore[method-assign]
            started = time.perf_counter()
            predict_by_length(predictor, timing_sentences, BatchBudget(64))
            best[name] = min(best[name], time.perf_counter() - started)
    model.with_span_scores = original  # type: ignore[method-assign]

    results = {
        "score temperature": model.score_temperature,
        "lemma accuracy (gold predicates)": share(lemma_hits),
        "sense accuracy": share(senses),
        "sense accuracy, word forms unseen in training": share(senses_unseen),
        "roleset accuracy": share(rolesets),
        "roleset accuracy, word forms unseen in training": share(rolesets_unseen),
        "calibration (argument scores, 10 bins)": calibration,
        "reliability bins": [b._asdict() for b in bins],
        "prediction seconds (best of repeats)": {name: round(value, 3) for name, value in best.items()},
        "scoring overhead %": round(100.0 * (best["with scores"] / best["without scores"] - 1.0), 1),
        "timing sentences": len(timing_sentences),
    }
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
