"""Reads the safetensors format (8-byte header length, a JSON header, raw little-endian tensors)
without the `safetensors` package, which our transformers pin would need to read it."""

import json
import math
import struct

import torch

DTYPES = {
    "F64": torch.float64,
    "F32": torch.float32,
    "F16": torch.float16,
    "BF16": torch.bfloat16,
    "I64": torch.int64,
    "I32": torch.int32,
    "I16": torch.int16,
    "I8": torch.int8,
    "U8": torch.uint8,
    "BOOL": torch.bool,
}


class SafetensorsError(ValueError):
    """Bytes that are not a safetensors file (the message says where it went wrong)."""


def read_safetensors(data: bytes) -> dict[str, torch.Tensor]:
    """The tensors of a safetensors file's bytes, by name (each a copy owning its memory)."""
    if len(data) < 8:
        raise SafetensorsError("shorter than its 8-byte header length")
    (header_length,) = struct.unpack("<Q", data[:8])
    if 8 + header_length > len(data):
        raise SafetensorsError(f"header of {header_length} bytes runs past the end ({len(data)} bytes)")
    try:
        header = json.loads(data[8 : 8 + header_length])
    except ValueError as error:
        raise SafetensorsError(f"unreadable JSON header: {error}") from None
    body = memoryview(data)[8 + header_length :]
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if entry.get("dtype") not in DTYPES:
            raise SafetensorsError(f"{name}: unknown dtype {entry.get('dtype')!r}")
        start, end = entry["data_offsets"]
        if not 0 <= start <= end <= len(body):
            raise SafetensorsError(f"{name}: data offsets {start}..{end} outside the {len(body)}-byte body")
        dtype = DTYPES[entry["dtype"]]
        if start == end:  # frombuffer refuses an empty buffer
            tensors[name] = torch.empty(entry["shape"], dtype=dtype)
            continue
        flat = torch.frombuffer(bytearray(body[start:end]), dtype=dtype)
        if flat.numel() != math.prod(entry["shape"]):
            raise SafetensorsError(
                f"{name}: {end - start} bytes of {entry['dtype']} do not fill shape {entry['shape']}"
            )
        tensors[name] = flat.reshape(entry["shape"])
    return tensors


def write_safetensors(tensors: dict[str, torch.Tensor]) -> bytes:
    """The safetensors bytes of `tensors` (contiguous little-endian copies), for tests and fixtures."""
    names = {dtype: name for name, dtype in DTYPES.items()}
    header, chunks, offset = {}, [], 0
    for name, tensor in tensors.items():
        raw = tensor.detach().contiguous().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()
        header[name] = {
            "dtype": names[tensor.dtype],
            "shape": list(tensor.shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        chunks.append(raw)
        offset += len(raw)
    encoded = json.dumps(header).encode("utf-8")
    return struct.pack("<Q", len(encoded)) + encoded + b"".join(chunks)
