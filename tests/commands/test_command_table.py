"""docs/commands.md is generated from the commands' parsers and up to date, and the commands share one
vocabulary of flags."""

import argparse
import os

import pytest

from srl_zoo.command_list import COMMANDS
from srl_zoo.commands.command_table import VOCABULARY, command_parsers, command_table
from tests.conftest import REPO_ROOT

OWN_COMMANDS = [name for name, command in COMMANDS.items() if command.subcommand is not None]


def test_the_table_in_the_docs_is_the_generated_one():
    with open(os.path.join(REPO_ROOT, "docs", "commands.md"), encoding="utf-8") as handle:
        written = handle.read()
    assert written == command_table(), "run: python -m srl_zoo.commands.command_table docs/commands.md"


@pytest.mark.parametrize("name", OWN_COMMANDS)
def test_one_flag_for_one_thing(name):
    parser = command_parsers()[name]
    assert parser.prog == f"srl-zoo {name}"
    for action in parser._actions:
        shown = action.help != argparse.SUPPRESS  # hidden: an old spelling kept for scripts
        if action.dest in VOCABULARY and action.option_strings and shown:
            assert VOCABULARY[action.dest] in action.option_strings, (name, action.option_strings)
    flags = {option for action in parser._actions for option in action.option_strings}
    assert "--verbose" in flags
    if name in ("label", "evaluate", "serve"):  # the commands that run the model
        assert {"--precision", "--batch-size", "--cuda-device"} <= flags
    positional = [action.metavar for action in parser._actions if not action.option_strings]
    assert all(metavar and metavar.isupper() for metavar in positional), positional  # MODEL, INPUT, ...
