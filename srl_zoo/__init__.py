"""srl_zoo: semantic role labeling for AllenNLP. Importing it registers every component;
`srl_zoo.load("model.tar.gz")` gives a `Labeler` for raw text."""

# spacy_component registers the "srl_zoo" spaCy factory
from srl_zoo import (  # noqa: F401
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
from srl_zoo.api import Labeler, load  # noqa: F401
from srl_zoo.config_defaults import define_optional_config_variables

define_optional_config_variables()
archives.install()  # archives are checked before extraction and weights read with weights_only=True
registered_names.register_aliases()  # `srl` and allennlp-models' names where they cannot clash
training.make_default()  # `allennlp train` writes checkpoints through a temporary file and a rename
