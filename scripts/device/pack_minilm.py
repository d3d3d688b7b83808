"""Pack `.cache/minilm` small enough to travel to a lent GPU machine (whose working tree may be at most
64 MiB): the weights in float16 (22.7M parameters, 45 MB) with the config and tokenizer, xz-compressed to
about 41 MB. `scripts/device/run_minilm_rows.sh` unpacks it there and writes the weights back in float32
(training starts from MiniLM rounded to float16, a relative change below 0.05%).

    python scripts/device/pack_minilm.py [.cache/minilm] [.gpu/minilm.tar.xz]
    python scripts/device/pack_minilm.py --restore DIRECTORY     # DIRECTORY/weights_fp16.pt, unpacked
"""

import lzma
import os
import sys
import tarfile
import tempfile

import torch

KEPT = ("config.json", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "PROVENANCE.json")


def floating_as(state: dict[str, torch.Tensor], dtype: torch.dtype) -> dict[str, torch.Tensor]:
    """`state` with its floating-point tensors in `dtype` (integer buffers as they are)."""
    return {name: value.to(dtype) if value.is_floating_point() else value for name, value in state.items()}


def pack(source: str, target: str) -> None:
    """Write `target` (a .tar.xz holding `minilm/` with `weights_fp16.pt`) from the model directory `source`."""
    state = torch.load(os.path.join(source, "pytorch_model.bin"), map_location="cpu", weights_only=True)
    halved = floating_as(state, torch.float16)
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        torch.save(halved, os.path.join(scratch, "weights_fp16.pt"))
        partial = target + ".partial"
        with lzma.open(partial, "wb", preset=9) as packed, tarfile.open(fileobj=packed, mode="w") as archive:
            archive.add(os.path.join(scratch, "weights_fp16.pt"), "minilm/weights_fp16.pt")
            for name in KEPT:
                if os.path.exists(os.path.join(source, name)):
                    archive.add(os.path.join(source, name), f"minilm/{name}")
        os.replace(partial, target)


def restore(directory: str) -> None:
    """Replace `directory/weights_fp16.pt` (an unpacked `minilm/`) by `pytorch_model.bin` in float32."""
    packed = os.path.join(directory, "weights_fp16.pt")
    state = torch.load(packed, map_location="cpu", weights_only=True)
    torch.save(floating_as(state, torch.float32), os.path.join(directory, "pytorch_model.bin"))
    os.remove(packed)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--restore"]:
        restore(sys.argv[2])
        sys.exit(0)
    arguments = sys.argv[1:] + [".cache/minilm", ".gpu/minilm.tar.xz"][len(sys.argv[1:]) :]
    pack(arguments[0], arguments[1])
    print(f"{arguments[1]}: {os.path.getsize(arguments[1]) / 2**20:.1f} MiB")
