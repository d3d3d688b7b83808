#!/usr/bin/env bash
# The one difference between a rehearsal and the device: the wheelhouse's compiled wheels are built for the image's
# Python 3.12; the mirror venv runs 3.11. Replace each cp312 wheel in WHEELHOUSE by its cp311 build (downloaded once
# into MIRROR/wheels with the mirror's PYTHON).
#   bash scripts/device/mirror_wheels.sh WHEELHOUSE MIRROR PYTHON
set -euo pipefail
wheelhouse=$1 mirror=$2 py=$3
mkdir -p "$mirror/wheels"
for wheel in "$wheelhouse"/*-cp312-*.whl; do
  name_version=$(basename "$wheel" | cut -d- -f1,2)
  ls "$mirror"/wheels/"$name_version"-cp311-*.whl > /dev/null 2>&1 || \
    "$py" -m pip download -q --no-deps --only-binary=:all: -d "$mirror/wheels" "${name_version/-/==}"
  rm "$wheel" && cp "$mirror"/wheels/"$name_version"-cp311-*.whl "$wheelhouse/"
done
