"""How long a user waits before the first labels: `import srl_zoo`, `import torch`, the runtime's labeler and the
allennlp-based `srl_zoo.load`, each labelling two lines in a fresh process (best of `--repeats`, one thread).

    python -m benchmarks.runtime_start models/ewt-english.tar.gz --repeats 3
"""

import argparse
import subprocess
import sys
import time

TWO_LINES = "Bush nominated two judges. They were confirmed by the Senate yesterday."

PROGRAMS = {
    "import torch": "import torch",
    "import srl_zoo": "import srl_zoo",
    "runtime: load + label two lines": (
        "import torch; torch.set_num_threads(1)\n"
        "from srl_zoo.runtime.labeler import load\n"
        f"print(len(load({{archive!r}})({TWO_LINES!r})))"
    ),
    "allennlp path: srl_zoo.load + label two lines": (
        "import torch; torch.set_num_threads(1)\n"
        "import srl_zoo\n"
        f"print(len(srl_zoo.load({{archive!r}})({TWO_LINES!r})))"
    ),
}


def seconds(program: str) -> float:
    """Wall seconds of `python -c program` in a fresh process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", program], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    best = {name: float("inf") for name in PROGRAMS}
    for _ in range(args.repeats):  # alternate, so that the machine's load falls on every program alike
        for name, program in PROGRAMS.items():
            best[name] = min(best[name], seconds(program.format(archive=args.archive)))
    for name, value in best.items():
        print(f"{name:48s} {value:6.2f} s")


if __name__ == "__main__":
    main()
