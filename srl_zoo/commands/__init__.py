"""allennlp subcommands added by srl_zoo (`allennlp srl-evaluate`)."""

from srl_zoo.commands.srl_evaluate import SrlEvaluate, srl_evaluate
