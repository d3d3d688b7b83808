"""Instances to tensors and tensors to a device: the two ends of a batch's way to the model, split so
that the first can run in an input worker process and the second (a non-blocking copy from pinned
memory, `srl_zoo.nn.pinned`) just before the forward pass."""

from typing import Any, Union

import torch
from allennlp.data import Instance, Vocabulary
from allennlp.data.batch import Batch

TensorDict = dict[str, Any]  # allennlp's nested tensor dict (TextField dicts, metadata lists)


def tensorize(instances: list[Instance], vocab: Vocabulary) -> TensorDict:
    """The padded tensor dict of a batch of instances (what `Model.forward` takes), indexed with `vocab`."""
    batch = Batch(instances)
    batch.index_instances(vocab)
    return batch.as_tensor_dict()


def to_device(value: Any, device: Union[torch.device, str], non_blocking: bool = False) -> Any:
    """`value` (a tensor, or dicts/lists/tuples of them) with every tensor on `device`; copies from
    pinned memory to a GPU are asynchronous with `non_blocking`."""
    if isinstance(value, torch.Tensor):
        return value if value.device == torch.device(device) else value.to(device, non_blocking=non_blocking)
    if isinstance(value, dict):
        return {key: to_device(item, device, non_blocking) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(to_device(item, device, non_blocking) for item in value)
    return value
