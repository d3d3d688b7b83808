"""Pack an encoder directory (`.cache/minilm`, `.cache/mpnet`) small enough to travel to a lent GPU machine
(whose working tree may be at most 64 MiB a call): the weights rounded to bfloat16 and stored as two byte planes
(the sign and exponent bytes of every weight together, then the mantissa bytes, which xz compresses far better
than interleaved bytes) with the config and tokenizer, xz-compressed: MiniLM (22.7M parameters, 45 MB in
bfloat16) to about 28 MB; MPNet-base (109M) is then cut into pieces that travel in successive calls
(`make gpu-accurate-files`). The device scripts unpack it there and write the weights back in float32. Training
starts from the encoder rounded to bfloat16 (a relative change below 0.4%), which is what bfloat16 autocast
multiplies by anyway; the accurate model's frozen weights are rounded the same way wherever it runs
(`frozen_precision: "bfloat16"`).

    python scripts/device/pack_encoder.py [--preset 9] [.cache/minilm] [.gpu/minilm.tar.xz]  # inside: target's stem
    python scripts/device/pack_encoder.py --restore DIRECTORY     # DIRECTORY/weights_planes.pt, unpacked
"""

import lzma
import os
import sys
import tarfile
import tempfile

import torch

KEPT = (
    "config.json",
    "special_tokens_map.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.txt",
    "PROVENANCE.json",
)
PLANES = "weights_planes.pt"


def as_planes(state: dict[str, torch.Tensor]) -> dict[str, object]:
    """`state`'s floating-point tensors in bfloat16 as a high-byte and a low-byte plane over all of them (with
    each tensor's name, shape and offset); other tensors as they are."""
    floating = [(name, value) for name, value in state.items() if value.is_floating_point()]
    words = torch.cat([value.to(torch.bfloat16).reshape(-1).view(torch.int16) for _, value in floating])
    pairs = words.view(torch.uint8).reshape(-1, 2)  # little-endian: (low byte, high byte) per weight
    index, offset = [], 0
    for name, value in floating:
        index.append((name, list(value.shape), offset))
        offset += value.numel()
    return {
        "index": index,
        "high": pairs[:, 1].clone(),
        "low": pairs[:, 0].clone(),
        "other": {name: value for name, value in state.items() if not value.is_floating_point()},
    }


def from_planes(packed: dict) -> dict[str, torch.Tensor]:
    """The float32 state `as_planes` stored."""
    words = torch.stack([packed["low"], packed["high"]], dim=1).reshape(-1).view(torch.int16).view(torch.bfloat16)
    state = dict(packed["other"])
    for name, shape, offset in packed["index"]:
        count = int(torch.Size(shape).numel())
        state[name] = words[offset : offset + count].reshape(shape).float()
    return state


def pack(source: str, target: str, preset: int = 9) -> None:
    """Write `target` (a .tar.xz holding `NAME/` with `weights_planes.pt`, NAME the target's name before its first
    dot) from the model directory `source`."""
    folder = os.path.basename(target).split(".")[0]
    state = torch.load(os.path.join(source, "pytorch_model.bin"), map_location="cpu", weights_only=True)
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        torch.save(as_planes(state), os.path.join(scratch, PLANES))
        partial = target + ".partial"
        with lzma.open(partial, "wb", preset=preset) as packed, tarfile.open(fileobj=packed, mode="w") as archive:
            archive.add(os.path.join(scratch, PLANES), f"{folder}/{PLANES}")
            for name in KEPT:
                if os.path.exists(os.path.join(source, name)):
                    archive.add(os.path.join(source, name), f"{folder}/{name}")
        os.replace(partial, target)


def restore(directory: str) -> None:
    """Replace `directory/weights_planes.pt` (an unpacked pack) by `pytorch_model.bin` in float32."""
    packed = os.path.join(directory, PLANES)
    state = from_planes(torch.load(packed, map_location="cpu", weights_only=True))
    torch.save(state, os.path.join(directory, "pytorch_model.bin"))
    os.remove(packed)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--restore"]:
        restore(sys.argv[2])
        sys.exit(0)
    preset = 9
    if sys.argv[1:2] == ["--preset"]:  # 0 for MPNet: its mantissa plane (half the bytes) does not compress at any
        preset = int(sys.argv[2])  # preset, and 9 takes minutes on it; the other plane shrinks as well at 0 (to ~42%)
        del sys.argv[1:3]
    arguments = sys.argv[1:] + [".cache/minilm", ".gpu/minilm.tar.xz"][len(sys.argv[1:]) :]
    pack(arguments[0], arguments[1], preset)
    print(f"{arguments[1]}: {os.path.getsize(arguments[1]) / 2**20:.1f} MiB")
