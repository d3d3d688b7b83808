"""Defines, at import, the ext vars the bundled configs may leave unset (training_configs/common/data.libsonnet)."""

import os
from typing import MutableMapping

# '' stands for "the English Web Treebank file bundled under data/ewt/ in the config's format".
OPTIONAL_CONFIG_VARIABLES = ("SRL_TRAIN_DATA", "SRL_DEV_DATA")


def define_optional_config_variables(environment: MutableMapping[str, str] = os.environ) -> None:
    """Sets each optional config variable that is unset to '' (jsonnet has no optional ext vars).

    allennlp hands the environment to jsonnet as ext vars when it reads a config, which happens after
    `--include-package srl_zoo` has imported this package; a value the user set is kept.

    # Parameters

    environment : the mapping to update, `os.environ` by default.
    """
    for name in OPTIONAL_CONFIG_VARIABLES:
        environment.setdefault(name, "")
