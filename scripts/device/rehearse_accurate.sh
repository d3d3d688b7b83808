#!/usr/bin/env bash
# `make gpu-accurate-rehearsal`: the accurate model's device calls (scripts/device/train_accurate.sh: three calls
# that each stash a piece of MPNet, then the training call) end to end on the CPU, in the mirror venv
# (scripts/device/make_mirror_venv.sh), from a copy of exactly what would travel, with a small run (40 sentences,
# one epoch, on the CPU) of CONFIG (train_accurate.sh's default: the shipped archive trained further). The returned
# archive is joined from its pieces, checked against its SHA-256 and labels a sentence through srl_zoo.load in the
# project's venv. The CPU run leaves out the bfloat16 autocast (on a CPU without native bfloat16 one batch takes
# minutes) and the time budget. Exit 0 only if all of that held.
set -euo pipefail
root=$(pwd)
project_python=$(cd "$(dirname "${PROJECT_PYTHON:-.venv/bin/python}")" && pwd)/$(basename "${PROJECT_PYTHON:-.venv/bin/python}")
mirror=${MIRROR:-.cache/gpu-mirror}
PROJECT_PYTHON=$project_python bash scripts/device/make_mirror_venv.sh "$mirror"
py=$root/$mirror/venv/bin/python
scratch=$(mktemp -d /tmp/gpu-accurate.XXXXXX)
trap 'status=$?; if [ $status = 0 ]; then rm -rf "$scratch"; else echo "gpu-accurate-rehearsal: failed; its files are in $scratch"; fi' EXIT
pieces=$(ls -d .gpu-mpnet-[0-9]* | sort)
# the training call's tree: what it carries (the shipped archive, which the continued config starts from)
"$project_python" scripts/device/travel.py copy "$scratch/tree" .whl .gpu-mpnet-sum \
  models/ewt-english-accurate.tar.gz
for piece in $pieces; do "$project_python" scripts/device/travel.py size "$piece"; cp -r "$piece" "$scratch/tree/"; done
bash scripts/device/mirror_wheels.sh "$scratch/tree/.whl" "$mirror" "$py"  # the mirror runs Python 3.11
cd "$scratch/tree"
export PIECES=$scratch/pieces
for piece in $pieces; do bash scripts/device/train_accurate.sh stash "$piece" > /dev/null; done
OUT=$scratch/out DEADLINE=${REHEARSAL_DEADLINE:-900} PYTHON=$py WORK=$scratch/work SITE=$scratch/site \
  OVERRIDES='{"trainer.cuda_device": -1, "dataset_reader.max_instances": 40, "trainer.num_epochs": 1,
    "trainer.callbacks": [{"type": "throughput"}]}' \
  bash scripts/device/train_accurate.sh train .gpu-mpnet-sum
ls -la "$scratch/out"
cd "$scratch/out"
cat model.tar.gz.part-* > "$scratch/model.tar.gz" && (cd "$scratch" && sha256sum -c "$scratch/out/model.sha256")
cd "$root"
"$project_python" -c 'import sys, srl_zoo; print(srl_zoo.load(sys.argv[1])("The dog barked.")[0]["words"])' \
  "$scratch/model.tar.gz"
echo "gpu-accurate-rehearsal: passed"
