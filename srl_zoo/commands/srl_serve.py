"""`srl-zoo serve MODEL` (= `allennlp srl-serve`): the labelling service and its page on loopback
(`srl_zoo.commands.serving_command`)."""

import argparse

from allennlp.commands.subcommand import Subcommand

from srl_zoo.commands import serving_command
from srl_zoo.commands.verbosity import add_verbosity


@Subcommand.register("srl-serve")
class SrlServe(Subcommand):
    """Serve a model over HTTP: `GET /` the page, `POST /api/label`, `GET /health`, `GET /metrics`."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = serving_command.DESCRIPTION
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.usage = serving_command.USAGE
        serving_command.add_arguments(subparser)
        add_verbosity(subparser, serving_command.run)
        return subparser
