#!/usr/bin/env bash
# The selective-connection ablation in small (issue 5): selective connection vs plain stacked
# attention, with and without the BiLSTM input layer, at depths 4 and 8, plus one run with
# next_input=state (the default is output) to choose that default by measurement: 9 runs of at
# most SRL_BUDGET_MINUTES each (default 30, the DeepAtt/BiLSTM budget), on two workers with one
# CPU thread each. Each worker scores its run with srl-eval.pl (Viterbi) right after training.
#   SRL_TRAIN_DATA=.../train.txt SRL_DEV_DATA=.../dev.txt bash scripts/run_sc_ablation.sh [OUT_DIR]
# Results: OUT_DIR/<run>/dev/ (props files, both scorers' output) and OUT_DIR/<run>.log.
set -euo pipefail
: "${SRL_TRAIN_DATA:?set SRL_TRAIN_DATA}" "${SRL_DEV_DATA:?set SRL_DEV_DATA}"
export SRL_BUDGET_MINUTES="${SRL_BUDGET_MINUTES:-30}" OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
python="${PYTHON:-.venv/bin/python}"
out="${1:-runs/sc_ablation}"
mkdir -p "$out"

run() {  # selective bilstm layers next_input: the encoder's keys, set with -o
  local name="sel-$1_bilstm-$2_layers-$3_next-$4"
  local encoder=model.frame_scorer.encoder
  local overrides="{\"$encoder.selective\": $1, \"$encoder.input_bilstm\": $2, \"$encoder.num_layers\": $3, \"$encoder.next_input\": \"$4\"}"
  "$python" -m allennlp train training_configs/selective_connection/ablation_conll2005.jsonnet -s "$out/$name" -f \
    -o "$overrides" --include-package srl_zoo > "$out/$name.log" 2>&1
  "$python" -m allennlp srl-evaluate "$out/$name/model.tar.gz" "$SRL_DEV_DATA" \
    --output-dir "$out/$name/dev" --decoding viterbi --include-package srl_zoo > "$out/$name.eval.log" 2>&1
}

# Each worker's runs in order; both have about the same total time.
worker_a() {
  run true false 4 output; run true true 4 output; run true false 8 output; run true true 8 output
  run true false 4 state
}
worker_b() {
  run false false 4 output; run false true 4 output; run false false 8 output; run false true 8 output
}
worker_a & worker_b & wait
