#!/usr/bin/env bash
# AMN's ablations in small (issue 11) on EWT CoNLL-2009 under a one-thread CPU budget per run
# (SRL_BUDGET_MINUTES, default 30): the base BiLSTM; the memory with edit-distance, SIF, relaxed
# WMD and random neighbours (average merge); the four merges with edit distance. WORKERS runs at a
# time (default 2), one CPU thread each. The edit-distance runs share one neighbour cache.
#   SRL_TRAIN_DATA=data/ewt/conll2009/train.txt.gz SRL_DEV_DATA=data/ewt/conll2009/dev.txt.gz \
#   SRL_GLOVE=.cache/glove/glove.6B.50d.txt.gz bash scripts/run_amn_ablation.sh [OUT_DIR] [RUN ...]
# Results: OUT_DIR/<run>/ (metrics.json with the eval09-equivalent dev scores, throughput.jsonl),
# OUT_DIR/<run>.log; then `python scripts/summarize_amn_ablation.py OUT_DIR`.
set -euo pipefail
: "${SRL_TRAIN_DATA:?set SRL_TRAIN_DATA}" "${SRL_DEV_DATA:?set SRL_DEV_DATA}"
export SRL_BUDGET_MINUTES="${SRL_BUDGET_MINUTES:-30}" SRL_GLOVE="${SRL_GLOVE:-}"
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
python="${PYTHON:-.venv/bin/python}"
out="${1:-runs/amn_ablation}"; shift || true
workers="${WORKERS:-2}"
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(base ed-average ed-concat ed-weighted ed-flat sif-average relaxed_wmd-average random-average)
mkdir -p "$out"
# the edit-distance training neighbours once (unless already there), before the runs that share them
[ -f "$out/ed-neighbours.json" ] || "$python" -m allennlp srl-neighbours "$SRL_TRAIN_DATA" --format conll2009 \
  --output "$out/ed-neighbours.json" --include-package srl_zoo > "$out/ed-neighbours.log" 2>&1

run() {  # base | SELECTOR-MERGE: each run's config, written beside its output (the merge sets the encoder's width)
  local name=$1 memory=true selector=edit_distance merge=average cache=null
  if [ "$name" = base ]; then memory=false; else selector=${name%-*}; merge=${name##*-}; fi
  [ "$selector" = ed ] && selector=edit_distance && cache="'$(realpath "$out")/ed-neighbours.json'"
  printf "(import '%s')('conll2009', { memory: %s, selector: '%s', merge: '%s', neighbour_cache: %s })\n" \
    "$(realpath training_configs/amn/small.libsonnet)" "$memory" "$selector" "$merge" "$cache" > "$out/$name.jsonnet"
  "$python" -m allennlp train "$out/$name.jsonnet" -s "$out/$name" -f \
    --include-package srl_zoo > "$out/$name.log" 2>&1 || echo "$name failed: see $out/$name.log"
}

printf '%s\n' "${runs[@]}" | xargs -P "$workers" -I{} bash -c "$(declare -f run); out='$out' python='$python' run {}"
