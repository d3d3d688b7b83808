#!/usr/bin/env bash
# On a lent GPU machine (the device tool's `run`, carrying .whl and .gpu): install allennlp from the
# wheelhouse (../shared/gpu/README.md), restore MiniLM in float32 from .gpu/minilm.tar.xz
# (scripts/device/pack_minilm.py), run scripts/run_gpu_minilm_rows.sh, and leave everything but weights
# and archives in $OUT/results.tgz (refreshed every 20 s, so a run cut short still returns what it wrote).
#
# Usage: ROWS="minilm_l3_sc_crf ..." MINUTES=5 DEADLINE=500 bash scripts/device/run_minilm_rows.sh
#   ROWS: rows of training_configs/gpu/leaderboard (default: all); MINUTES: each row's training budget;
#   DEADLINE: seconds from the start after which whatever still runs is stopped.
set -u
start=$(date +%s)
out=${OUT:?the device tool sets OUT}
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD OMP_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1
rm -rf /tmp/minilm_pack /tmp/res && mkdir -p /tmp/minilm_pack /tmp/res
tar xJf .gpu/minilm.tar.xz -C /tmp/minilm_pack || exit 1
python3 scripts/device/pack_minilm.py --restore /tmp/minilm_pack/minilm || exit 1
export SRL_TRANSFORMER=/tmp/minilm_pack/minilm
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
python3 -c "import srl_zoo, transformers, torch; print('srl_zoo imports;', 'transformers', transformers.__version__, 'torch', torch.__version__)"
pack() { tar czf "$out/results.tgz.partial" --exclude='*.th' --exclude='*.tar.gz' --exclude='vocabulary' -C /tmp res \
  && mv "$out/results.tgz.partial" "$out/results.tgz"; }
( while sleep 20; do pack; done ) > /dev/null 2>&1 &
saver=$!
# setsid: the deadline stops the rows' whole process group, trainings included
timeout -s TERM $(( ${DEADLINE:-500} - ($(date +%s) - start) )) setsid bash scripts/run_gpu_minilm_rows.sh /tmp/res "${MINUTES:-5}" ${ROWS:-}
pkill -f "allennlp train" 2>/dev/null
kill $saver 2>/dev/null
pack
echo "done after $(( $(date +%s) - start )) s"
for f in /tmp/res/*.metrics.json; do
  [ -f "$f" ] && echo "$(basename "$f" .metrics.json) $(grep -o '"best_validation_f1-measure-overall": [0-9.]*' "$f") $(grep -o '"training_epochs": [0-9]*' "$f")"
done
cat /tmp/res/speed.jsonl 2>/dev/null
