"""What README.md and docs/ name exists: every `srl-zoo` command, every flag given to one, and every file
of the repository (configs, scripts, pages) they point to. (docs/benchmarks.md quotes measurements
with the commands of their day, as does its history under docs/reports/, and is left out.)"""

import argparse
import glob
import os
import re
from collections.abc import Iterator

import pytest

from srl_zoo.command_list import COMMANDS
from srl_zoo.commands.command_table import ADDED_FLAGS, command_parsers
from tests.conftest import REPO_ROOT

PAGES = ["README.md"] + sorted(
    os.path.relpath(path, REPO_ROOT)
    for path in glob.glob(f"{REPO_ROOT}/docs/*.md")
    if os.path.basename(path) != "benchmarks.md"
)
COMMAND = re.compile(r"srl-zoo ([a-z][\w-]*)")  # not a placeholder such as COMMAND
FLAG = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")
TOP_LEVEL = ("training_configs", "scripts", "docs", "data", "models", "fixtures", "srl_zoo", "tests", "leaderboards")
PATH = re.compile(r"(?<![\w./-])((?:{})/[\w./{{}},*-]+)".format("|".join(TOP_LEVEL)))


def page_lines(page: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of a page, a shell line continued with `\\` joined to the next."""
    with open(os.path.join(REPO_ROOT, page), encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    number, pending = 0, ""
    for index, line in enumerate(lines, start=1):
        if not pending:
            number = index
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield number, pending + line
        pending = ""


def flags_of() -> dict[str, set[str]]:
    flags = {}
    for name, parser in command_parsers().items():
        flags[name] = {option for action in parser._actions for option in action.option_strings}
        flags[name] |= {row.split("`")[1] for row in ADDED_FLAGS.get(name, [])}
    return flags


def command_uses() -> Iterator[tuple[str, int, str, str]]:
    """(page, line, command, rest of the command's text up to the end of its code span or line)."""
    for page in PAGES:
        for number, line in page_lines(page):
            for match in COMMAND.finditer(line):
                rest = line[match.end() :]
                rest = re.split(r"`|srl-zoo |\|", rest)[0]  # up to the end of the code span or cell
                yield page, number, match.group(1), rest


def test_the_pages_exist():
    assert len(PAGES) >= 8


def test_every_command_named_exists():
    unknown = [(page, line, name) for page, line, name, _ in command_uses() if name not in COMMANDS]
    assert unknown == []


def test_every_flag_given_to_a_command_exists():
    flags = flags_of()
    unknown = []
    for page, line, name, rest in command_uses():
        if name not in COMMANDS:
            continue
        for flag in FLAG.findall(rest.split(" # ")[0]):
            if flag not in flags[name] and flag not in ("--help",):
                unknown.append((page, line, name, flag))
    assert unknown == []


def _expand(path: str) -> Iterator[str]:
    """`a/{b,c}_d.jsonnet` → `a/b_d.jsonnet`, `a/c_d.jsonnet` (nested braces are not used in the docs)."""
    brace = re.search(r"\{([^{}]*)\}", path)
    if not brace:
        yield path
        return
    for choice in brace.group(1).split(","):
        yield from _expand(path[: brace.start()] + choice + path[brace.end() :])


@pytest.mark.parametrize("page", PAGES)
def test_every_repository_file_named_exists(page):
    missing = []
    for number, line in page_lines(page):
        for mentioned in PATH.findall(line):
            mentioned = mentioned.rstrip(".,)")
            for path in _expand(mentioned):
                base = os.path.dirname(os.path.join(REPO_ROOT, page)) if page.startswith("docs/") else REPO_ROOT
                places = (REPO_ROOT, base, os.path.join(REPO_ROOT, "srl_zoo"))  # or a module of the package
                if not any(glob.glob(os.path.join(place, path)) for place in places):
                    missing.append((number, path))
    assert missing == []


def test_the_flag_parser_sees_flags_after_their_command():
    """The checks above read `srl-zoo label MODEL IN -o OUT --format conll` as flags of `label`."""
    line = "run `srl-zoo label MODEL IN -o OUT --format conll` then `srl-zoo evaluate M G --report D`"
    rests = {match.group(1): re.split(r"`|srl-zoo ", line[match.end() :])[0] for match in COMMAND.finditer(line)}
    assert FLAG.findall(rests["label"]) == ["--format"] and FLAG.findall(rests["evaluate"]) == ["--report"]
    assert isinstance(command_parsers()["label"], argparse.ArgumentParser)
