"""A test helper: a copy of a model archive rewritten the way an older srl_zoo saved it (its config and
weight names changed), to check that old archives still load and predict the same."""

import json
import os
import tarfile
from collections.abc import Callable
from typing import Any, Optional

import torch


def rewritten_archive(
    archive: str,
    target: str,
    config_change: Callable[[dict[str, Any]], None],
    weight_name: Optional[Callable[[str], str]] = None,
) -> str:
    """Write `target`: `archive` with `config_change` applied to its config (in place) and each weight
    renamed by `weight_name` (None: the weights as they are); returns `target`."""
    directory = os.path.join(os.path.dirname(target), "old")
    with tarfile.open(archive) as tar:
        tar.extractall(directory, filter="data")
    config_path = os.path.join(directory, "config.json")
    with open(config_path) as handle:
        config = json.load(handle)
    config_change(config)
    with open(config_path, "w") as handle:
        json.dump(config, handle)
    if weight_name is not None:
        weights_path = os.path.join(directory, "weights.th")
        weights = torch.load(weights_path, weights_only=True)
        renamed = {weight_name(key): value for key, value in weights.items()}
        assert set(renamed) != set(weights), "the rewrite renamed no weight: the old layout is not what it tests"
        torch.save(renamed, weights_path)
    with tarfile.open(target, "w:gz") as tar:
        for name in os.listdir(directory):
            tar.add(os.path.join(directory, name), arcname=name)
    return target


def without_graphs(archive: str, target: str) -> str:
    """Write `target` (uncompressed): `archive` without its inference graphs and their manifest, as archives were
    before `srl-zoo export --graphs`; returns `target`."""
    with tarfile.open(archive) as source, tarfile.open(target, "w") as written:
        for member in source.getmembers():
            name = os.path.basename(member.name)
            if name == "graphs.json" or (name.startswith("graph-") and name.endswith(".onnx")):
                continue
            written.addfile(member, source.extractfile(member) if member.isfile() else None)
    return target
