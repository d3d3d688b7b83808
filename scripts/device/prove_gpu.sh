#!/usr/bin/env bash
# The one prepared device call (docs/gpu.md): install allennlp from the carried wheelhouse (.whl), restore
# MiniLM from .gpu/minilm.tar.xz, then scripts/device/prove_gpu.py under a deadline. Run on the device as
#   bash scripts/device/prove_gpu.sh            (carry: .whl .gpu; OUT is the folder that comes back)
# and rehearsed on the CPU by `make gpu-rehearsal` (PLAN=rehearsal, in a copy of what travels).
# PLAN (gpu), DEADLINE (seconds from the start until everything has stopped; 540), PYTHON (python3),
# WORK (/tmp/prove), SITE (/tmp/site) and PEER_SITE (/tmp/peer) may be set.
set -uo pipefail
start=$(date +%s)
out=${OUT:?OUT: the folder that comes back}
plan=${PLAN:-gpu}
deadline=${DEADLINE:-540}
py=${PYTHON:-python3}
work=${WORK:-/tmp/prove}
site=${SITE:-/tmp/site}
peer=${PEER_SITE:-/tmp/peer}
rm -rf "$work" "$site" "$peer" && mkdir -p "$work/minilm-pack" "$out"
install() { "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$@"; }
# allennlp-models apart: allennlp imports it as a plugin wherever it is importable, so only the peer sees it
install "$site" $(ls .whl/*.whl | grep -v -e allennlp_models -e conllu) > "$out/install.log" 2>&1 \
  && install "$peer" .whl/allennlp_models-*.whl .whl/conllu-*.whl >> "$out/install.log" 2>&1 \
  || { cat "$out/install.log"; echo "prove_gpu: the wheelhouse did not install"; exit 1; }
export PYTHONPATH=$site:$PWD OMP_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 \
  TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1
"$py" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="data")' .gpu/minilm.tar.xz \
  "$work/minilm-pack" && "$py" scripts/device/pack_encoder.py --restore "$work/minilm-pack/minilm" \
  || { echo "prove_gpu: MiniLM did not unpack"; exit 1; }
left=$(( deadline - ($(date +%s) - start) ))
echo "prove_gpu: set up in $(( $(date +%s) - start )) s; $left s left"
timeout -k 10 $(( left + 10 )) "$py" scripts/device/prove_gpu.py --plan "$plan" --out "$out" --work "$work" \
  --transformer "$work/minilm-pack/minilm" --peer-site "$peer" --deadline "$left"
code=$?
echo "prove_gpu: exit $code after $(( $(date +%s) - start )) s"
"$py" - "$out/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
for name, job in results["jobs"].items():
    f1 = [e.get("dev_f1") for e in job.get("epochs", [])]
    print(name, job.get("status"), "loss falls" if job.get("loss_falls") else "", "loads" if job.get("archive_loads") else "", f1)
for record in results.get("labeling", []):
    print(record["run"], record["tokens_per_s"], "tokens/s", record["sentences_per_s"], "sentences/s")
print("six layers:", results.get("six_layer_archive"))
PY
exit $code
