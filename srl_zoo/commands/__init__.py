"""allennlp subcommands added by srl_zoo (`allennlp srl-evaluate`, `allennlp srl-label`, `allennlp srl-neighbours`,
`allennlp srl-export`, `allennlp srl-serve`)."""

from srl_zoo.commands.srl_evaluate import SrlEvaluate, srl_evaluate
from srl_zoo.commands.srl_export import SrlExport, export_archive
from srl_zoo.commands.srl_label import SrlLabel, label_corpus
from srl_zoo.commands.srl_neighbours import SrlNeighbours
from srl_zoo.commands.srl_serve import SrlServe
