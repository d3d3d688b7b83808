"""Linear layers under CPU bfloat16 autocast computed in blocks of a fixed number of rows.

oneDNN builds (and keeps) a bfloat16 matrix-product kernel for every new input shape, and a model labeling
a long text sees hundreds of them (sentences x frames x words differ from batch to batch): on the shipped
model the first 1,000 EWT dev sentences as one text peaked at 1,925 MiB in bfloat16 against 1,276 MiB in
float32. Blocks of `BLOCK_ROWS` rows (the last one padded with zeros) give one shape per layer: 1,268 MiB,
no slower."""

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

#: rows per bfloat16 matrix product
BLOCK_ROWS = 128


class FixedRowLinear(TorchFunctionMode):
    """While active, every `F.linear` on a CPU tensor under bfloat16 autocast is computed `rows` input rows
    at a time (the last block padded), so each layer meets one input shape; anything else runs unchanged.

    # Parameters

    rows : rows per block.
    """

    def __init__(self, rows: int = BLOCK_ROWS) -> None:
        super().__init__()
        self.rows = rows

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is not F.linear or not torch.is_autocast_enabled("cpu") or args[0].device.type != "cpu":
            return func(*args, **kwargs)
        return blocked_linear(*args, rows=self.rows, **kwargs)


def blocked_linear(
    inputs: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None, rows: int = BLOCK_ROWS
) -> torch.Tensor:
    """`F.linear(inputs, weight, bias)` computed `rows` rows at a time, the last block padded with zeros.

    # Parameters

    inputs : `(..., in_features)`; weight : `(out_features, in_features)`; bias : `(out_features,)` or None.
    Returns `(..., out_features)`.
    """
    flat = inputs.reshape(-1, inputs.shape[-1])
    count = flat.shape[0]
    padding = (-count) % rows
    if padding:
        flat = torch.cat([flat, flat.new_zeros(padding, flat.shape[1])])
    blocks = [F.linear(block, weight, bias) for block in flat.split(rows)]
    outputs = torch.cat(blocks)[:count] if blocks else F.linear(flat, weight, bias)
    return outputs.reshape(*inputs.shape[:-1], outputs.shape[-1])
