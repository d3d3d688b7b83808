"""srl_zoo as an allennlp plugin: importing this module registers every part (readers, the Model, encoders,
scorers, heads, metrics, commands, the predictor) and applies srl_zoo's changes to allennlp
(`srl_zoo.allennlp_patches`). `--include-package srl_zoo`, the `srl-zoo` commands and the allennlp
`Labeler` (`srl_zoo.api.load`) import it; `import srl_zoo` alone does not (the runtime labels without allennlp)."""

from srl_zoo.dependencies import check_dependencies

check_dependencies()  # a plain `pip install` brings no training dependencies: say what to run, in one line

import importlib  # noqa: E402

from srl_zoo import spacy_component  # noqa: E402, F401  (the spaCy factory)
from srl_zoo.allennlp_patches import register_and_patch  # noqa: E402
from srl_zoo.command_list import subcommand_modules  # noqa: E402

for module in subcommand_modules():  # each registers its allennlp subcommand (srl-label, srl-evaluate, ...)
    importlib.import_module(module)

# every part registered, and srl_zoo's changes to allennlp applied (each named and explained in allennlp_patches)
register_and_patch()
