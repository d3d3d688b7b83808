"""srl_zoo's names beside allennlp-models': the Model and Predictor are registered as `srl_zoo`; the
older `srl` names (and allennlp-models' predictor name) are kept as aliases only where they cannot
clash, and archives saved with the old model name are read as srl_zoo's (`srl_zoo.archive_upgrade`).

allennlp-models registers its own `srl` Model (and `semantic_role_labeling` Predictor). Registering
either name here would make `import srl_zoo` and `import allennlp_models.structured_prediction`
fail in one process (in either order), so those aliases exist only where allennlp-models is not
installed. srl_zoo's `srl` Predictor alias never clashes: allennlp-models has none of that name.
"""

import importlib.util

from allennlp.common import Registrable


def allennlp_models_installed() -> bool:
    """Whether allennlp-models can be imported here (it then owns the names `srl` and `semantic_role_labeling`)."""
    return importlib.util.find_spec("allennlp_models") is not None


def register_aliases() -> None:
    """Register the old names where no clash is possible (see the module docstring)."""
    from allennlp.models import Model
    from allennlp.predictors import Predictor

    from srl_zoo.models import SrlModel
    from srl_zoo.predictors import SrlPredictor

    _alias(Predictor, "srl", SrlPredictor)
    if not allennlp_models_installed():
        _alias(Model, "srl", SrlModel)
        _alias(Predictor, "semantic_role_labeling", SrlPredictor)


def _alias(base: type[Registrable], name: str, subclass: type) -> None:
    if name not in Registrable._registry[base]:
        base.register(name)(subclass)
