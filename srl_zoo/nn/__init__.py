"""Small `allennlp.nn` additions: initializers, CPU speed levers (int8 linear layers, bf16 autocast)."""

from srl_zoo.nn.inference_speed import bfloat16_autocast, quantize_linear_layers
from srl_zoo.nn.initializers import RescaleInitializer
