"""Peak memory and time of one training step (forward, loss, backward) of a config on chosen batches of its
training file (a benchmark), each batch in a fresh process: what a batch of short sentences costs when one of
them has many word pieces, against the same batch without it and against the file's longest sentences.

Usage:
  python -m benchmarks step_memory training_configs/accurate/mpnet_lora_sc_crf_continued_conll2012.jsonnet \
      [--words 4] [--sentences 40] [--longest 3] [--bfloat16] [--threads 2]

Batches: `many pieces`: the sentence of `--words` words with the most word pieces and `--sentences` - 1 other
sentences of that many words; `without it`: those others and one more of that many words; `longest`: the
`--longest` longest sentences of the file. Each row: the batch's shape in word pieces and in words, what
`max_tokens_sampler` (words) and `max_padded_tokens_sampler` (padded pieces) count it as, the process's
resident memory before the step and its peak during it (VmHWM, reset before the step), and the step's seconds.
"""

import argparse
import json
import os
import subprocess
import sys
import time


def step(config: str, case: str, words: int, sentences: int, longest: int, bfloat16: bool) -> dict:
    """One training step on the batch `case` names, in this process; its shapes, memory and seconds."""
    import torch
    from allennlp.common import Params
    from allennlp.data import Batch, DatasetReader, Vocabulary
    from allennlp.models import Model

    import srl_zoo.plugin  # noqa: F401  (the parts and the configs' variables)
    from srl_zoo.data.padded_tokens_sampler import padded_length
    from srl_zoo.nn.peak_memory import peak_rss_mib, reset_peak_rss, resident_mib

    params = Params.from_file(config)
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    instances = list(reader.read(params.pop("train_data_path")))
    vocabulary = Vocabulary.from_params(params.pop("vocabulary"), instances=instances)
    for instance in instances:
        instance.index_fields(vocabulary)
    of_length = [instance for instance in instances if len(instance["tokens"]) == words]
    if case == "longest":
        batch = sorted(instances, key=lambda instance: len(instance["tokens"]), reverse=True)[:longest]
    else:
        widest = max(of_length, key=lambda instance: padded_length(instance, "tokens"))
        others = [instance for instance in of_length if instance is not widest]
        batch = [widest, *others[: sentences - 1]] if case == "many pieces" else others[:sentences]
    model = Model.from_params(vocab=vocabulary, params=params.pop("model"))
    model.train()
    tensors = Batch(batch).as_tensor_dict()
    before = resident_mib()
    reset_peak_rss()
    started = time.perf_counter()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bfloat16):
        loss = model(**tensors)["loss"]
    loss.backward()
    seconds = time.perf_counter() - started
    pieces = max(padded_length(instance, "tokens") for instance in batch)
    most_words = max(len(instance["tokens"]) for instance in batch)
    return {
        "case": case,
        "batch": f"{len(batch)} × {pieces} pieces ({most_words} words)",
        "words count": len(batch) * most_words,
        "pieces count": len(batch) * pieces,
        "before_gib": round(before / 1024, 2),
        "peak_gib": round(peak_rss_mib() / 1024, 2),
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config")
    parser.add_argument("--words", type=int, default=4, help="the short sentences' length in words")
    parser.add_argument("--sentences", type=int, default=40, help="sentences in the short batches")
    parser.add_argument("--longest", type=int, default=3, help="sentences in the batch of the longest")
    parser.add_argument("--bfloat16", action="store_true", help="the forward pass under bfloat16 autocast")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--case", help=argparse.SUPPRESS)  # one case, in the child process
    args = parser.parse_args()
    if args.case:
        result = step(args.config, args.case, args.words, args.sentences, args.longest, args.bfloat16)
        print(json.dumps(result))
        return
    print(f"{'batch':<12} {'shape':<34} {'as words':>8} {'as pieces':>9} {'before GiB':>10} {'peak GiB':>8} {'s':>6}")
    for case in ("many pieces", "without it", "longest"):
        command = [sys.executable, "-m", "benchmarks.step_memory", *sys.argv[1:], "--case", case]
        environment = {**os.environ, "OMP_NUM_THREADS": str(args.threads), "ALLENNLP_LOG_LEVEL": "WARNING"}
        finished = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
        if finished.returncode != 0:
            print(f"{case:<12} failed: {finished.stderr.strip().splitlines()[-1:]}", flush=True)
            continue
        row = json.loads(finished.stdout.strip().splitlines()[-1])
        print(
            f"{row['case']:<12} {row['batch']:<34} {row['words count']:>8} {row['pieces count']:>9} "
            f"{row['before_gib']:>10} {row['peak_gib']:>8} {row['seconds']:>6}",
            flush=True,
        )


if __name__ == "__main__":
    main()
