"""Page-locked copies of a batch's host tensors, so that its copy to a GPU is asynchronous."""

import dataclasses
from typing import Any

import torch


def pin(value: Any) -> Any:
    """`value` (a tensor, or dicts, lists, tuples and dataclasses of them) with every CPU tensor in page-locked
    memory."""
    if isinstance(value, torch.Tensor):
        return value.pin_memory()
    if isinstance(value, dict):
        return {key: pin(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(pin(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: pin(getattr(value, f.name)) for f in dataclasses.fields(value)})
    return value
