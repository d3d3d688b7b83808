"""Labeling throughput at gold predicates: srl_zoo's allennlp-free runtime and its allennlp predictor on an archive,
and allennlp-models' `srl_bert` (`--peer`) on the same sentences, each in float32 and in bfloat16 autocast; one JSON
line per run in OUTPUT (part of scripts/device/prove_gpu.py's call, a benchmark). The runtime's runs give the seconds
of each stage: preparing batches on the host (word pieces, tensors), the model's forward pass (the device
synchronised after each), and the rest of labeling (decoded frames made readable).

The first N sentences of FILE with predicates, sorted by length and cut into batches of each `--batch-sizes`; one
warm-up batch, then every batch timed (the device synchronised at the end): sentence tokens/s, sentences/s,
predicates/s and the peak memory the device allocated.

    python scripts/device/label_throughput.py MODEL FILE --output OUT.jsonl [--peer SRL_BERT] [--sentences 10000]
        [--batch-sizes 32 128 512] [--allennlp-batch-sizes 128] [--cuda-device 0]

The runtime runs at every batch size; srl_zoo's allennlp predictor and `srl_bert` at `--allennlp-batch-sizes` only
(default: every one), and those sizes come first, then the others from the largest, so a run cut short still has
the comparison and the runtime's best case.
"""

import argparse
import json
import resource
import time
from collections.abc import Callable
from typing import Any

import torch

import srl_zoo.api
import srl_zoo.plugin
from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS, SrlSentence
from srl_zoo.data.gold_requests import as_request
from srl_zoo.front.requests import SrlRequest


def measure(
    name: str,
    label: Callable[[list[SrlSentence]], Any],
    batches: list[list[SrlSentence]],
    batch_size: int,
    after_warm_up: Callable[[], None] = lambda: None,
) -> dict:
    """One warm-up batch (then `after_warm_up()`), then all of `batches` (of at most `batch_size` sentences) timed;
    what `label` achieved."""
    cuda = torch.cuda.is_available()
    label(batches[0])
    after_warm_up()
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    started = time.perf_counter()
    for batch in batches:
        label(batch)
    if cuda:
        torch.cuda.synchronize()
    seconds = time.perf_counter() - started
    sentences = [sentence for batch in batches for sentence in batch]
    tokens = sum(len(sentence) for sentence in sentences)
    return {
        "run": name,
        "device": torch.cuda.get_device_name() if cuda else "cpu",
        "sentences": len(sentences),
        "tokens": tokens,
        "predicates": sum(len(sentence.frames) for sentence in sentences),
        "batch_size": batch_size,
        "seconds": round(seconds, 2),
        "tokens_per_s": round(tokens / seconds),
        "sentences_per_s": round(len(sentences) / seconds, 1),
        "peak_gpu_memory_mib": round(torch.cuda.max_memory_allocated() / 2**20) if cuda else None,
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("file")
    parser.add_argument("--peer", help="an allennlp-models srl_bert archive (allennlp-models on PYTHONPATH)")
    parser.add_argument("--sentences", type=int, default=10000)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[128], help="sentences per batch, each measured")
    parser.add_argument(
        "--allennlp-batch-sizes",
        type=int,
        nargs="+",
        help="the batch sizes at which srl_zoo's allennlp predictor and srl_bert run too (default: every one)",
    )
    parser.add_argument("--cuda-device", type=int, default=-1)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    sentences = []
    for sentence in READERS[detect_format(args.file)](args.file):
        if sentence.frames:
            sentences.append(sentence)
        if len(sentences) == args.sentences:
            break
    sentences.sort(key=len)

    def write(record: dict) -> None:
        print(json.dumps(record), flush=True)
        with open(args.output, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")

    allennlp_sizes = set(args.allennlp_batch_sizes or args.batch_sizes)
    # the compared sizes first, then the largest (the runtime's best case): a run cut short loses the smallest
    for size in sorted(args.batch_sizes, key=lambda size: (size not in allennlp_sizes, -size)):
        batches = [sentences[i : i + size] for i in range(0, len(sentences), size)]
        for precision in ("float32", "bfloat16"):
            label, stages = runtime_labeling(args.model, args.cuda_device, precision)
            record = measure(f"srl_zoo runtime {precision}", label, batches, size, after_warm_up=stages.clear)
            write(record | {"stage_seconds": {name: round(seconds, 2) for name, seconds in stages.items()}})
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
            if size not in allennlp_sizes:
                continue
            label, spent = srl_zoo_labeling(args.model, args.cuda_device, precision)
            record = measure(f"srl_zoo {precision}", label, batches, size, after_warm_up=spent.clear)
            write(record | {"model_forward_seconds": round(sum(spent), 2)})
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        if args.peer and size in allennlp_sizes:
            for precision in ("float32", "bfloat16"):
                write(
                    measure(
                        f"srl_bert {precision}", peer_labeling(args.peer, args.cuda_device, precision), batches, size
                    )
                )


def timed_forward(model: Any, spent: list[float]) -> None:
    """Make `model.forward` append the seconds of each call to `spent` (the device synchronised after it)."""
    forward = model.forward

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        outputs = forward(*args, **kwargs)
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        spent.append(time.perf_counter() - started)
        return outputs

    model.forward = timed  # type: ignore[method-assign]


def runtime_labeling(
    archive: str, cuda_device: int, precision: str
) -> tuple[Callable[[list[SrlSentence]], Any], dict[str, float]]:
    """Label sentences at their gold predicates with the allennlp-free runtime in `precision`; and the seconds spent
    so far in each stage (`prepare` on the host, the model's `forward`, the `rest`: readable frames)."""
    labeler = srl_zoo.load(archive, cuda_device=cuda_device, precision=precision)
    if not isinstance(labeler, srl_zoo.RuntimeLabeler):
        raise SystemExit(f"{archive}: the runtime does not build this archive")
    stages: dict[str, float] = {}
    spent: list[float] = []
    timed_forward(labeler.model, spent)

    def label(batch: list[SrlSentence]) -> Any:
        started = time.perf_counter()
        prepared = labeler.prepare_batch([SrlRequest(s.tokens, [f.index for f in s.frames]) for s in batch])
        prepared_at = time.perf_counter()
        calls = len(spent)
        labeled = labeler.label_batch(prepared)
        forward = sum(spent[calls:])
        stages["prepare"] = stages.get("prepare", 0.0) + prepared_at - started
        stages["forward"] = stages.get("forward", 0.0) + forward
        stages["rest"] = stages.get("rest", 0.0) + time.perf_counter() - prepared_at - forward
        return labeled

    return label, stages


def srl_zoo_labeling(archive: str, cuda_device: int, precision: str) -> tuple[Callable[[list[SrlSentence]], Any], list]:
    """Label sentences at their gold predicates with srl_zoo's predictor in `precision`; and a list of the seconds
    each of its model's forward passes has taken (the device synchronised after each)."""
    predictor = srl_zoo.api.load(archive, cuda_device=cuda_device, precision=precision).predictor
    spent: list[float] = []
    timed_forward(predictor.model, spent)

    def label(batch: list[SrlSentence]) -> Any:
        return predictor.predict_batch_json([as_request(sentence) for sentence in batch])

    return label, spent


def peer_labeling(archive: str, cuda_device: int, precision: str) -> Callable[[list[SrlSentence]], Any]:
    """Label sentences at their gold predicates with allennlp-models' srl_bert (bfloat16: under autocast)."""
    import allennlp_models.structured_prediction  # noqa: F401  (the peer's model and reader)
    from allennlp.models.archival import load_archive

    from srl_zoo.leaderboard.peers import _label

    peer = load_archive(archive, cuda_device=cuda_device)
    peer.model.eval()
    autocast = precision == "bfloat16"
    return lambda batch: _label(peer.model, peer.validation_dataset_reader, batch, autocast)


if __name__ == "__main__":
    main()
