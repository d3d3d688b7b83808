"""Peak memory of labeling long sentences with an archived model (a benchmark).

Usage:
  python -m benchmarks memory models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz
      [--format conll2012] [--lengths 100 500 1000 2000] [--corpus-lines 200] [--threads 1]

Each case runs in a fresh process and reports that process's peak resident memory (VmHWM), so the
numbers include Python, torch, allennlp and the model (the `loaded` row: after loading, before
labeling). `sentence N`: one N-token sentence (dev words with sentence-ending punctuation dropped,
so spaCy's sentencizer keeps them one sentence) through `srl_zoo.load(...)(text)`, predicates found by
the model. `corpus`: `srl-label` (`label_corpus`) over the first `--corpus-lines` dev sentences as
text lines with one 2,000-token line in the middle. `text`: the first `--text-sentences` dev sentences
pasted into one string given to the `Labeler`; `pipe`: the same sentences through `Labeler.pipe`, one
text each. Pick cases with `--cases` (e.g. `--cases text pipe`).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from srl_zoo.nn.peak_memory import peak_rss_mib

SENTENCE_ENDS = set(".!?;:…") | {"...", "--"}


def long_text(words: list[str], labeler, length: int) -> str:
    """A text that the labeler reads as one sentence of exactly `length` words."""
    pool = [w for w in words if not any(c in w for c in SENTENCE_ENDS)]
    text = " ".join(pool[: length * 2])
    sentences = labeler.split(text)
    if len(sentences) != 1 or len(sentences[0][0]) < length:
        raise RuntimeError(f"could not build a one-sentence text of {length} words")
    _, offsets = sentences[0]
    return text[: offsets[length - 1][1]]


def run_case(args: argparse.Namespace) -> None:
    import torch

    import srl_zoo.plugin
    from srl_zoo.commands.srl_label import label_corpus
    from srl_zoo.data.formats import READERS

    torch.set_num_threads(args.threads)
    sentences = list(READERS[args.format](args.data))
    words = [w for s in sentences for w in s.tokens]
    labeler = srl_zoo.load(args.archive, precision=args.precision)
    loaded = peak_rss_mib()
    started = time.perf_counter()
    if args.case == "corpus":
        lines = [" ".join(s.tokens) for s in sentences[: args.corpus_lines]]
        lines.insert(len(lines) // 2, long_text(words, labeler, 2000))
        with tempfile.TemporaryDirectory() as directory:
            source = os.path.join(directory, "corpus.txt")
            with open(source, "w", encoding="utf-8") as handle:
                handle.write("\n".join(lines) + "\n")
            counts = label_corpus(labeler, source, os.path.join(directory, "out.jsonl"), progress=False)
        detail = f"{counts['sentences']} sentences"
    elif args.case in ("text", "pipe"):
        texts = [" ".join(s.tokens) for s in sentences[: args.text_sentences]]
        if args.case == "text":
            labeled = labeler(" ".join(texts))
        else:
            labeled = [sentence for result in labeler.pipe(texts) for sentence in result]
        detail = f"{len(labeled)} sentences, {sum(len(s['frames']) for s in labeled)} frames"
    else:
        length = int(args.case)
        (result,) = labeler(long_text(words, labeler, length))
        detail = f"{len(result['words'])} words, {len(result['frames'])} frames"
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "loaded_mib": round(loaded),
                "peak_mib": round(peak_rss_mib()),
                "seconds": round(seconds, 1),
                "detail": detail,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("data")
    parser.add_argument("--format", default="conll2012")
    parser.add_argument("--lengths", type=int, nargs="+", default=[100, 500, 1000, 2000])
    parser.add_argument("--corpus-lines", type=int, default=200)
    parser.add_argument("--text-sentences", type=int, default=1000)
    parser.add_argument("--cases", nargs="+", help="which cases (default: every length, corpus, text, pipe)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--precision", default="auto", choices=("auto", "float32", "bfloat16"))
    parser.add_argument("--case", help=argparse.SUPPRESS)  # internal: one case in this process
    args = parser.parse_args()
    if args.case:
        run_case(args)
        return
    print(f"{'case':<16} {'peak RSS MiB':>12} {'loaded MiB':>10} {'seconds':>8}  detail")
    names = {"corpus": f"corpus {args.corpus_lines}+1", "text": f"one text {args.text_sentences}"}
    names["pipe"] = f"pipe {args.text_sentences}"
    for case in args.cases or [str(n) for n in args.lengths] + ["corpus", "text", "pipe"]:
        command = [sys.executable, __file__, args.archive, args.data, "--format", args.format]
        command += [
            "--threads",
            str(args.threads),
            "--precision",
            args.precision,
            "--corpus-lines",
            str(args.corpus_lines),
            "--case",
            case,
        ]
        command += ["--text-sentences", str(args.text_sentences)]
        env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
        finished = subprocess.run(command, capture_output=True, text=True, env=env)
        name = names.get(case, f"sentence {case}")
        if finished.returncode != 0:
            print(f"{name:<16} failed (exit {finished.returncode}): {finished.stderr.strip().splitlines()[-1:]}")
            continue
        result = json.loads(finished.stdout.strip().splitlines()[-1])
        print(
            f"{name:<16} {result['peak_mib']:>12} {result['loaded_mib']:>10} {result['seconds']:>8}  {result['detail']}"
        )


if __name__ == "__main__":
    main()
