#!/usr/bin/env bash
# Cut a pack too big for one device call (64 MiB of working tree) into pieces of at most PIECE_MIB (50) MiB, one
# carried folder each: .gpu-mpnet-1/ … .gpu-mpnet-N/ (ignored by git), each stashed on the warm machine by a call of
# its own (scripts/device/train_accurate.sh stash); .gpu-mpnet-sum/ holds the pack's SHA-256 and travels with the
# training call, which joins the pieces and checks them.
#   bash scripts/device/cut_pieces.sh [.gpu-pack/mpnet.tar.xz] [.gpu-mpnet]
set -euo pipefail
pack=${1:-.gpu-pack/mpnet.tar.xz}
prefix=${2:-.gpu-mpnet}
name=$(basename "$pack")
rm -rf "$prefix"-* && scratch=$(mktemp -d)
split -b "${PIECE_MIB:-50}M" -d -a 2 "$pack" "$scratch/$name."
count=0
for piece in $(ls "$scratch" | sort); do
  count=$((count + 1)) && mkdir -p "$prefix-$count" && mv "$scratch/$piece" "$prefix-$count/"
done
rmdir "$scratch"
mkdir -p "$prefix-sum" && (cd "$(dirname "$pack")" && sha256sum "$name") > "$prefix-sum/${name%%.*}.sha256"
du -sh "$prefix"-*
