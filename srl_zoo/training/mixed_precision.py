"""A trainer callback that runs every forward pass under bfloat16 autocast (GPU or CPU)."""

import functools
import logging
from collections.abc import Callable
from typing import Any

import torch
from allennlp.training.callbacks import TrainerCallback

logger = logging.getLogger(__name__)

DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}


@TrainerCallback.register("mixed_precision")
class MixedPrecisionCallback(TrainerCallback):
    """Wraps the trainer's forward passes (training and validation) in `torch.autocast`.

    AllenNLP's own `use_amp` is float16 with a gradient scaler through the deprecated
    `torch.cuda.amp` API. bfloat16 has float32's exponent range, so it needs no gradient scaler:
    only the forward pass runs under autocast, backward and the optimizer step stay as they are,
    and the parameters stay float32. Works on CUDA and, where the CPU has bfloat16 support, on CPU.

    ```jsonnet
    "trainer": {"cuda_device": 0, "callbacks": [{"type": "mixed_precision"}]}
    ```

    # Parameters

    dtype : `"bfloat16"` (default) or `"float16"` (then prefer allennlp's `use_amp`, which scales gradients).
    """

    def __init__(self, serialization_dir: str, dtype: str = "bfloat16") -> None:
        super().__init__(serialization_dir)
        if dtype not in DTYPES:
            raise ValueError(f"mixed_precision dtype must be one of {sorted(DTYPES)}, got {dtype!r}")
        self.dtype = DTYPES[dtype]

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        if getattr(trainer, "_use_amp", False):
            raise ValueError(
                "the mixed_precision callback and the trainer's use_amp both set autocast: use one of them"
            )
        device = getattr(trainer, "cuda_device", torch.device("cpu"))
        device_type = device.type if isinstance(device, torch.device) else ("cuda" if int(device) >= 0 else "cpu")
        trainer.batch_outputs = autocast_calls(trainer.batch_outputs, device_type, self.dtype)
        logger.info("Forward passes run under %s autocast on %s", self.dtype, device_type)


def autocast_calls(
    function: Callable[..., dict[str, torch.Tensor]], device_type: str, dtype: torch.dtype
) -> Callable[..., dict[str, torch.Tensor]]:
    """`function` wrapped so that each call runs under `torch.autocast(device_type, dtype)`."""

    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> dict[str, torch.Tensor]:
        with torch.autocast(device_type=device_type, dtype=dtype):
            return function(*args, **kwargs)

    return wrapped
