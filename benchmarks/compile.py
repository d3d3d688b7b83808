"""Prediction with the encoder under `torch.compile` against eager PyTorch, float32, one thread, in one
run (a benchmark): the first N dev sentences at their gold predicates through the `srl_zoo` predictor,
batches of similar length, eager and compiled measured alternately (best of 2), the compile time apart,
and the outputs compared.

    python -m benchmarks compile models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz
"""

import time

import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo.plugin  # noqa: F401
from benchmarks.alternating_runs import best_of_alternating_runs, print_against
from benchmarks.arguments import archive_parser
from srl_zoo.data.gold_requests import gold_predicate_batches


def main() -> None:
    parser = archive_parser(__doc__)
    parser.add_argument("--sentences", type=int, default=300)
    parser.add_argument("--mode", default="default", help="torch.compile mode")
    args = parser.parse_args()
    torch.set_num_threads(1)
    batches, tokens = gold_predicate_batches(args.data, sentences=args.sentences)
    eager = Predictor.from_archive(load_archive(args.archive), "srl_zoo", extra_args={"precision": "float32"})
    compiled = Predictor.from_archive(load_archive(args.archive), "srl_zoo", extra_args={"precision": "float32"})
    embedder = compiled._model.text_field_embedder._token_embedders["tokens"]._matched_embedder
    embedder.transformer_model = torch.compile(embedder.transformer_model, mode=args.mode, dynamic=True)
    started = time.perf_counter()
    for batch in batches:  # compiles, once per shape family
        compiled.predict_batch_json(batch)
    compile_seconds = time.perf_counter() - started
    runs = {"eager": eager.predict_batch_json, "compiled": compiled.predict_batch_json}
    best, tags = best_of_alternating_runs(runs, batches, tokens, rounds=2)
    print(f"first pass (compiling): {compile_seconds:.0f} s")
    print_against("eager", best, tags)


if __name__ == "__main__":
    main()
