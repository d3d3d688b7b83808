"""Output made plain JSON values, with null kept as null (a readable key the frame files cannot fill is null)."""

from typing import Any


def json_values(value: Any) -> Any:
    """`value` with tensors, numpy values and tuples made JSON values and None kept: a tensor or numpy array
    becomes its list, a numpy or tensor scalar its Python number, anything else not JSON its `str`."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dict):
        return {key: json_values(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_values(item) for item in value]
    if hasattr(value, "tolist"):  # torch tensors and numpy arrays and scalars
        return json_values(value.tolist())
    return str(value)
