#!/usr/bin/env bash
# A CPU venv that mirrors the lent GPU machine's image where it has bitten before (see docs/gpu.md):
# transformers 5.17.0, huggingface_hub 1.33.0, tokenizers as transformers 5.17 takes them, torchvision, no allennlp,
# no spaCy, no Starlette; allennlp arrives only as the call brings it (the wheelhouse in .whl, installed
# with --target). The image runs Python 3.12 with torch 2.11 and numpy 2.5; torch for 3.12 is a download
# of several GB here, so the mirror is Python 3.11 with the project's own torch (linked from its venv, never
# copied) and numpy 2.4.6, the newest release for 3.11.
#
# Usage: bash scripts/device/make_mirror_venv.sh [DIRECTORY]   (default .cache/gpu-mirror; idempotent)
set -euo pipefail
dir=${1:-.cache/gpu-mirror}
python=${MIRROR_PYTHON:-$(command -v python3.11 || echo "$HOME/.pyenv/versions/3.11.7/bin/python")}
site_of() { "$1" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }
[ -f "$dir/.made" ] && [ "$dir/.made" -nt "$0" ] && exit 0
project_python=${PROJECT_PYTHON:-.venv/bin/python}  # the project's venv (the Makefile's PY), whose torch is linked
test -x "$project_python" || { echo "make_mirror_venv: run 'make install' first (torch comes from its venv)" >&2; exit 1; }
rm -rf "$dir" && mkdir -p "$dir/torch"
"$python" -m venv "$dir/venv"
project_site=$(site_of "$project_python")
# torch and what it imports, linked one by one so nothing else of the project's venv is visible
for name in torch torchgen functorch torchvision torchvision.libs PIL pillow.libs nvidia cuda triton sympy mpmath \
    networkx jinja2 markupsafe \
    $(cd "$project_site" && ls -d torch-*.dist-info torchvision-*.dist-info pillow-*.dist-info triton-*.dist-info); do
  [ -e "$project_site/$name" ] && ln -s "$(cd "$project_site" && pwd)/$name" "$dir/torch/$name"
done
echo "$(cd "$dir/torch" && pwd)" > "$(site_of "$dir/venv/bin/python")/project_torch.pth"
"$dir/venv/bin/python" -m pip install -q transformers==5.17.0 huggingface_hub==1.33.0 numpy==2.4.6 \
  scipy scikit-learn h5py protobuf requests rich pytest matplotlib pandas
"$dir/venv/bin/python" - <<'PY'
import importlib.util, numpy, torch, transformers, huggingface_hub, tokenizers
for absent in ("allennlp", "spacy", "starlette"):
    assert importlib.util.find_spec(absent) is None, f"the mirror venv must not have {absent}"
print("mirror venv: torch", torch.__version__, "transformers", transformers.__version__, "numpy", numpy.__version__,
      "huggingface_hub", huggingface_hub.__version__, "tokenizers", tokenizers.__version__)
PY
touch "$dir/.made"
