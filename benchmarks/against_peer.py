"""srl_zoo's default prediction (`srl_zoo.load(archive)`, no flags: what `srl-zoo label` and the API run) against
allennlp-models' BiLSTM `srl` peer, measured alternately in one run on one thread (a benchmark): the first N
sentences of a gold file at their gold predicates, sorted by length and cut into batches of 64, best of `--rounds`
each (the first round warms up). srl_zoo labels the words (word pieces, the model, decoding, readable frames); the
peer goes through the leaderboard's labeling of a peer archive (one instance per predicate, as allennlp-models'
predictor makes them, and its Viterbi decoding). Beside them: srl_zoo in float32 (and in bfloat16 where the CPU
has it natively), to show what `auto` chose and what the other precision would give, and srl_zoo through
allennlp's predictor (the training side's path), and any `--also` archive with no flags (a candidate beside the
shipped model).

    scripts/speed_peer.sh runs/speed-peer
    PYTHONPATH=.cache/allennlp-models python -m benchmarks against_peer models/ewt-english.tar.gz \
        runs/speed-peer/run/model.tar.gz data/ewt/conll2012/dev.gold_conll.gz

The peer's archive is the leaderboard's row (`python scripts/leaderboard.py leaderboards/ewt.jsonnet`), or any
`srl` archive of allennlp-models' BiLSTM with the EWT vocabulary (`scripts/speed_peer.sh` trains one in minutes):
its speed does not depend on how long it trained (the same layers and decoding whatever the weights), but it does
on its tag set (a peer trained on a fixture knows a third of EWT's tags and decodes faster).
"""

import argparse

import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo
import srl_zoo.plugin  # noqa: F401  (registers the predictor, applies the patches)
from benchmarks.alternating_runs import best_of_alternating_runs
from srl_zoo.data.gold_requests import as_request, gold_sentence_batches
from srl_zoo.leaderboard.machine import processor_name
from srl_zoo.leaderboard.peers import _label
from srl_zoo.nn.precision import cpu_has_fast_bfloat16


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", help="srl_zoo archive (models/ewt-english.tar.gz)")
    parser.add_argument("peer", help="allennlp-models `srl` archive")
    parser.add_argument("data", help="gold file (CoNLL-2005/2012/2009)")
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--also", action="append", default=[], metavar="ARCHIVE", help="another srl_zoo archive, no flags (repeatable)"
    )
    args = parser.parse_args()
    torch.set_num_threads(1)

    import allennlp_models.structured_prediction  # noqa: F401  (the peer's model and reader)

    batches, tokens = gold_sentence_batches(args.data, sentences=args.sentences)
    default = srl_zoo.load(args.model)
    float32 = srl_zoo.load(args.model, precision="float32")
    bfloat16 = srl_zoo.load(args.model, precision="bfloat16")
    through_allennlp = Predictor.from_archive(load_archive(args.model), "srl_zoo")
    peer = load_archive(args.peer)
    peer.model.eval()
    runs = {
        "peer (allennlp-models srl, its default: float32)": lambda b: _label(
            peer.model, peer.validation_dataset_reader, b
        ),
        "srl_zoo, default (srl_zoo.load, no flags)": lambda b: default.label_tokenized([as_request(s) for s in b]),
        "srl_zoo, float32": lambda b: float32.label_tokenized([as_request(s) for s in b]),
        "srl_zoo through allennlp's predictor, no flags": lambda b: through_allennlp.predict_batch_json(
            [as_request(s) for s in b]
        ),
    }
    for archive in args.also:  # e.g. a candidate against the shipped model, in the same run
        other = srl_zoo.load(archive)
        runs[f"srl_zoo, default, {archive}"] = lambda b, other=other: other.label_tokenized([as_request(s) for s in b])
    if cpu_has_fast_bfloat16():  # emulated bfloat16 is about 7 times slower: not worth a row elsewhere
        runs["srl_zoo, bfloat16"] = lambda b: bfloat16.label_tokenized([as_request(s) for s in b])
    best, _ = best_of_alternating_runs(runs, batches, tokens, args.rounds, tags_of=lambda outputs: [])
    print(
        f"{tokens:,} tokens in {len(batches)} batches, one thread, {processor_name()}; srl_zoo's default chose "
        f"{default.precision}"
    )
    reference = next(iter(best))
    for name, speed in best.items():
        print(f"{name}: {speed:,.0f} tokens/s ({speed / best[reference]:.2f}x the peer)")


if __name__ == "__main__":
    main()
