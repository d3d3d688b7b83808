"""Exact metrics under allennlp's distributed trainer: every worker's counts summed before scoring."""

from collections.abc import Mapping

import torch.distributed as dist


def sum_over_workers(counts: Mapping[str, int]) -> dict[str, int]:
    """Key-wise sum of every worker's `counts` (keys may differ between workers); the counts themselves
    outside a distributed run. A collective call: every worker must call it at the same point, as
    allennlp's trainer does with `get_metrics` after each batch.

    # Parameters

    counts : this worker's integer counts by name.
    """
    if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
        return dict(counts)
    gathered: list[dict[str, int]] = [{} for _ in range(dist.get_world_size())]
    dist.all_gather_object(gathered, dict(counts))
    total: dict[str, int] = {}
    for worker_counts in gathered:
        for key, value in worker_counts.items():
            total[key] = total.get(key, 0) + value
    return total
