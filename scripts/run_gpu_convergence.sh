#!/usr/bin/env bash
# Train several GPU configs side by side on one GPU under a wall-clock budget, then score each on
# the dev set with srl-evaluate (srl_zoo's metric and, where perl is available, srl-eval.pl).
#
# Usage: bash scripts/run_gpu_convergence.sh OUT_DIR MINUTES NAME=CONFIG[:GLOVE] ...
#   e.g. glu_glove=training_configs/gpu/deepatt_glu_glove_conll2005.jsonnet:.cache/glove/glove.6B.50d.txt.gz
#        glu_random=training_configs/gpu/deepatt_glu_glove_conll2005.jsonnet:   (empty: random vectors)
#   needs SRL_TRAIN_DATA and SRL_DEV_DATA; PYTHON (default python3) with allennlp and srl_zoo.
# Writes OUT_DIR/NAME.log, NAME.throughput.jsonl, NAME.metrics.json (training), NAME.eval.json and
# NAME.eval.txt (dev scores), NAME.predicted.props and gold.props (to rescore elsewhere).
set -uo pipefail
out=${1:?output directory}; minutes=${2:?minutes}; shift 2
py=${PYTHON:-python3}
mkdir -p "$out"
callbacks="[{\"type\": \"mixed_precision\"}, {\"type\": \"throughput\"}, {\"type\": \"time_budget\", \"minutes\": $minutes}]"
pids=()
for spec in "$@"; do
  name=${spec%%=*}; rest=${spec#*=}; config=${rest%%:*}; glove=""
  [[ "$rest" == *:* ]] && glove=${rest#*:}
  SRL_GLOVE="$glove" $py -m allennlp train "$config" -s "$out/run_$name" --include-package srl_zoo \
    -o "{\"trainer.callbacks\": $callbacks}" > "$out/$name.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
evaluate() {  # NAME: score the run's best model on the dev set
  local name=$1 run="$out/run_$1"
  cp "$run/throughput.jsonl" "$out/$name.throughput.jsonl" 2>/dev/null
  cp "$run/metrics.json" "$out/$name.metrics.json" 2>/dev/null || { echo "$name: training failed" >&2; return; }
  $py -m allennlp srl-evaluate "$run/model.tar.gz" "$SRL_DEV_DATA" --output-dir "$run/dev" --cuda-device 0 \
    --include-package srl_zoo > "$out/$name.eval.txt" 2>&1
  cp "$run/dev/metrics.json" "$out/$name.eval.json" 2>/dev/null
  cp "$run/dev/predicted.props" "$out/$name.predicted.props" 2>/dev/null
  cp "$run/dev/gold.props" "$out/gold.props" 2>/dev/null
}
pids=()
for spec in "$@"; do evaluate "${spec%%=*}" & pids+=($!); done
for pid in "${pids[@]}"; do wait "$pid"; done
