"""srl_zoo's names beside allennlp-models': the Model and Predictor are registered as `srl_zoo`; the Predictor's
older names are kept as aliases where they cannot clash. Archives saved with the Model's old name `srl` are read as
srl_zoo's by the archive upgrade (`srl_zoo.archive_upgrade`); a config to train names `srl_zoo`.

allennlp-models registers its own `semantic_role_labeling` Predictor (and `srl` Model): registering that name here
would make `import srl_zoo` and `import allennlp_models.structured_prediction` fail in one process (in either
order), so that alias exists only where allennlp-models is not installed. srl_zoo's `srl` Predictor alias never
clashes: allennlp-models has none of that name.
"""

import importlib.util

from allennlp.common import Registrable


def allennlp_models_installed() -> bool:
    """Whether allennlp-models can be imported here (it then owns the names `srl` and `semantic_role_labeling`)."""
    return importlib.util.find_spec("allennlp_models") is not None


def register_aliases() -> None:
    """Register the Predictor's old names where no clash is possible (see the module docstring)."""
    from allennlp.predictors import Predictor

    from srl_zoo.predictors import SrlPredictor

    _alias(Predictor, "srl", SrlPredictor)
    if not allennlp_models_installed():
        _alias(Predictor, "semantic_role_labeling", SrlPredictor)


def _alias(base: type[Registrable], name: str, subclass: type) -> None:
    if name not in Registrable._registry[base]:
        base.register(name)(subclass)
