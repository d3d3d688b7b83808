#!/usr/bin/env bash
# Build ./.whl/ : the extra wheels that let AllenNLP 2.10.1 (`allennlp train/evaluate/predict`)
# run on the lent GPU machine (Python 3.12, torch 2.11.0+cu130, transformers 5.17.0,
# numpy 2.5.2, huggingface_hub 1.33.0, no spaCy, no network there).
# Run from the project checkout root on the CPU machine (needs PyPI). ~11 MB of wheels.
# The wheelhouse of the GPU machine's guide (the srl_zoo team's notes), kept here so a fresh clone builds it;
# `make gpu-call-files` runs it (docs/gpu.md).
set -euo pipefail
OUT="${1:-.whl}"
PY="${PYTHON:-python3}"
rm -rf "$OUT"; mkdir -p "$OUT"

PLAT=(--only-binary=:all: --python-version 3.12 --implementation cp --abi cp312 --abi abi3 --abi none
      --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64
      --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux1_x86_64
      --platform manylinux_2_5_x86_64 --platform any)

# Everything else AllenNLP imports (torch, torchvision, transformers, numpy, scipy, scikit-learn,
# h5py, protobuf, requests, tqdm, filelock, rich, click, joblib, regex, pytest, ...) is
# already in the GPU image and is deliberately NOT carried.
WHEELS=(
  allennlp==2.10.1        # repacked below as 2.10.1+hf5 (4 fixes for transformers 5 / hf_hub 1)
  cached-path==1.1.6      # patched below (+nogcs): no boto3 / google-cloud-storage needed
  nltk==3.10.4            # allennlp.training.metrics (evalb) imports nltk.Tree
  tensorboardX==2.6.5     # tensorboard callback (imported at import time)
  lmdb==3.0.0             # allennlp.common.file_utils
  dill==0.4.1             # allennlp.common.util
  base58==2.1.1           # allennlp.common.util
  more-itertools==11.2.1  # allennlp.data.data_loaders.multitask_scheduler
  termcolor==3.3.0        # allennlp diff (imported by allennlp.commands)
  jsonnet==0.22.0         # _jsonnet: needed for .jsonnet configs (plain JSON works without)
  allennlp-models==2.10.1 # repacked below as 2.10.1+hf5; the srl_bert peer of the labeling throughput (installed apart: scripts/device/prove_gpu.sh)
  conllu==4.4.2           # imported by allennlp-models
  rapidfuzz==3.14.6       # srl_zoo's AMN: POS edit distance (as requirements.lock)
)
"$PY" -m pip download -q --no-deps "${PLAT[@]}" -d "$OUT" "${WHEELS[@]}"

# fairscale ships only an sdist; it is pure Python and is imported at allennlp import time.
"$PY" -m pip wheel -q --no-deps -w "$OUT" fairscale==0.4.13

# Local wheels: spaCy stub, cached_path without S3/GCS, allennlp+hf5, fairscale without its
# stray `benchmarks` package. Why each one: see the Python docstring below.
"$PY" - "$OUT" >/dev/null <<'PYEOF'
"""Build the local (patched or stub) wheels of the GPU wheelhouse (stdlib only, no network).

1. spacy_stub_for_allennlp-0.0.1-py3-none-any.whl: a package named `spacy` holding only
   the names AllenNLP 2.10.1 imports at module level (spacy.tokens.Token/Doc,
   spacy.language.Language, spacy.cli.download.download; spacy.symbols' POS names for
   allennlp-models' predictors; spacy.lookups.load_lookups over a spacy_lookups_data holding
   only the English lemma_lookup table, for srl_zoo's predicate lemmas). spacy.load() raises OSError
   and the stub download() raises RuntimeError, so SpacyTokenizer / spacy-based
   predictors fail loudly if used. The real spaCy 3.8 stack (spacy 35 MB + blis 14 MB
   + thinc 4 MB wheels) does not fit the 40 MB carry budget.
2. cached_path-1.1.6+nogcs: cached_path 1.1.6 with its S3/GCS scheme clients made
   optional, so boto3/botocore and google-cloud-storage (~23 MB) are not needed.
   Local paths, http(s):// and hf:// keep working.
3. allennlp-2.10.1+hf5: allennlp 2.10.1 with four small source fixes for
   transformers 5.x / huggingface_hub 1.x (each also works on transformers 4.x):
   - common/push_to_hf.py: huggingface_hub>=1.0 has no HfFolder/Repository
     (import failed at `import allennlp`); push-to-hf is disabled there.
   - training/optimizers.py: transformers.AdamW is gone (import failed);
     "huggingface_adamw" falls back to torch.optim.AdamW (correct_bias ignored).
   - common/cached_transformers.py: AutoTokenizer.from_pretrained(add_special_tokens=..)
     raises in 5.x ("conflicts with the method"); the kwarg is dropped (4.x ignored it).
   - data/tokenizers/pretrained_transformer_tokenizer.py: tokenizer.encode_plus() is gone;
     calls tokenizer(...) instead (same arguments, same result in 4.x).
4. fairscale-0.4.13+nobench: fairscale's wheel minus its stray top-level `benchmarks` package.

usage (embedded in make_wheelhouse.sh): python3 - WHEEL_DIR <<PYEOF ...
  (WHEEL_DIR must hold the cached_path 1.1.6, allennlp 2.10.1 and fairscale 0.4.13 wheels;
   they are replaced by the repacked ones)
"""
import base64, hashlib, os, sys, zipfile

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def write_wheel(path, files, dist_info):
    """files: dict arcname -> bytes (dist-info files excluded; RECORD is generated)."""
    records = []

    def _info(name):  # fixed timestamp and mode: the same inputs give byte-identical wheels
        zi = zipfile.ZipInfo(name, date_time=(2022, 1, 1, 0, 0, 0))
        zi.compress_type, zi.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
        return zi

    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(_info(name), data)
            records.append(_record_line(name, data))
        records.append(f"{dist_info}/RECORD,,")
        zf.writestr(_info(f"{dist_info}/RECORD"), "\n".join(records) + "\n")

SPACY_FILES = {
"spacy/__init__.py": '''"""Stub of spaCy for AllenNLP on machines without spaCy. Not the real spaCy."""
__version__ = "3.8.0"  # AllenNLP only checks >= "3.0"
STUB = True
from . import tokens, language, cli, util  # noqa: E402,F401


def load(name, *args, **kwargs):
    raise OSError(
        f"spaCy is not installed here (spacy stub); cannot load {name!r}. "
        "Use a whitespace/just_spaces tokenizer or install the real spaCy."
    )


def blank(name, *args, **kwargs):
    raise OSError(f"spaCy is not installed here (spacy stub); cannot create blank({name!r})")
''',
"spacy/tokens/__init__.py": '''class Token:  # stub: only used for isinstance checks / annotations
    pass


class Doc:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("spaCy is not installed here (spacy stub)")


class Span:
    pass
''',
"spacy/language.py": '''class Language:  # stub
    pass
''',
"spacy/symbols.py": '''"""Stub: the part-of-speech symbols allennlp-models' predictors import (distinct ints, as spaCy's)."""
(POS, ADJ, ADP, ADV, AUX, CCONJ, DET, INTJ, NOUN, NUM, PART, PRON, PROPN, PUNCT, SCONJ, SYM, VERB, X, SPACE) = range(19)
''',
"spacy/lookups.py": '''"""Stub: spaCy's lookup tables read from the stub's own spacy_lookups_data (English lemmas only)."""
import gzip, json, os


class _Lookups:
    def __init__(self, tables):
        self._tables = tables

    def get_table(self, name):
        return self._tables[name]


def load_lookups(lang, tables, strict=True):
    import spacy_lookups_data

    folder = os.path.join(os.path.dirname(spacy_lookups_data.__file__), "data")
    read = {}
    for table in tables:
        with gzip.open(os.path.join(folder, f"{lang}_{table}.json.gz"), "rt", encoding="utf-8") as handle:
            read[table] = json.load(handle)
    return _Lookups(read)
''',
"spacy_lookups_data/__init__.py": '''"""Stub: only spaCy's English lemma_lookup table (spacy-lookups-data 1.0.5, MIT, see data/en_license.txt)."""
''',
"spacy/util.py": '''def is_package(name):
    return False
''',
"spacy/cli/__init__.py": '''from .download import download  # noqa: F401
''',
"spacy/cli/download.py": '''def download(model, *args, **kwargs):
    raise RuntimeError(f"spaCy is not installed here (spacy stub); cannot download {model!r}")
''',
}

def build_spacy_stub(outdir):
    name, ver = "spacy_stub_for_allennlp", "0.0.1"
    di = f"{name}-{ver}.dist-info"
    files = {k: v.encode() for k, v in SPACY_FILES.items()}
    import spacy_lookups_data  # the project venv's (requirements.lock): its English lemma table travels
    data = os.path.join(os.path.dirname(spacy_lookups_data.__file__), "data")
    for table in ("en_lemma_lookup.json.gz", "en_license.txt"):
        with open(os.path.join(data, table), "rb") as handle:
            files[f"spacy_lookups_data/data/{table}"] = handle.read()
    files[f"{di}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {ver}\n"
        "Summary: import-only stand-in for spaCy (AllenNLP GPU wheelhouse)\n").encode()
    files[f"{di}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: make_wheelhouse.sh\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{di}/top_level.txt"] = b"spacy\nspacy_lookups_data\n"
    out = os.path.join(outdir, f"{name}-{ver}-py3-none-any.whl")
    write_wheel(out, files, di)
    return out

PATCH_OLD = '''from cached_path.schemes.gs import GsClient
from cached_path.schemes.hf import hf_get_from_cache
from cached_path.schemes.http import HttpClient
from cached_path.schemes.s3 import S3Client
from cached_path.schemes.scheme_client import SchemeClient
'''
PATCH_NEW = '''from cached_path.schemes.hf import hf_get_from_cache
from cached_path.schemes.http import HttpClient
from cached_path.schemes.scheme_client import SchemeClient

# Patched (+nogcs): S3 and GCS clients are optional, so boto3 / google-cloud-storage
# are only needed for s3:// and gs:// URLs.
_OPTIONAL_CLIENTS = []
try:
    from cached_path.schemes.gs import GsClient
    _OPTIONAL_CLIENTS.append(GsClient)
except ImportError:
    pass
try:
    from cached_path.schemes.s3 import S3Client
    _OPTIONAL_CLIENTS.append(S3Client)
except ImportError:
    pass
'''
LOOP_OLD = "for client in (HttpClient, S3Client, GsClient):"
LOOP_NEW = "for client in (HttpClient, *_OPTIONAL_CLIENTS):"

def repack(outdir, dist, ver, local, patches, drop_prefixes=()):
    """Rewrite WHEEL_DIR/{dist}-{ver}-py3-none-any.whl as version {ver}+{local}.
    patches: {path_in_wheel: [(old, new), ...]}; every `old` must occur exactly once.
    drop_prefixes: files whose path starts with one of these are left out."""
    src = os.path.join(outdir, f"{dist}-{ver}-py3-none-any.whl")
    old_di, new_ver = f"{dist}-{ver}.dist-info", f"{ver}+{local}"
    new_di = f"{dist}-{new_ver}.dist-info"
    files, todo = {}, dict(patches)
    with zipfile.ZipFile(src) as zf:
        for info in zf.infolist():
            name, data = info.filename, zf.read(info)
            if name.endswith("/RECORD") or name.startswith(tuple(drop_prefixes)):
                continue
            if name in todo:
                text = data.decode()
                for old, new in todo.pop(name):
                    assert text.count(old) == 1, f"{name}: patch target not found once: {old[:60]!r}"
                    text = text.replace(old, new)
                data = text.encode()
            if name.startswith(old_di + "/"):
                name = new_di + name[len(old_di):]
                if name.endswith("/METADATA"):
                    data = data.replace(f"\nVersion: {ver}\n".encode(), f"\nVersion: {new_ver}\n".encode())
            files[name] = data
    assert not todo, f"files to patch not in wheel: {list(todo)}"
    out = os.path.join(outdir, f"{dist}-{new_ver}-py3-none-any.whl")
    write_wheel(out, files, new_di)
    os.remove(src)
    return out


def build_cached_path_nogcs(outdir):
    return repack(outdir, "cached_path", "1.1.6", "nogcs", {
        "cached_path/schemes/__init__.py": [(PATCH_OLD, PATCH_NEW), (LOOP_OLD, LOOP_NEW)]})


ALLENNLP_PATCHES = {
    "allennlp/common/push_to_hf.py": [(
        "from huggingface_hub import HfApi, HfFolder, Repository\n",
        "try:\n"
        "    from huggingface_hub import HfApi, HfFolder, Repository\n"
        "except ImportError:  # huggingface_hub>=1.0 removed HfFolder/Repository: push-to-hf unavailable\n"
        "    from huggingface_hub import HfApi\n"
        "\n"
        "    HfFolder = Repository = None\n")],
    "allennlp/training/optimizers.py": [(
        '@Optimizer.register("huggingface_adamw")\n'
        "class HuggingfaceAdamWOptimizer(Optimizer, transformers.AdamW):",
        '_HfAdamW = getattr(transformers, "AdamW", None)\n'
        "if _HfAdamW is None:  # transformers>=4.50/5.x removed AdamW: use torch's (always bias-corrected)\n"
        "\n"
        "    class _HfAdamW(torch.optim.AdamW):  # type: ignore\n"
        "        def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0,\n"
        "                     correct_bias=True):\n"
        "            super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)\n"
        "\n"
        "\n"
        '@Optimizer.register("huggingface_adamw")\n'
        "class HuggingfaceAdamWOptimizer(Optimizer, _HfAdamW):")],
    "allennlp/common/cached_transformers.py": [(
        "        tokenizer = transformers.AutoTokenizer.from_pretrained(\n"
        "            model_name,\n"
        "            **kwargs,\n"
        "        )\n",
        "        # transformers 5.x rejects `add_special_tokens` as a constructor kwarg (a method name);\n"
        "        # 4.x stored and ignored it, so dropping it keeps the behaviour.\n"
        '        hf_kwargs = {k: v for k, v in kwargs.items() if k != "add_special_tokens"}\n'
        "        tokenizer = transformers.AutoTokenizer.from_pretrained(\n"
        "            model_name,\n"
        "            **hf_kwargs,\n"
        "        )\n")],
    "allennlp/data/tokenizers/pretrained_transformer_tokenizer.py": [
        # encode_plus() was removed in transformers 5; __call__ takes the same arguments.
        ("dummy_output = tokenizer_with_special_tokens.encode_plus(\n            token_a,\n            token_b,",
         "dummy_output = tokenizer_with_special_tokens(\n            token_a,\n            token_b,"),
        ("dummy_output = tokenizer_with_special_tokens.encode_plus(\n            token_a,\n            add_special_tokens",
         "dummy_output = tokenizer_with_special_tokens(\n            token_a,\n            add_special_tokens"),
        ("encoded_tokens = self.tokenizer.encode_plus(", "encoded_tokens = self.tokenizer("),
        ("wordpieces = self.tokenizer.encode_plus(", "wordpieces = self.tokenizer("),
    ],
}


def build_fairscale_nobench(outdir):
    # fairscale's wheel also installs a top-level `benchmarks` package, which would shadow a
    # project's own `benchmarks/` on PYTHONPATH=/tmp/site:$PWD.
    return repack(outdir, "fairscale", "0.4.13", "nobench",
                  {"fairscale-0.4.13.dist-info/top_level.txt": [("benchmarks\n", "")]},
                  drop_prefixes=("benchmarks/",))


def build_allennlp_hf5(outdir):
    return repack(outdir, "allennlp", "2.10.1", "hf5", ALLENNLP_PATCHES)


def build_allennlp_models_hf5(outdir):
    # transformers 5's BertTokenizer has no `wordpiece_tokenizer`: the srl reader asks the fast tokenizer's
    # WordPiece model for the same pieces (no normalisation: the reader lower-cases first where it should)
    old = "            word_pieces = self.bert_tokenizer.wordpiece_tokenizer.tokenize(token)\n"
    new = ("            if hasattr(self.bert_tokenizer, 'wordpiece_tokenizer'):\n"
           "                word_pieces = self.bert_tokenizer.wordpiece_tokenizer.tokenize(token)\n"
           "            else:\n"
           "                word_pieces = [piece.value for piece in self.bert_tokenizer.backend_tokenizer.model.tokenize(token)]\n")
    # and its `vocab` is a property that builds the whole 30,000-entry dict at each call, which the reader made
    # per word piece (a second per sentence): the ids come from convert_tokens_to_ids, as many lookups
    old_ids = "                [Token(t, text_id=self.bert_tokenizer.vocab[t]) for t in wordpieces],\n"
    new_ids = ("                [Token(t, text_id=i) for t, i in\n"
               "                 zip(wordpieces, self.bert_tokenizer.convert_tokens_to_ids(wordpieces))],\n")
    return repack(outdir, "allennlp_models", "2.10.1", "hf5",
                  {"allennlp_models/structured_prediction/dataset_readers/srl.py": [(old, new), (old_ids, new_ids)]})

if __name__ == "__main__":
    d = sys.argv[1]
    print(build_spacy_stub(d))
    print(build_cached_path_nogcs(d))
    print(build_allennlp_hf5(d))
    print(build_allennlp_models_hf5(d))
    print(build_fairscale_nobench(d))
PYEOF

ls -1 "$OUT"
du -ch "$OUT"/*.whl | tail -1
