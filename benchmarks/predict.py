"""Raw-text prediction throughput of an archived model through the `srl` Predictor (a benchmark).

Usage:
  python -m benchmarks predict model.tar.gz dev.txt [--format conll2005] [--batch-size 64]
      [--threads 1] [--gold-predicates] [--max-sentences N] [--cuda]

The dev sentences are joined into raw text and labeled in batches; after one warm-up batch it
reports sentences/s and tokens/s end to end, and where the time goes: tokenization (spaCy blank
pipeline), instance building, and the model (forward, decoding and output building).
--gold-predicates passes the gold tokens and predicate indices instead of raw text (the setting of
allennlp-models' reference number); otherwise predicates come from the model's identification head.
"""

import json
import time

import torch
from allennlp.common.util import lazy_groups_of
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo.plugin  # noqa: F401
from benchmarks.arguments import archive_parser
from benchmarks.timing import device_name
from srl_zoo.data.formats import READERS
from srl_zoo.nn.inference_speed import quantize_linear_layers


def main() -> None:
    parser = archive_parser(__doc__)
    parser.add_argument("--format", default="conll2005", choices=sorted(READERS))
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--gold-predicates", action="store_true")
    parser.add_argument("--max-sentences", type=int, default=0)
    parser.add_argument("--cuda", action="store_true")
    parser.add_argument("--mixed-precision", action="store_true", help="bfloat16 autocast (predictor option)")
    parser.add_argument("--int8", action="store_true", help="int8 dynamic quantization of the linear layers")
    parser.add_argument(
        "--by-length", action="store_true", help="batch sentences of similar length (as the Labeler and srl-label do)"
    )
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    sentences = list(READERS[args.format](args.data))
    if args.max_sentences:
        sentences = sentences[: args.max_sentences]
    archive = load_archive(args.archive, cuda_device=0 if args.cuda else -1)
    if args.int8:
        quantize_linear_layers(archive.model)
    predictor = Predictor.from_archive(archive, "srl", extra_args={"mixed_precision": args.mixed_precision})
    if args.gold_predicates:
        inputs = [{"tokens": s.tokens, "predicates": [f.index for f in s.frames]} for s in sentences]
    else:
        inputs = [{"sentence": " ".join(s.tokens)} for s in sentences]
    if args.by_length:  # less padding: what srl_zoo.api.predict_by_length does for raw text
        inputs.sort(key=lambda item: len(item.get("tokens") or item["sentence"].split()))
    batches = list(lazy_groups_of(inputs, args.batch_size))
    predictor.predict_batch_json(batches[0])  # warm-up

    tokenize = build = model = 0.0
    words = frames = 0
    started = time.perf_counter()
    for batch in batches:
        t0 = time.perf_counter()
        parsed = [predictor.parse_request(item) for item in batch]
        t1 = time.perf_counter()
        instances = [predictor.make_instance(request) for request in parsed if request.words]
        t2 = time.perf_counter()
        outputs = predictor._forward(instances)
        t3 = time.perf_counter()
        tokenize, build, model = tokenize + t1 - t0, build + t2 - t1, model + t3 - t2
        words += sum(len(request.words) for request in parsed)
        frames += sum(len(o["frames"]) for o in outputs)
    total = time.perf_counter() - started
    print(
        json.dumps(
            {
                "archive": args.archive,
                "device": device_name(args.cuda),
                "predicates": "gold" if args.gold_predicates else "predicted",
                "mixed_precision": args.mixed_precision,
                "int8": args.int8,
                "by_length": args.by_length,
                "batch_size": args.batch_size,
                "sentences": len(inputs),
                "tokens": words,
                "frames": frames,
                "sentences_per_s": round(len(inputs) / total, 1),
                "tokens_per_s": round(words / total),
                "seconds": {
                    "tokenization": round(tokenize, 2),
                    "instances": round(build, 2),
                    "model": round(model, 2),
                    "total": round(total, 2),
                },
            }
        )
    )


if __name__ == "__main__":
    main()
