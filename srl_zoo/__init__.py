"""srl_zoo: semantic role labeling for AllenNLP. `srl_zoo.load("model.tar.gz")` gives a labeler for raw text: the
allennlp-free runtime's (`RuntimeLabeler`) for every archive it builds, else the allennlp `Labeler`.

Importing srl_zoo imports nothing heavy (no allennlp, no torch): `--include-package srl_zoo`, training and the
allennlp `Labeler` (`srl_zoo.api.load`) bring in the allennlp side (`srl_zoo.plugin`: every registered part,
srl_zoo's changes to allennlp); spaCy finds the `srl_zoo` component through its entry point."""

from typing import Any

__all__ = ["Labeler", "RuntimeLabeler", "load"]


def __getattr__(name: str) -> Any:
    """`load` (`srl_zoo.labelers`), `RuntimeLabeler` (the runtime's) and `Labeler` (allennlp's), imported on first
    use."""
    if name == "load":
        from srl_zoo.labelers import load

        return load
    if name == "RuntimeLabeler":
        from srl_zoo.runtime.labeler import RuntimeLabeler

        return RuntimeLabeler
    if name == "Labeler":
        from srl_zoo.api import Labeler

        return Labeler
    raise AttributeError(f"module 'srl_zoo' has no attribute {name!r}")
