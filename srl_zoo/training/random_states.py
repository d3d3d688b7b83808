"""Every random-number state a training uses (Python, NumPy, torch CPU and CUDA), captured as plain
values and tensors so that a checkpoint holding them still loads with `weights_only=True`."""

import random
from typing import Any

import numpy
import torch

RandomStates = dict[str, Any]


def capture_random_states() -> RandomStates:
    """The current states of Python's `random`, NumPy's global generator, torch's CPU generator and
    (when CUDA is in use) every GPU's generator."""
    version, internal, gauss = random.getstate()
    name, keys, position, has_gauss, cached_gauss = numpy.random.get_state(legacy=True)  # type: ignore[misc]
    states: RandomStates = {
        "python": {"version": version, "internal": list(internal), "gauss": gauss},
        "numpy": {
            "name": name,
            "keys": torch.from_numpy(numpy.asarray(keys).astype(numpy.int64)),
            "position": int(position),
            "has_gauss": int(has_gauss),
            "cached_gauss": float(cached_gauss),
        },
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        states["cuda"] = torch.cuda.get_rng_state_all()
    return states


def restore_random_states(states: RandomStates) -> None:
    """Put back states taken by `capture_random_states` (CUDA's only where CUDA is in use)."""
    python = states["python"]
    random.setstate((python["version"], tuple(python["internal"]), python["gauss"]))
    saved = states["numpy"]
    keys = saved["keys"].numpy().astype(numpy.uint32)
    numpy.random.set_state((saved["name"], keys, saved["position"], saved["has_gauss"], saved["cached_gauss"]))
    torch.set_rng_state(states["torch"])
    if "cuda" in states and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(states["cuda"])
