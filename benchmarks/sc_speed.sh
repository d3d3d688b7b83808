#!/usr/bin/env bash
# Training and prediction tokens/s of the selective-connection ablation settings next to
# DeepAtt-FFN (6 layers, the 30-minute budget config), one CPU thread each, same machine and run.
#   SRL_TRAIN_DATA=.../train.txt SRL_DEV_DATA=.../dev.txt python -m benchmarks sc_speed > speed.jsonl
# Prints one JSON line per setting (benchmarks/speed.py's output plus a "setting" field).
set -euo pipefail
: "${SRL_TRAIN_DATA:?set SRL_TRAIN_DATA}" "${SRL_DEV_DATA:?set SRL_DEV_DATA}"
export SRL_BUDGET_MINUTES=30 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
python="${PYTHON:-.venv/bin/python}"
bench() {  # setting config [overrides]
  "$python" -m benchmarks speed "$2" --overrides "${3:-}" --train-batches 30 --max-instances 2000 --threads 1 2>/dev/null \
    | tail -n 1 | sed "s/^{/{\"setting\": \"$1\", /"
}
bench "deepatt-ffn 6 layers" training_configs/deepatt/ffn_cpu_budget_conll2005.jsonnet
for layers in 4 8; do
  for bilstm in false true; do
    for selective in true false; do
      encoder=model.frame_scorer.encoder
      bench "sc selective=$selective bilstm=$bilstm layers=$layers" training_configs/selective_connection/ablation_conll2005.jsonnet \
        "{\"$encoder.selective\": $selective, \"$encoder.input_bilstm\": $bilstm, \"$encoder.num_layers\": $layers}"
    done
  done
done
