"""A command kept in a module of its own (`corpus_labeling`, `serving_command`): its `DESCRIPTION`, `USAGE` (if
any), `add_arguments(parser)` and `run(args)` put on a parser, whether allennlp's subcommand or the console
script's allennlp-free path makes the parser."""

import argparse
from types import ModuleType
from typing import NoReturn

from srl_zoo.commands.verbosity import add_verbosity


class OneLineParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose errors (an unknown flag, a missing or bad value) are one line on stderr naming
    the command and pointing to its `--help`, not the whole usage text."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (`{self.prog} --help` lists every option)\n")


def command_parser(parser: argparse.ArgumentParser, command: ModuleType) -> argparse.ArgumentParser:
    """`parser` with `command`'s description, usage, arguments and `--verbose`, calling `command.run`."""
    parser.description = command.DESCRIPTION
    parser.usage = getattr(command, "USAGE", None)
    command.add_arguments(parser)
    add_verbosity(parser, command.run)
    return parser
