"""`srl-zoo serve MODEL` (= `allennlp srl-serve`): the labeling service and its page on loopback
(`srl_zoo.commands.serving_command`)."""

import argparse

from allennlp.commands.subcommand import Subcommand

from srl_zoo.commands import serving_command
from srl_zoo.commands.command_modules import command_parser


@Subcommand.register("srl-serve")
class SrlServe(Subcommand):
    """Serve a model over HTTP: `GET /` the page, `POST /api/label`, `GET /health`, `GET /metrics`."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        return command_parser(parser.add_parser(self.name, help=serving_command.DESCRIPTION), serving_command)
