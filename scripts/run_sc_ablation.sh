#!/usr/bin/env bash
# The selective-connection ablation in small (issue 5): selective connection vs plain stacked
# attention, with and without the BiLSTM input layer, at depths 4 and 8: 8 runs of at most
# SRL_BUDGET_MINUTES each (default 60), two at a time with one CPU thread each.
#   SRL_TRAIN_DATA=.../train.txt SRL_DEV_DATA=.../dev.txt bash scripts/run_sc_ablation.sh [OUT_DIR]
# Then: for d in OUT_DIR/*/; do allennlp srl-evaluate $d/model.tar.gz $SRL_DEV_DATA --output-dir $d/dev --include-package srl_zoo; done
set -euo pipefail
: "${SRL_TRAIN_DATA:?set SRL_TRAIN_DATA}" "${SRL_DEV_DATA:?set SRL_DEV_DATA}"
export SRL_BUDGET_MINUTES="${SRL_BUDGET_MINUTES:-60}" OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
out="${1:-runs/sc_ablation}"
mkdir -p "$out"
run() {  # selective bilstm layers
  local name="sel-$1_bilstm-$2_layers-$3"
  SRL_SC_SELECTIVE=$1 SRL_SC_BILSTM=$2 SRL_SC_LAYERS=$3 "${PYTHON:-.venv/bin/python}" -m allennlp train \
    training_configs/selective_connection/ablation_conll2005.jsonnet -s "$out/$name" -f \
    --include-package srl_zoo > "$out/$name.log" 2>&1
}
for layers in 4 8; do
  for bilstm in false true; do
    run true "$bilstm" "$layers" &
    run false "$bilstm" "$layers" &
    wait
  done
done
