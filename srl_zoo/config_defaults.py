"""The defaults of the variables the bundled configs read (training_configs/common/settings.libsonnet and
data.libsonnet): jsonnet has no optional ext vars, so every unset one is handed to jsonnet as '', which the
configs read as its default. `CONFIG_VARIABLES` says what each means and defaults to. Nothing is written to
`os.environ`: the "optional config variables" patch (`srl_zoo.allennlp_patches`) adds these defaults to the
ext vars allennlp gives jsonnet when it reads a config."""

import os
from collections.abc import Mapping

from srl_zoo.cache_directory import cache_directory

CONFIG_VARIABLES: dict[str, str] = {
    "SRL_TRAIN_DATA": "training data file; default: the bundled EWT file in the config's format (data/ewt/)",
    "SRL_DEV_DATA": "validation data file; default: the bundled EWT dev file in the config's format",
    "SRL_TRAIN_TREES": "dependency trees of the training data for LISA's syntax head; default: the bundled "
    "EWT trees (only with the bundled data)",
    "SRL_DEV_TREES": "dependency trees of the validation data; default: the bundled EWT trees",
    "SRL_GLOVE": "GloVe text file; default: .cache/glove/glove.6B.50d.txt.gz if `make glove` made it, "
    "else random vectors",
    "SRL_BUDGET_MINUTES": "training budget in minutes of the CPU-budget configs; default: 30 (60 for the "
    "shipped model's recipe)",
    "SRL_CUDA_DEVICES": "devices of the distributed GPU config; default: 0,1",
    "SRL_TRANSFORMER": "a local Hugging Face model directory for the transformer configs; default: "
    ".cache/minilm if `make minilm` made it",
    "SRL_MPNET": "the MPNet-base directory of the accurate model's configs (its config and tokenizer; the frozen "
    "weights are always `make mpnet`'s); default: .cache/mpnet if `make mpnet` made it",
    "SRL_TEACHER": "the teacher's tag distributions for the training data, which the distilled recipe learns "
    "beside the gold tags; default: .cache/teacher/ewt-train-accurate.npz (`make teacher`)",
}

GLOVE_CACHE = os.path.join(cache_directory(), "glove", "glove.6B.50d.txt.gz")
MINILM_CACHE = os.path.join(cache_directory(), "minilm")
MPNET_CACHE = os.path.join(cache_directory(), "mpnet")
TEACHER_CACHE = os.path.join(cache_directory(), "teacher", "ewt-train-accurate.npz")


def config_variables(environment: Mapping[str, str]) -> dict[str, str]:
    """`environment` with every config variable it lacks set to its default: SRL_GLOVE to `make glove`'s file
    and SRL_TRANSFORMER to `make minilm`'s directory when they exist, SRL_MPNET to `make mpnet`'s directory when it
    exists, SRL_TEACHER to `make teacher`'s file, the others to '' (what the configs read as their default). A
    value in `environment` is kept; `environment` itself is not changed.

    # Parameters

    environment : the variables set (allennlp's view of `os.environ`).
    """
    variables = dict(environment)
    if "SRL_GLOVE" not in variables and os.path.isfile(GLOVE_CACHE):
        variables["SRL_GLOVE"] = GLOVE_CACHE
    if "SRL_TRANSFORMER" not in variables and os.path.isfile(os.path.join(MINILM_CACHE, "config.json")):
        variables["SRL_TRANSFORMER"] = MINILM_CACHE
    if "SRL_MPNET" not in variables and os.path.isfile(os.path.join(MPNET_CACHE, "config.json")):
        variables["SRL_MPNET"] = MPNET_CACHE
    if "SRL_TEACHER" not in variables:  # whether or not it exists yet: reading it says to run `make teacher`
        variables["SRL_TEACHER"] = TEACHER_CACHE
    for name in CONFIG_VARIABLES:
        variables.setdefault(name, "")
    return variables


def use_config_defaults() -> None:
    """allennlp's jsonnet ext vars (its `_environment_variables`, read by `Params.from_file` and by `-o`
    overrides) carry `config_variables`' defaults beside the environment; once only."""
    from allennlp.common import params

    if getattr(params._environment_variables, "srl_zoo_defaults", False):
        return
    original = params._environment_variables

    def environment_with_defaults() -> dict[str, str]:
        return config_variables(original())

    environment_with_defaults.srl_zoo_defaults = True  # type: ignore[attr-defined]
    params._environment_variables = environment_with_defaults
