"""Training and prediction throughput of a training config (a benchmark, not a test).

Usage:
  SRL_TRAIN_DATA=train.txt SRL_DEV_DATA=dev.txt \
    python -m benchmarks speed training_configs/deepatt/ffn_conll2005.jsonnet \
      [--train-batches 40] [--max-instances 3000] [--threads 1] [--cuda] [--amp]

Reports tokens/s counted two ways: sentence tokens, and (sentence, predicate)-row tokens, the unit
of per-predicate models such as allennlp-models' `srl` (each sentence is encoded once per predicate).
Prediction runs over the first --max-instances dev sentences with gold predicates, no gradient,
twice: `predict_*` times the model alone (forward + decoding) on batches tensorized and moved to the
device beforehand, given only the words and the predicates (no gold labels: no losses, no metrics),
`--predict-repeats` times over; `end_to_end_*` times
allennlp's data loader (batching, tensorization) + the model + the metric, as validation does.
`--predict-max-tokens` sets the prediction batch size in sentence tokens (default: the config's).
Peak memory: CUDA max allocated, or the process's max resident set size on CPU.
"""

import argparse
import json
from collections.abc import Iterable, Iterator
from typing import Any

import torch
from allennlp.common import Params
from allennlp.data import DataLoader, DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp.nn import util as nn_util
from allennlp.training.optimizers import Optimizer

import srl_zoo.plugin  # noqa: F401
from benchmarks.timing import device_name, peak_memory_mib, timed


def count_tokens(batch: dict) -> tuple[int, int]:
    mask = nn_util.get_text_field_mask(batch["tokens"])  # any indexer (word ids or transformer pieces)
    lengths = mask.sum(-1)
    frames = (batch["frames"]["predicate_indices"] >= 0).sum(-1)
    return int(lengths.sum()), int((lengths * frames).sum())


def loader_for(
    params: Params, reader: DatasetReader, path: str, vocab: Vocabulary, key: str, max_instances: int
) -> Iterable:
    reader.max_instances = max_instances
    loader = DataLoader.from_params(
        params.get(key, params.get("data_loader")).duplicate(), reader=reader, data_path=path
    )
    loader.index_with(vocab)
    return loader


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config")
    parser.add_argument("--train-batches", type=int, default=40)
    parser.add_argument("--warmup-batches", type=int, default=5)
    parser.add_argument("--max-instances", type=int, default=3000)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--cuda", action="store_true")
    parser.add_argument("--amp", action="store_true", help="bfloat16 autocast on CUDA")
    parser.add_argument("--overrides", default="")
    parser.add_argument(
        "--decoding", choices=["argmax", "viterbi"], default=None, help="override the config's decoding"
    )
    parser.add_argument("--predict-max-tokens", type=int, default=None, help="prediction batch size in sentence tokens")
    parser.add_argument("--predict-repeats", type=int, default=3)
    parser.add_argument(
        "--min-predicates", type=int, default=0, help="only sentences with at least this many predicates"
    )
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device("cuda" if args.cuda else "cpu")
    params = Params.from_file(args.config, args.overrides)
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    reader.max_instances = args.max_instances
    if args.min_predicates:  # keep sentences with many predicates (where one pass per sentence pays most)
        read_all = reader._read
        reader._read = lambda path: (i for i in read_all(path) if len(i["frames"]) >= args.min_predicates)
    train_path, dev_path = params.pop("train_data_path"), params.pop("validation_data_path")
    vocab = Vocabulary.from_instances(list(reader.read(train_path)) + list(reader.read(dev_path)))
    model_params = params.pop("model")
    if args.decoding:
        scorer = model_params["frame_scorer"]
        scorer["output"] = {
            **(scorer.as_dict(quiet=True).get("output") or {"type": "softmax"}),
            "decoding": args.decoding,
        }
    if args.predict_max_tokens:
        params["validation_data_loader"]["batch_sampler"] = {  # whatever the config batches by
            "type": "max_tokens_sampler",
            "max_tokens": args.predict_max_tokens,
            "sorting_keys": ["tokens"],
        }
    model = Model.from_params(vocab=vocab, params=model_params).to(device)
    trainer_params = params.get("trainer")
    parameters = [[n, p] for n, p in model.named_parameters() if p.requires_grad]
    optimizer = Optimizer.from_params(model_parameters=parameters, params=trainer_params.pop("optimizer"))
    autocast = torch.autocast("cuda", dtype=torch.bfloat16, enabled=args.amp and args.cuda)

    model.train()

    def training_batches() -> Iterator[dict[str, Any]]:
        """The training data's batches on the device, epoch after epoch."""
        while True:
            for batch in loader_for(params, reader, train_path, vocab, "data_loader", args.max_instances):
                yield nn_util.move_to_device(batch, device)

    def train_step(batch: dict[str, Any]) -> None:
        optimizer.zero_grad()
        with autocast:
            loss = model(**batch)["loss"]
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    batches = training_batches()
    for _ in range(args.warmup_batches):
        train_step(next(batches))
    sentence_tokens = row_tokens = 0
    with timed(args.cuda) as training:
        for _ in range(args.train_batches):
            batch = next(batches)
            train_step(batch)
            s, r = count_tokens(batch)
            sentence_tokens, row_tokens = sentence_tokens + s, row_tokens + r
    train_seconds, train_peak = training.seconds, peak_memory_mib(args.cuda)

    model.eval()
    loader = loader_for(params, reader, dev_path, vocab, "validation_data_loader", args.max_instances)
    # what prediction gets: the words and the predicates, no gold labels (so no losses, no metrics)
    batches_on_device = [
        nn_util.move_to_device(
            {"tokens": batch["tokens"], "frames": {"predicate_indices": batch["frames"]["predicate_indices"]}}, device
        )
        for batch in loader
    ]
    p_sentence = p_row = 0
    for batch in batches_on_device:
        s, r = count_tokens(batch)
        p_sentence, p_row = p_sentence + s, p_row + r
    with torch.no_grad():
        with autocast:  # warm-up pass
            model(**batches_on_device[0])
        with timed(args.cuda) as predicting:
            for _ in range(args.predict_repeats):
                for batch in batches_on_device:
                    with autocast:
                        model(**batch)
        predict_seconds = predicting.seconds / args.predict_repeats
        predict_peak = peak_memory_mib(args.cuda)
        with timed(args.cuda) as end_to_end:
            for batch in loader:
                with autocast:
                    model(**nn_util.move_to_device(batch, device))
        end_to_end_seconds = end_to_end.seconds
    result = {
        "config": args.config,
        "device": device_name(args.cuda),
        "amp": bool(args.amp and args.cuda),
        "parameters": sum(p.numel() for p in model.parameters()),
        "train_batches": args.train_batches,
        "train_sentence_tokens_per_s": round(sentence_tokens / train_seconds),
        "train_row_tokens_per_s": round(row_tokens / train_seconds),
        "predict_sentence_tokens_per_s": round(p_sentence / predict_seconds),
        "predict_row_tokens_per_s": round(p_row / predict_seconds),
        "end_to_end_predict_sentence_tokens_per_s": round(p_sentence / end_to_end_seconds),
        "end_to_end_predict_row_tokens_per_s": round(p_row / end_to_end_seconds),
        "predict_batches": len(batches_on_device),
        "min_predicates": args.min_predicates,
        "decoding": model.frame_scorer.decoding,
        "peak_memory_mib": round(train_peak),
    }
    if args.cuda:
        result["predict_peak_memory_mib"] = round(predict_peak)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
