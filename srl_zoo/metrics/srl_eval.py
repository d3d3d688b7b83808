"""Run the official CoNLL-2005 scorer `srl-eval.pl` (from the allennlp-models 2.10.1 wheel) and parse it."""

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Optional

from srl_zoo.cache_directory import cache_directory

_REPO_CACHE = os.path.join(cache_directory(), "srl-eval", "srl-eval.pl")
_ROW = re.compile(r"^\s*(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")


@dataclass
class SrlEvalResult:
    """Scores printed by srl-eval.pl (percentages), per label as `(precision, recall, f1)`."""

    precision: float
    recall: float
    f1: float
    perfect_propositions: float
    counts: tuple[int, int, int]  # correct, excess, missed
    per_label: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    output: str = ""


def find_srl_eval(path: Optional[str] = None) -> str:
    """The scorer's path: the argument, `$SRL_EVAL_PL`, or `srl-eval/srl-eval.pl` in srl_zoo's cache folder
    (`make scorer`; `srl_zoo.cache_directory`: the checkout's `.cache`, or `~/.cache/srl_zoo` when installed)."""
    candidate = path or os.environ.get("SRL_EVAL_PL") or _REPO_CACHE
    if not os.path.exists(candidate):
        raise FileNotFoundError(
            f"srl-eval.pl not found at {candidate}. Run `make scorer` (extracts it from the "
            "allennlp-models==2.10.1 wheel) or set SRL_EVAL_PL to its path."
        )
    if shutil.which("perl") is None:
        raise FileNotFoundError("perl is needed to run srl-eval.pl but is not on PATH")
    return candidate


def run_srl_eval(gold_props: str, predicted_props: str, scorer: Optional[str] = None) -> SrlEvalResult:
    """Score a props file (`target props...`, see `write_conll2005(props_only=True)`) against gold."""
    completed = subprocess.run(
        ["perl", find_srl_eval(scorer), gold_props, predicted_props], capture_output=True, text=True, check=True
    )
    return parse_srl_eval_output(completed.stdout)


def parse_srl_eval_output(text: str) -> SrlEvalResult:
    perfect_line = re.search(r"Percentage of perfect props :\s*([\d.]+)", text)
    if perfect_line is None:
        raise ValueError(f"could not find the perfect propositions line in srl-eval.pl output:\n{text}")
    perfect = float(perfect_line.group(1))
    overall = None
    per_label = {}
    for line in text.splitlines():
        match = _ROW.match(line)
        if not match:
            continue
        name, ok, op, ms, p, r, f = match.groups()
        if name == "Overall":
            overall = (float(p), float(r), float(f), (int(ok), int(op), int(ms)))
        else:
            per_label[name] = (float(p), float(r), float(f))
    if overall is None:
        raise ValueError(f"could not find the Overall row in srl-eval.pl output:\n{text}")
    return SrlEvalResult(overall[0], overall[1], overall[2], perfect, overall[3], per_label, text)
