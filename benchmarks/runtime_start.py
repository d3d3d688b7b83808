"""How long a user waits before the first labels: `import srl_zoo`, `import torch`, `srl_zoo.load` (the runtime's
labeler), the allennlp `Labeler` (`srl_zoo.api.load`), `srl-zoo label` of a two-line file and `srl-zoo predict` of a
two-line JSONL file (both the runtime's), each labeling two lines in a fresh process (best of `--repeats`, one
thread). The runtime reads the archive from the folder it keeps it extracted in (`srl_zoo.archive_cache`, here a
fresh one in a temporary folder, made by the first repeat); one more row extracts it anew each time, as before.

    python -m benchmarks.runtime_start models/ewt-english.tar.gz --repeats 3
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

TWO_LINES = "Bush nominated two judges. They were confirmed by the Senate yesterday."

LABEL_TWO_LINES = (
    "import sys; sys.argv = ['srl-zoo', 'label', {archive!r}, {text_file!r}, '-o', {output!r}, '--overwrite',"
    " '--no-progress']\n"
    "from srl_zoo.cli import main\n"
    "main()"
)

PROGRAMS = {
    "import torch": "import torch",
    "import srl_zoo": "import srl_zoo",
    "srl_zoo.load (the runtime) + label two lines": (
        "import torch; torch.set_num_threads(1)\n"
        "import srl_zoo\n"
        f"print(len(srl_zoo.load({{archive!r}})({TWO_LINES!r})))"
    ),
    "allennlp path: srl_zoo.api.load + label two lines": (
        "import torch; torch.set_num_threads(1)\n"
        "import srl_zoo.api\n"
        f"print(len(srl_zoo.api.load({{archive!r}})({TWO_LINES!r})))"
    ),
    "srl-zoo label of a two-line file": LABEL_TWO_LINES,
    "srl-zoo label, the archive extracted anew": LABEL_TWO_LINES,
    "srl-zoo predict of a two-line JSONL file": (
        "import sys; sys.argv = ['srl-zoo', 'predict', {archive!r}, {jsonl_file!r}, '--output-file', {output!r},"
        " '--silent']\n"
        "from srl_zoo.cli import main\n"
        "main()"
    ),
}


#: the rows that extract the archive each time (the others read it from the folder it is kept extracted in)
EXTRACTED_ANEW = {"srl-zoo label, the archive extracted anew"}


def seconds(program: str, archive_cache: str) -> float:
    """Wall seconds of `python -c program` in a fresh process whose runtime keeps archives in `archive_cache`."""
    start = time.perf_counter()
    environment = {**os.environ, "OMP_NUM_THREADS": "1", "SRL_ZOO_ARCHIVE_CACHE": archive_cache}
    subprocess.run([sys.executable, "-c", program], check=True, capture_output=True, env=environment)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    best = {name: float("inf") for name in PROGRAMS}
    folder = tempfile.mkdtemp(prefix="runtime_start-")
    text_file, output = os.path.join(folder, "two.txt"), os.path.join(folder, "two.jsonl")
    jsonl_file = os.path.join(folder, "two.requests.jsonl")
    with open(text_file, "w", encoding="utf-8") as handle:
        handle.write(TWO_LINES.replace(". ", ".\n") + "\n")
    with open(jsonl_file, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps({"sentence": line}) + "\n" for line in TWO_LINES.replace(". ", ".\n").splitlines())
    for _ in range(args.repeats):  # alternate, so that the machine's load falls on every program alike
        for name, program in PROGRAMS.items():
            best[name] = min(
                best[name],
                seconds(
                    program.format(archive=args.archive, text_file=text_file, jsonl_file=jsonl_file, output=output),
                    "off" if name in EXTRACTED_ANEW else os.path.join(folder, "extracted-archives"),
                ),
            )
    for name, value in best.items():
        print(f"{name:48s} {value:6.2f} s")


if __name__ == "__main__":
    main()
