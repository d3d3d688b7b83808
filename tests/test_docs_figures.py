"""Each figure of a shipped model is stated once and linked to: a dev F1 that README.md or a page of docs/ gives
on a line naming a shipped model is the one its card (models/README.md) gives, and a speed is the card's or a
measurement docs/benchmarks.md records (that page and the card are the records, and are not read here)."""

import glob
import os
import re

import pytest

from tests.conftest import REPO_ROOT

PAGES = ["README.md"] + sorted(
    os.path.relpath(path, REPO_ROOT)
    for path in glob.glob(f"{REPO_ROOT}/docs/*.md")
    if os.path.basename(path) != "benchmarks.md"
)
#: a line about a shipped model
SHIPPED = re.compile(r"ewt-english(-accurate|-glove)?\.tar\.gz|shipped|the default|the accurate (one|model)", re.I)
#: an F1 figure: `78.54 F1`, `**78.54** dev F1`, `F1 78.54`, `F1 of 78.54`
F1 = re.compile(r"(?<![\w.,])(\d{2}\.\d{1,2})\**\s*(?:dev |test )?F1|F1\**\s+(?:of\s+)?\**(\d{2}\.\d{1,2})(?![\d])")
#: a speed figure: `1,683 tokens/s`, `23.4 sentences/s`, `"sentences_per_s": 23.4`
SPEED = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})*(?:\.\d+)?)\s*(?:tokens/s|sentences/s)|_per_s\"?:\s*(\d[\d.,]*)")


def _read(page: str) -> str:
    with open(os.path.join(REPO_ROOT, page), encoding="utf-8") as handle:
        return handle.read()


def stated(text: str, value: str) -> bool:
    """Whether `text` gives the figure `value` as a whole number (78.5 is not in 78.54)."""
    return re.search(rf"(?<![\d.,]){re.escape(value)}(?![\d])", text) is not None


def figures(pattern: re.Pattern, line: str) -> list[str]:
    return [next(group for group in match.groups() if group) for match in pattern.finditer(line)]


@pytest.mark.parametrize("page", PAGES)
def test_a_shipped_models_figures_are_its_cards_or_the_benchmarks(page):
    card, benchmarks = _read("models/README.md"), _read("docs/benchmarks.md")
    wrong = []
    for number, line in enumerate(_read(page).splitlines(), start=1):
        if not SHIPPED.search(line):
            continue
        wrong += [f"{page}:{number}: F1 {value}" for value in figures(F1, line) if not stated(card, value)]
        wrong += [
            f"{page}:{number}: speed {value}"
            for value in figures(SPEED, line)
            if not (stated(card, value) or stated(benchmarks, value))
        ]
    assert wrong == [], "figures found in neither the card nor docs/benchmarks.md"


def test_the_patterns_find_what_they_are_for():
    assert figures(F1, "the shipped model (77.3 dev F1 on EWT)") == ["77.3"]
    assert figures(F1, "**srl-eval.pl F1 78.54** (P 79.18)") == ["78.54"]
    assert figures(SPEED, '"seconds": 0.1, "sentences_per_s": 23.4}') == ["23.4"]
    assert figures(SPEED, "1,683 against 706 tokens/s") == ["706"]
    assert not stated("F1 78.54", "78.5") and stated("F1 78.54 here", "78.54")
