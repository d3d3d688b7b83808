"""srl_zoo as an allennlp plugin: importing this module registers every part (readers, the Model, encoders,
scorers, heads, metrics, commands, the predictor) and applies srl_zoo's changes to allennlp
(`srl_zoo.allennlp_patches`). `--include-package srl_zoo`, the `srl-zoo` commands and the allennlp-based
`srl_zoo.load` import it; `import srl_zoo` alone does not (the runtime labels without allennlp)."""

from srl_zoo.dependencies import check_dependencies

check_dependencies()  # a plain `pip install` brings no training dependencies: say what to run, in one line

from srl_zoo import (  # noqa: E402, F401
    amn,  # AMN's associated_memory (FrameFeatures): registered with the package, not by a command
    archives,
    commands,
    metrics,
    models,
    modules,
    predictors,
    registered_names,
    spacy_component,
    training,
)
from srl_zoo.allennlp_patches import apply_all  # noqa: E402
from srl_zoo.data import dataset_readers, fields  # noqa: E402, F401
from srl_zoo.nn import initializers  # noqa: E402, F401

# the one place where srl_zoo changes allennlp: each change is named and explained in allennlp_patches
apply_all()
