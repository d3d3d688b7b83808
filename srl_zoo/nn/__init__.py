"""Small `allennlp.nn` additions: initializers."""

from srl_zoo.nn.initializers import RescaleInitializer
