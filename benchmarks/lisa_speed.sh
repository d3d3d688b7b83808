#!/usr/bin/env bash
# One pass per sentence (LISA's bilinear frame scorer) against one pass per predicate (the
# indicator scorer) on the same 12-layer transformer, on EWT CoNLL-2012 sentences with >= 3
# predicates: training and prediction tokens/s and peak memory. A benchmark, not a test.
#
# Usage: python -m benchmarks lisa_speed OUT_FILE [benchmarks/speed.py options, e.g. --threads 1 | --cuda --amp]
#   PYTHON (default python3) must have allennlp and srl_zoo importable; run from the repository root.
set -euo pipefail
out=${1:?output file (jsonl)}; shift
py=${PYTHON:-python3}
export SRL_TRAIN_DATA=data/ewt/conll2012/train.gold_conll.gz SRL_DEV_DATA=data/ewt/conll2012/dev.gold_conll.gz
export SRL_TRAIN_TREES=data/ewt/conll2009/train.txt.gz SRL_DEV_TREES=data/ewt/conll2009/dev.txt.gz
export SRL_BUDGET_MINUTES=${SRL_BUDGET_MINUTES:-30}
for scorer in lisa indicator; do
  $py -m benchmarks speed "training_configs/lisa/${scorer}_cpu_budget_conll2012.jsonnet" \
    --min-predicates 3 --max-instances 1500 "$@" >> "$out"
done
