"""Which major version of transformers is installed: the pinned 4.25.1, or 5 and later (a GPU image's), whose BERT
attention and tokenizers differ in ways srl_zoo's patches and test helpers must know."""

import transformers


def transformers_5_or_later() -> bool:
    """Whether the installed transformers is version 5 or later."""
    return int(transformers.__version__.split(".")[0]) >= 5
