"""Output made plain JSON values, with null kept as null (allennlp's `sanitize` writes `None` as the string
`"None"`, and a readable key the frame files cannot fill is null)."""

from typing import Any

from allennlp.common.util import sanitize


def json_values(value: Any) -> Any:
    """`value` with tensors, numpy values and tuples made JSON values (by `sanitize`) and None kept."""
    if value is None:
        return None
    if isinstance(value, dict):
        return {key: json_values(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_values(item) for item in value]
    return sanitize(value)
