#!/usr/bin/env bash
# The accurate model's device call (docs/gpu.md, "The accurate model on a GPU"): MPNet-base arrives in pieces
# (too big for one call's 64 MiB: earlier calls each stashed one with `stash` below), is joined, checked against
# the pack's SHA-256 and unpacked; allennlp comes from the carried wheelhouse (.whl); then CONFIG trains under a
# deadline, and its archive (the adapters and the head, not MPNet's frozen weights) comes back in pieces under
# 16 MiB with its metrics and log. CONFIG is training_configs/gpu/mpnet_lora_sc_crf_continued_conll2012.jsonnet
# by default (the shipped archive trained further: carry models/ewt-english-accurate.tar.gz too); the H200's call of
# 2026-11-27 trained the recipe from fresh adapters, CONFIG=training_configs/gpu/mpnet_lora_sc_crf_conll2012.jsonnet;
# the next lease's is ..._continued_top2_conll2012.jsonnet (MPNet's top two layers trained too). The archive comes
# back exported in float16 (`srl-zoo export`).
#   bash scripts/device/train_accurate.sh stash DIR     # a piece call: DIR's pieces kept in $PIECES for the next call
#   bash scripts/device/train_accurate.sh train DIR     # the training call: DIR holds mpnet.sha256 (and any pieces left)
# CONFIG, DEADLINE (seconds from the start until everything has stopped; 560), PYTHON (python3),
# PIECES (/tmp/mpnet-pieces), WORK (/tmp/accurate), SITE (/tmp/site) and OVERRIDES (allennlp -o JSON; the
# rehearsal's small run) may be set.
set -uo pipefail
start=$(date +%s)
step=${1:?stash or train}
carried=${2:?the carried folder}
pieces=${PIECES:-/tmp/mpnet-pieces}
mkdir -p "$pieces"
if [ "$step" = stash ]; then
  cp "$carried"/mpnet.tar.xz.* "$pieces"/ && ls -la "$pieces" && df -h "$pieces" | tail -1
  exit $?
fi
out=${OUT:?OUT: the folder that comes back}
config=${CONFIG:-training_configs/gpu/mpnet_lora_sc_crf_continued_conll2012.jsonnet}
deadline=${DEADLINE:-560}
py=${PYTHON:-python3}
work=${WORK:-/tmp/accurate}
site=${SITE:-/tmp/site}
rm -rf "$work" "$site" && mkdir -p "$work/cache" "$out"
log=$out/call.log
say() { echo "accurate: $* ($(( $(date +%s) - start )) s)" | tee -a "$log"; }
# a config that starts from the shipped archive (it, or a file it imports, names it) reads it from the checkout:
# without it carried, fail now rather than after the setup
shipped=models/ewt-english-accurate.tar.gz
names_shipped() {
  grep -q "$(basename "$shipped")" "$1" && return 0
  for imported in $(grep -o "import '[^']*'" "$1" | cut -d "'" -f 2); do
    names_shipped "$(dirname "$1")/$imported" && return 0
  done
  return 1
}
if names_shipped "$config" && [ ! -f "$shipped" ]; then say "$config starts from $shipped: carry it"; exit 1; fi
cp "$carried"/mpnet.tar.xz.* "$pieces"/ 2>/dev/null
cat $(ls "$pieces"/mpnet.tar.xz.* | sort) > "$work/mpnet.tar.xz"
(cd "$work" && sed 's#  .*#  mpnet.tar.xz#' "$OLDPWD/$carried/mpnet.sha256" | sha256sum -c -) >> "$log" 2>&1 \
  || { say "the joined pieces are not the pack (SHA-256 differs): $(ls "$pieces")"; exit 1; }
"$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" \
  $(ls .whl/*.whl | grep -v -e allennlp_models -e conllu) > "$out/install.log" 2>&1 \
  || { cat "$out/install.log"; say "the wheelhouse did not install"; exit 1; }
export PYTHONPATH=$site:$PWD TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 \
  TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1 SRL_ZOO_CACHE=$work/cache
"$py" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="data")' "$work/mpnet.tar.xz" \
  "$work/cache" && "$py" scripts/device/pack_encoder.py --restore "$work/cache/mpnet" && rm "$work/mpnet.tar.xz" \
  || { say "MPNet did not unpack"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> "$log" 2>&1
"$py" -c 'import torch, transformers, allennlp.version as a; print("torch", torch.__version__, "transformers",
  transformers.__version__, "allennlp", a.VERSION, "cuda", torch.cuda.is_available())' >> "$log" 2>&1
left=$(( deadline - ($(date +%s) - start) ))
# the trainer's budget: what is left less reading the data (~60 s), archiving (~40 s) and the float16 export (~40 s)
export SRL_BUDGET_MINUTES=$("$py" -c "print(round(max($left - 140, 60) / 60, 2))")
say "set up; $left s left, training budget $SRL_BUDGET_MINUTES min, $config"
timeout -k 10 $(( left - 35 )) "$py" -m allennlp train "$config" -s "$work/run" --include-package srl_zoo \
  ${OVERRIDES:+-o "$OVERRIDES"} > "$out/train.log" 2>&1
say "training exit $?"
# stopped at the deadline: archive the best epoch so far (allennlp archives only a run that ends by itself)
if [ ! -f "$work/run/model.tar.gz" ] && [ -f "$work/run/best.th" ]; then
  "$py" -c 'import sys, srl_zoo; from allennlp.models.archival import archive_model
archive_model(sys.argv[1], include_in_archive=["transformer/*"])' \
    "$work/run" >> "$log" 2>&1
  say "archived the best epoch after the deadline"
fi
cp "$work/run/metrics.json" "$out/" 2>/dev/null
"$py" - "$work/run" "$out/epochs.json" <<'PY' >> "$log" 2>&1
import glob, json, os, sys
epochs = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "metrics_epoch_*.json")), key=lambda p: int(p.rsplit("_", 1)[1][:-5])):
    metrics = json.load(open(path))
    epochs.append({key: metrics.get(key) for key in ("epoch", "training_loss", "validation_f1-measure-overall",
                   "validation_predicate-f1", "training_duration", "epoch_duration") if key in metrics})
json.dump(epochs, open(sys.argv[2], "w"), indent=1)
print("\n".join(json.dumps(epoch) for epoch in epochs))
PY
cp "$work/run/throughput.jsonl" "$out/" 2>/dev/null
# what comes back is `srl-zoo export`'s float16 copy: half the pieces (an archive that trains MPNet's top layers
# holds them: ~75 MiB in float32, over a call's 8 returned files in 15 MiB pieces); exporting it again here is the same
if [ -f "$work/run/model.tar.gz" ]; then
  "$py" -m srl_zoo.cli export "$work/run/model.tar.gz" "$work/model.tar.gz" >> "$log" 2>&1 \
    && say "exported in float16: $(du -m "$work/model.tar.gz" | cut -f1) MiB" \
    || { say "the float16 export failed: the float32 archive comes back"; cp "$work/run/model.tar.gz" "$work/"; }
  split -b 15M -d "$work/model.tar.gz" "$out/model.tar.gz.part-" \
    && sha256sum "$work/model.tar.gz" | sed 's#  .*#  model.tar.gz#' > "$out/model.sha256"
fi
tail -c 4000 "$out/train.log" > "$out/train.log.tail" && mv "$out/train.log.tail" "$out/train.log"
rm -f "$out/install.log"
say "done: $(ls "$out" | tr '\n' ' ')"
cat "$log"
