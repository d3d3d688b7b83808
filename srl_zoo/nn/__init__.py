"""Small torch helpers: initializers, CPU speed levers (int8 linear layers, bf16 autocast), precision choice.
The package imports nothing, so the runtime reads its allennlp-free modules without allennlp."""
