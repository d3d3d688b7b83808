"""What every benchmark measures the same way: the device it ran on (the CPU's model name, not only "cpu"),
wall time around work that may run on a GPU, the best of repeated runs, and peak memory."""

import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch

from srl_zoo.leaderboard.machine import processor_name


def device_name(cuda: bool) -> str:
    """The GPU's name, or the CPU's model name with its native bfloat16 and the threads torch uses."""
    if cuda:
        return torch.cuda.get_device_name()
    return f"{processor_name()}, {torch.get_num_threads()} threads"


@dataclass
class Stopwatch:
    """Seconds of the `timed` block it came from (0 until the block ends)."""

    seconds: float = 0.0


@contextmanager
def timed(cuda: bool = False) -> Iterator[Stopwatch]:
    """Time the block, waiting for the GPU's queued work at both ends when `cuda` (and counting the GPU's peak
    memory from the start of the block)."""
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    watch, started = Stopwatch(), time.perf_counter()
    yield watch
    if cuda:
        torch.cuda.synchronize()
    watch.seconds = time.perf_counter() - started


def best_seconds(run: Callable[[], Any], repeats: int = 3) -> float:
    """The least wall time of `repeats` runs of `run` (the least disturbed by a shared machine)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def peak_memory_mib(cuda: bool = False) -> float:
    """The GPU's peak allocated memory since the last `timed` block, else this process's peak resident memory."""
    if cuda:
        return torch.cuda.max_memory_allocated() / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
