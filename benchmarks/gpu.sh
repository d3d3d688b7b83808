#!/usr/bin/env bash
# GPU speed of every encoder family: benchmarks/speed.py (bfloat16 autocast) and the wall time of
# full EWT training epochs through `allennlp train`. A benchmark, not a test.
#
# Usage: python -m benchmarks gpu OUT_DIR [EPOCHS]
#   needs SRL_TRAIN_DATA, SRL_DEV_DATA (CoNLL-2005 files) and SRL_GLOVE (a GloVe file or empty);
#   PYTHON (default python3) must have allennlp and srl_zoo importable.
# Writes OUT_DIR/speed.jsonl (one line per config and precision) and OUT_DIR/epochs.jsonl
# (the throughput callback's per-epoch records, with the config's name).
set -uo pipefail
out=${1:?output directory}
epochs=${2:-2}
py=${PYTHON:-python3}
mkdir -p "$out"
configs=(deepatt_ffn_glove deepatt_glu_glove sc_bilstm_glove ${SRL_EXTRA_GPU_CONFIGS:-})
for name in "${configs[@]}"; do
  config=training_configs/gpu/${name}_conll2005.jsonnet
  [ -f "$config" ] || config=$name
  $py -m benchmarks speed "$config" --cuda --amp --train-batches 40 --max-instances 3000 >> "$out/speed.jsonl" \
    || echo "{\"config\": \"$config\", \"error\": \"benchmark_speed failed\"}" >> "$out/speed.jsonl"
done
# float32 next to bfloat16 for the first config only (what autocast buys)
$py -m benchmarks speed "training_configs/gpu/${configs[0]}_conll2005.jsonnet" --cuda --train-batches 40 \
  --max-instances 3000 >> "$out/speed.jsonl" || true
for name in "${configs[@]}"; do
  config=training_configs/gpu/${name}_conll2005.jsonnet
  [ -f "$config" ] || config=$name
  run="$out/train_$(basename "$name" .jsonnet)"
  $py -m allennlp train "$config" -s "$run" --include-package srl_zoo \
    -o "{\"trainer.num_epochs\": $epochs}" > "$run.log" 2>&1 || echo "training $config failed" >&2
  if [ -f "$run/throughput.jsonl" ]; then
    sed "s|^{|{\"config\": \"$config\", |" "$run/throughput.jsonl" >> "$out/epochs.jsonl"
  fi
  grep -h "Epoch duration" "$run.log" | sed "s|^|$name |" >> "$out/epoch_durations.txt"
  rm -rf "$run"
done
