"""`srl-zoo fetch mpnet` (= `allennlp srl-fetch`): a frozen encoder downloaded and built where srl_zoo loads it from
(`srl_zoo.commands.encoder_fetch`)."""

import argparse

from allennlp.commands.subcommand import Subcommand

from srl_zoo.commands import encoder_fetch
from srl_zoo.commands.command_modules import command_parser


@Subcommand.register("srl-fetch")
class SrlFetch(Subcommand):
    """Download and build a frozen encoder a model needs (mpnet)."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        return command_parser(parser.add_parser(self.name, help=encoder_fetch.DESCRIPTION), encoder_fetch)
