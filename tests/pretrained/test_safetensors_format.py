"""The safetensors reader: what the writer wrote comes back equal, for every dtype and shape; broken
bytes give a `SafetensorsError` saying where."""

import struct

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from srl_zoo.pretrained.safetensors_format import DTYPES, SafetensorsError, read_safetensors, write_safetensors

shapes = st.lists(st.integers(min_value=0, max_value=4), min_size=0, max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=8), st.tuples(st.sampled_from(sorted(DTYPES)), shapes), max_size=4))
def test_round_trip(specification):
    generator = torch.Generator().manual_seed(0)
    tensors = {}
    for name, (dtype_name, shape) in specification.items():
        values = torch.randint(0, 2 if dtype_name == "BOOL" else 100, shape, generator=generator)
        tensors[name] = values.to(DTYPES[dtype_name])
    read = read_safetensors(write_safetensors(tensors))
    assert read.keys() == tensors.keys()
    for name, tensor in tensors.items():
        assert read[name].dtype == tensor.dtype and read[name].shape == tensor.shape
        assert torch.equal(read[name], tensor)


def test_broken_bytes_are_named():
    good = write_safetensors({"w": torch.ones(2, 3)})
    with pytest.raises(SafetensorsError, match="8-byte"):
        read_safetensors(b"\x01")
    with pytest.raises(SafetensorsError, match="runs past the end"):
        read_safetensors(struct.pack("<Q", 10**6) + good[8:])
    with pytest.raises(SafetensorsError, match="w: data offsets"):
        read_safetensors(good[:-4])
    with pytest.raises(SafetensorsError, match=r"w: 24 bytes of F32 do not fill shape \[2, 4\]"):
        read_safetensors(write_safetensors({"w": torch.ones(2, 3)}).replace(b"[2, 3]", b"[2, 4]"))
