"""Checkpoint averaging: the mean of a run's weights after several epochs, written as a copy of its archive.

    python -m srl_zoo.training.checkpoint_average RUN_DIR --epochs 2 3 --output averaged.tar.gz

`RUN_DIR` is an `allennlp train` serialization directory whose checkpointer kept those epochs
(`"checkpointer": {"keep_most_recent_by_count": null}` keeps every one); the output is its `model.tar.gz` (or
`--archive`, another archive of the same model, e.g. the one a stopped run started from) with its weights replaced by
the average (score or `srl-zoo export` it like any other).
"""

import argparse
import os
import re
import sys
import tarfile
import tempfile
from collections.abc import Sequence

import torch

from srl_zoo.archive_files import load_weights
from srl_zoo.data.formats.io_utils import atomic_write

WEIGHTS_MEMBER = "weights.th"
EPOCH_STATE = re.compile(r"^model_state_e(\d+)_b0\.th$")


def epoch_states(run_dir: str) -> dict[int, str]:
    """The model-state files the run kept at the end of an epoch, by the number of epochs completed (1 = the first)."""
    found = {}
    for name in os.listdir(run_dir):
        match = EPOCH_STATE.match(name)
        if match:
            found[int(match.group(1))] = os.path.join(run_dir, name)
    return found


def averaged_weights(paths: Sequence[str]) -> dict[str, torch.Tensor]:
    """The element-wise mean of the floating-point tensors of the state dicts in `paths` (in float32, cast back to
    each tensor's dtype); other tensors (ids, counts) must be equal in all of them and are kept.

    # Parameters

    paths : `torch.save`d state dicts of one model (the same keys and shapes), read as plain weights
        (`load_weights`: a pickled payload is refused, naming the file).
    """
    if not paths:
        raise ValueError("no checkpoint to average")
    states = [load_weights(path) for path in paths]
    first = states[0]
    for path, state in zip(paths[1:], states[1:], strict=True):
        if state.keys() != first.keys():
            differing = sorted(set(state) ^ set(first))
            raise ValueError(f"{path}: its weights differ from {paths[0]}'s by name: {', '.join(differing[:5])}")
    averaged = {}
    for name, tensor in first.items():
        others = [state[name] for state in states[1:]]
        for path, other in zip(paths[1:], others, strict=True):
            if other.shape != tensor.shape:
                raise ValueError(f"{path}: {name} has shape {tuple(other.shape)}, {paths[0]} {tuple(tensor.shape)}")
        if tensor.is_floating_point():
            total = sum((other.float() for other in others), tensor.float())
            averaged[name] = (total / len(states)).to(tensor.dtype)
        else:
            for path, other in zip(paths[1:], others, strict=True):
                if not torch.equal(other, tensor):
                    raise ValueError(f"{path}: {name} (not floating point) differs from {paths[0]}'s")
            averaged[name] = tensor
    return averaged


def write_with_weights(archive: str, weights: dict[str, torch.Tensor], output: str) -> None:
    """`archive` copied to `output` (through a temporary file and a rename) with its `weights.th` replaced."""
    with tarfile.open(archive, "r:gz") as source:
        members = source.getmembers()
        if not any(member.name == WEIGHTS_MEMBER for member in members):
            raise ValueError(f"{archive}: no {WEIGHTS_MEMBER} in it: not a model archive")
        with (
            tempfile.TemporaryDirectory() as staging,
            atomic_write(output, "wb") as handle,
            tarfile.open(fileobj=handle, mode="w:gz") as target,
        ):
            for member in members:
                if member.name != WEIGHTS_MEMBER:
                    target.addfile(member, source.extractfile(member) if member.isfile() else None)
            staged = os.path.join(staging, WEIGHTS_MEMBER)
            torch.save(weights, staged)
            target.add(staged, arcname=WEIGHTS_MEMBER)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", help="an allennlp train serialization directory")
    parser.add_argument("--epochs", type=int, nargs="+", required=True, help="epochs completed (1 = after the first)")
    parser.add_argument("--output", required=True, help="the archive to write")
    parser.add_argument("--archive", help="the archive to copy (default: RUN_DIR/model.tar.gz)")
    args = parser.parse_args(argv)
    kept = epoch_states(args.run_dir)
    missing = [epoch for epoch in args.epochs if epoch not in kept]
    if missing:
        have = ", ".join(str(epoch) for epoch in sorted(kept)) or "none"
        sys.exit(f"{args.run_dir}: no weights kept after epoch {missing[0]} (kept: {have})")
    archive = args.archive or os.path.join(args.run_dir, "model.tar.gz")
    if not os.path.isfile(archive):
        sys.exit(f"{archive}: no such archive (a run writes model.tar.gz when it ends; --archive names another)")
    write_with_weights(archive, averaged_weights([kept[epoch] for epoch in args.epochs]), args.output)
    print(f"{args.output}: the mean of epochs {', '.join(map(str, args.epochs))} of {args.run_dir}")


if __name__ == "__main__":
    main()
