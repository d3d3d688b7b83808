"""srl_zoo: semantic role labeling for AllenNLP. `srl_zoo.load("model.tar.gz")` gives a `Labeler` for raw text;
`srl_zoo.runtime.labeler.load` one that never imports allennlp.

Importing srl_zoo imports nothing heavy (no allennlp, no torch): `--include-package srl_zoo`, the `srl-zoo`
commands and `srl_zoo.load` bring in the allennlp side (`srl_zoo.plugin`: every registered part, srl_zoo's
changes to allennlp); spaCy finds the `srl_zoo` component through its entry point."""

from typing import Any

__all__ = ["Labeler", "load"]


def __getattr__(name: str) -> Any:
    """`load` and `Labeler`, from the allennlp side, imported on first use."""
    if name in __all__:
        from srl_zoo import api

        return getattr(api, name)
    raise AttributeError(f"module 'srl_zoo' has no attribute {name!r}")
