#!/usr/bin/env bash
# `make gpu-rehearsal`: scripts/device/prove_gpu.sh end to end on the CPU (PLAN=rehearsal: a handful of batches)
# in the mirror venv (scripts/device/make_mirror_venv.sh), from a copy of exactly the files that would travel
# (scripts/device/travel.py), so a file the call needs but does not carry fails here. Then the 6-layer
# archive is reassembled from its parts and labels a sentence through srl_zoo.load (REHEARSAL_PLAN=timing-rehearsal
# rehearses the short timing call instead). Exit 0 only if every
# job trained, its loss fell (fixed-step jobs) and its archive loaded.
set -euo pipefail
root=$(pwd)
project_python=$(cd "$(dirname "${PROJECT_PYTHON:-.venv/bin/python}")" && pwd)/$(basename "${PROJECT_PYTHON:-.venv/bin/python}")
export PROJECT_PYTHON=$project_python  # the project's venv (the Makefile's PY)
mirror=${MIRROR:-.cache/gpu-mirror}
bash scripts/device/make_mirror_venv.sh "$mirror"
py=$root/$mirror/venv/bin/python
scratch=$(mktemp -d /tmp/gpu-rehearsal.XXXXXX)
trap 'status=$?; if [ $status = 0 ]; then rm -rf "$scratch"; else echo "gpu-rehearsal: failed; its files are in $scratch"; fi' EXIT
"$project_python" scripts/device/travel.py copy "$scratch/tree"
bash scripts/device/mirror_wheels.sh "$scratch/tree/.whl" "$mirror" "$py"  # the mirror runs Python 3.11
cd "$scratch/tree"
OUT=$scratch/out PLAN=${REHEARSAL_PLAN:-rehearsal} DEADLINE=${REHEARSAL_DEADLINE:-1500} PYTHON=$py WORK=$scratch/work \
  SITE=$scratch/site PEER_SITE=$scratch/peer bash scripts/device/prove_gpu.sh
ls -la "$scratch/out"
"$project_python" "$root/scripts/device/returned.py" "$scratch/out" --check --archive "$scratch/minilm6.tar.gz"
echo "gpu-rehearsal: passed"
