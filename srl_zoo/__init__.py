"""srl_zoo: semantic role labeling for AllenNLP. Importing it registers every component."""

from srl_zoo import commands, data, metrics, models, modules, nn, predictors, training  # noqa: F401
