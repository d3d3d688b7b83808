"""Sentence encoders (the `encoder` key): the self-attention stacks and the contract a frame scorer reads."""
