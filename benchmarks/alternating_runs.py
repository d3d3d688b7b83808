"""What the prediction benchmarks share: label the same batches under several settings measured alternately in
one process (the best of some rounds each), and report each setting's tokens/s against a reference setting
with the share of frames tagged as it tags them. Imported by the benchmarks beside it."""

import time
from collections.abc import Callable
from typing import Any

Batch = list[dict[str, Any]]


def frame_tags(outputs: list) -> list:
    """The BIO tags of every frame in srl_zoo predictor outputs (one list of sentences per batch)."""
    return [frame["tags"] for batch in outputs for sentence in batch for frame in sentence["frames"]]


def best_of_alternating_runs(
    runs: dict[str, Callable[[Batch], list]],
    batches: list[Batch],
    tokens: int,
    rounds: int,
    tags_of: Callable[[list], list] = frame_tags,
) -> tuple[dict[str, float], dict[str, list]]:
    """Each setting's best tokens/s over `rounds` passes over `batches` (settings alternate within a round),
    and `tags_of` its outputs of the last pass (by default the tags of every frame it labeled).
    `runs[name](batch)` labels one batch."""
    best = dict.fromkeys(runs, 0.0)
    tags: dict[str, list] = {}
    for _ in range(rounds):
        for name, label in runs.items():
            started = time.perf_counter()
            outputs = [label(batch) for batch in batches]
            best[name] = max(best[name], tokens / (time.perf_counter() - started))
            tags[name] = tags_of(outputs)
    return best, tags


def print_against(reference: str, best: dict[str, float], tags: dict[str, list]) -> None:
    """One line per setting: tokens/s, the ratio to `reference` and the frames tagged as `reference` tags them."""
    expected = tags[reference]
    for name, speed in best.items():
        same = sum(a == b for a, b in zip(tags[name], expected, strict=True)) / max(len(expected), 1)
        print(
            f"{name}: {speed:,.0f} tokens/s ({speed / best[reference]:.2f}x); "
            f"frames tagged as with {reference}: {100 * same:.2f}%"
        )
