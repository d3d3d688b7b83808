"""JSON-serialisable state carried in a model's state dict as a `uint8` tensor of its UTF-8 text (AMN's
memory bank, a predicate head's sense table), so that an archive holds it with the weights."""

import json
from typing import Any

import torch


def json_to_tensor(value: Any) -> torch.Tensor:
    """`value` as JSON, UTF-8 encoded, in a 1-d `uint8` tensor (empty for an empty text)."""
    encoded = json.dumps(value, ensure_ascii=False).encode("utf-8")
    return torch.frombuffer(bytearray(encoded), dtype=torch.uint8) if encoded else torch.zeros(0, dtype=torch.uint8)


def tensor_to_json(saved: torch.Tensor) -> Any:
    """What `json_to_tensor` encoded."""
    return json.loads(saved.cpu().numpy().tobytes().decode("utf-8"))
