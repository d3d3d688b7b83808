"""srl_zoo: semantic role labeling for AllenNLP. Importing it registers every component;
`srl_zoo.load("model.tar.gz")` gives a `Labeler` for raw text."""

from srl_zoo.dependencies import check_dependencies

check_dependencies()  # a plain `pip install` brings no dependencies: say what to run, in one line

# spacy_component registers the "srl_zoo" spaCy factory
from srl_zoo import (  # noqa: E402, F401
    amn,  # AMN's associated_memory (FrameFeatures): registered with the package, not by a command
    archives,
    commands,
    data,
    metrics,
    models,
    modules,
    nn,
    predictors,
    registered_names,
    spacy_component,
    training,
)
from srl_zoo.allennlp_patches import apply_all  # noqa: E402
from srl_zoo.api import Labeler, load  # noqa: E402, F401
from srl_zoo.data import dataset_readers, fields  # noqa: E402, F401
from srl_zoo.nn import initializers  # noqa: E402, F401

# the one place where srl_zoo changes allennlp: each change is named and explained in allennlp_patches
apply_all()
