"""An initializer that rescales a tensor's existing values (e.g. pretrained vectors) to a target spread."""

from typing import Any, Optional

import torch
from allennlp.nn.initializers import Initializer


@Initializer.register("rescale")
class RescaleInitializer(Initializer):
    """Multiplies the tensor in place so that its values have standard deviation `std`, keeping
    their directions and relative sizes; with `center`, the mean row is subtracted first.

    Meant for pretrained word vectors loaded through `pretrained_file`: the model's initializer
    runs after the embedder has read them, so a regex on the embedding weight brings GloVe's spread
    (≈0.4-0.6 per dimension) to the scale of the other embeddings, e.g. N(0, 1/d) in DeepAtt whose
    input is multiplied by √d. A plain random initializer on the same regex would overwrite the
    pretrained vectors instead.

    ```jsonnet
    "initializer": {"regexes": [["text_field_embedder.token_embedder_tokens.weight", {"type": "rescale", "std": 0.1}]]}
    ```

    # Parameters

    std : the target standard deviation over all values.
    center : subtract the mean vector (over rows) before scaling.
    """

    def __init__(self, std: float, center: bool = False) -> None:
        if std <= 0:
            raise ValueError(f"rescale std must be positive, got {std}")
        self.std = std
        self.center = center

    def __call__(self, tensor: torch.Tensor, parameter_name: Optional[str] = None, **kwargs: Any) -> None:
        with torch.no_grad():
            if self.center and tensor.dim() >= 2:
                tensor.sub_(tensor.mean(dim=0, keepdim=True))
            spread = tensor.std()
            if spread > 0:
                tensor.mul_(self.std / spread)
