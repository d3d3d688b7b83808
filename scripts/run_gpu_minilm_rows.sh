#!/usr/bin/env bash
# The leaderboard's MiniLM rows at the GPU budget (training_configs/gpu/leaderboard/*.jsonnet), side by side
# on one GPU, each stopped by a wall-clock budget if its 6 epochs do not fit, scored on EWT dev with gold
# predicates (srl_zoo's metric and srl-eval.pl, through scripts/run_gpu_convergence.sh) and end to end with
# predicted predicates; then the GPU prediction speed of the selective connection + CRF row in float32
# and bfloat16 (benchmarks/predict.py). A benchmark, not a test.
#
# Usage: bash scripts/run_gpu_minilm_rows.sh OUT_DIR MINUTES [ROW ...]   (default: every row)
#   needs SRL_TRANSFORMER (a local MiniLM directory, `make minilm`); PYTHON (default python3) with
#   allennlp and srl_zoo importable.
# Writes what run_gpu_convergence.sh writes for each ROW, plus ROW.e2e.txt (predicted predicates) and
# speed.jsonl (one line per precision).
set -uo pipefail
out=${1:?output directory}; minutes=${2:?minutes}; shift 2
py=${PYTHON:-python3}
rows=("$@")
if [ ${#rows[@]} -eq 0 ]; then
  rows=($(ls training_configs/gpu/leaderboard/*.jsonnet | xargs -n1 basename | sed 's/\.jsonnet$//'))
fi
dev=data/ewt/conll2012/dev.gold_conll.gz
specs=()
for row in "${rows[@]}"; do specs+=("$row=training_configs/gpu/leaderboard/$row.jsonnet"); done
SRL_DEV_DATA=$dev bash scripts/run_gpu_convergence.sh "$out" "$minutes" "${specs[@]}"
pids=()
for row in "${rows[@]}"; do
  [ -f "$out/run_$row/model.tar.gz" ] || continue
  $py -m allennlp srl-evaluate "$out/run_$row/model.tar.gz" "$dev" --predicate-source predicted --cuda-device 0 \
    --include-package srl_zoo > "$out/$row.e2e.txt" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
model=$out/run_minilm_l3_sc_crf/model.tar.gz
if [ -f "$model" ]; then
  for precision in "" --mixed-precision; do
    $py -m benchmarks predict "$model" "$dev" --format conll2012 --gold-predicates --cuda --by-length \
      --batch-size 128 $precision >> "$out/speed.jsonl" 2>> "$out/speed.log"
  done
fi
