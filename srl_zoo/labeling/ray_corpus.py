"""`srl-zoo label --ray`: a corpus labeled by Ray actors, one block at a time (`srl_zoo.labeling.blocks`). Ray Data
hands each block to whichever actor is free; an actor or node that is lost has its block retried on another (or
on the actor restarted); each block's output is written whole or not at all, so a rerun after the driver is
killed labels only the blocks whose outputs are missing. Ray is imported here and in `ray_data` only, when a run
starts."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
import warnings
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Optional

from srl_zoo.labeling.blocks import (
    RAY_OUTPUT_FORMATS,
    Block,
    RunSettings,
    input_files,
    input_format_of,
    label_block,
    manifest_of,
    model_digest,
    plan_blocks,
    prepare_output,
    remove_empty_attempts,
)
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.local_ray import local_ray
from srl_zoo.labeling.ray_data import MAX_RESTARTS

if TYPE_CHECKING:
    import pyarrow as pa


class BlockLabeler:
    """What each Ray actor runs: the archive loaded once, `threads` torch threads, then each batch of block rows
    (a `pyarrow.Table` of `Block` fields) labeled into the output folder; returns one row of counts per block."""

    def __init__(
        self,
        archive: str,
        output: str,
        settings: dict[str, Any],
        threads: int = 1,
        precision: str = "auto",
        min_score: float = 0.0,
        cuda_device: int = -1,
        model_sha256: str = "",
    ) -> None:
        threads_of_this_actor(threads)
        from srl_zoo.labelers import load_labeler

        self.settings = RunSettings(**settings)
        self.output = output
        self.model_changed = bool(model_sha256) and model_digest(archive) != model_sha256
        if self.model_changed:
            return  # told on the first block: an actor that fails to start is only retried
        self.labeler = load_labeler(
            archive,
            cuda_device=cuda_device,
            batch_size=self.settings.batch_size,
            precision=precision,
            min_score=min_score,
        )

    def __call__(self, batch: pa.Table) -> pa.Table:
        import pyarrow as pa

        if self.model_changed:
            raise LabelRunError(
                "the model archive changed since this run began (its bytes differ from the manifest's "
                "model_sha256); no block was labeled with it: rerun with --restart to label with the new one"
            )

        counts = [label_block(self.labeler, Block(**row), self.settings, self.output) for row in batch.to_pylist()]
        return pa.Table.from_pylist(counts)


def threads_of_this_actor(threads: int) -> None:
    """Keep an actor to the CPUs Ray gave it: `threads` torch threads, and as many for the word-piece tokenizer's
    own pool (which would otherwise start one thread per core of the machine, beside every other actor's)."""
    os.environ.setdefault("RAYON_NUM_THREADS", str(threads))
    import torch

    torch.set_num_threads(threads)


@dataclass(frozen=True)
class RayRun:
    """Where a Ray run labels and with what: `address` None for a local Ray of this machine on loopback only (or the
    Ray this process has joined already), else a cluster's address (`auto`: the one `ray start` joined);
    `processes` actors (default: the cluster's CPUs over `threads`), each with `threads` CPUs, and one GPU each
    when `cuda_device` >= 0."""

    address: Optional[str] = None
    processes: Optional[int] = None
    threads: int = 1
    block_lines: int = 10_000
    precision: str = "auto"
    min_score: float = 0.0
    cuda_device: int = -1


def label_corpus_on_ray(
    archive: str,
    input_path: str,
    output: str,
    settings: RunSettings,
    run: Optional[RayRun] = None,
    input_format: Optional[str] = None,
    overwrite: bool = False,
    progress: bool = True,
) -> dict[str, Any]:
    """Label `input_path` (a file, a folder or a URI) into the folder `output`, one file per block, with the
    manifest `_manifest.json`; returns the counts (`blocks`, `blocks_done_before`, `lines`, `sentences`,
    `tokens`, `errors`, `processes`). `run`: where and how (default: a local Ray, one thread an actor)."""
    run = run or RayRun()
    if settings.output_format not in RAY_OUTPUT_FORMATS:
        raise LabelRunError(
            f"--ray writes {', '.join(RAY_OUTPUT_FORMATS)}, not {settings.output_format}: label without --ray"
        )
    files = input_files(input_path)
    chosen_format = input_format_of(files, input_format)
    settings = RunSettings(**{**asdict(settings), "input_format": chosen_format})
    blocks = plan_blocks(input_path, chosen_format, run.block_lines, files)
    labeling = {"precision": run.precision, "min_score": run.min_score}
    manifest = manifest_of(blocks, settings, archive, input_path, labeling)
    done = set(prepare_output(output, manifest, overwrite))
    pending = [block for block in blocks if block.name not in done]
    totals = {"blocks": len(blocks), "blocks_done_before": len(done), "lines": 0, "sentences": 0, "tokens": 0}
    totals.update(errors=0, processes=0)
    if not pending:
        return totals
    import ray

    with ray_for_run(run.address):
        processes = run.processes or max(1, int(ray.cluster_resources().get("CPU", 1) // run.threads))
        totals["processes"] = min(processes, len(pending))
        _label_pending(archive, output, settings, run, pending, totals, progress, manifest["model_sha256"])
    remove_empty_attempts(output)
    return totals


@contextlib.contextmanager
def ray_for_run(address: Optional[str]) -> Iterator[None]:
    """The Ray a run labels on, for the block: the one this process has joined already; else, without an
    `address` (nor `RAY_ADDRESS`), a new Ray of this machine on loopback only (`local_ray`), shut down afterwards;
    else the cluster at `address`, left afterwards."""
    import ray

    if ray.is_initialized():
        yield
    elif address is None and not os.environ.get("RAY_ADDRESS"):
        with local_ray():
            yield
    else:
        ray.init(address=address, include_dashboard=False, configure_logging=False, log_to_driver=False)
        try:
            yield
        finally:
            ray.shutdown()


def _label_pending(
    archive: str,
    output: str,
    settings: RunSettings,
    run: RayRun,
    pending: list[Block],
    totals: dict[str, Any],
    progress: bool,
    model_sha256: str,
) -> None:
    import ray.data

    logging.getLogger("ray.data").setLevel(logging.ERROR)  # Ray Data's own lines about the run's execution
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False  # the driver's own bar counts blocks and lines
    context.print_on_execution_start = False
    dataset = ray.data.from_items([asdict(block) for block in pending], override_num_blocks=len(pending))
    # Ray 2.60 warns of any `ray_remote_args`, but `map_batches` has no named parameter for an actor's restarts
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*ray_remote_args.*")
        labeled = _labeled_blocks(
            dataset, archive, output, settings, run, processes=totals["processes"], model_sha256=model_sha256
        )
    _follow(labeled, totals, progress)


def _labeled_blocks(
    dataset: Any, archive: str, output: str, settings: RunSettings, run: RayRun, processes: int, model_sha256: str
) -> Any:
    """`dataset`'s blocks mapped by a pool of `processes` `BlockLabeler` actors (lazy), each checking that the
    archive is still the one of `model_sha256`."""
    import ray.data

    return dataset.map_batches(
        BlockLabeler,
        fn_constructor_kwargs={
            "archive": archive,
            "output": output,
            "settings": asdict(settings),
            "threads": run.threads,
            "precision": run.precision,
            "min_score": run.min_score,
            "cuda_device": 0 if run.cuda_device >= 0 else -1,
            "model_sha256": model_sha256,
        },
        batch_size=1,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=processes),
        num_cpus=run.threads,
        num_gpus=1 if run.cuda_device >= 0 else 0,
        max_restarts=MAX_RESTARTS,
        max_task_retries=MAX_RESTARTS,
    )


def _follow(labeled: Any, totals: dict[str, Any], progress: bool) -> None:
    """Run the labeling, adding each block's counts to `totals` and showing them on a bar."""
    from tqdm import tqdm

    started = time.perf_counter()
    done_before = totals["blocks_done_before"]
    bar = tqdm(total=totals["blocks"], initial=done_before, unit="block", disable=not progress)
    try:
        for row in labeled.iter_rows():
            for key in ("lines", "sentences", "tokens", "errors"):
                totals[key] += row[key]
            seconds = max(time.perf_counter() - started, 1e-9)
            bar.set_postfix(
                lines=totals["lines"], errors=totals["errors"], tokens_per_s=int(totals["tokens"] / seconds)
            )
            bar.update(1)
    except Exception as error:
        raise LabelRunError(_first_line(error)) from None
    finally:
        bar.close()


def _first_line(error: BaseException) -> str:
    """The message of the error a block failed with, under Ray's wrappers: a `LabelRunError` as it is, else the
    innermost error's first line."""
    seen = error
    while True:
        if isinstance(seen, LabelRunError):
            return str(seen)
        inner = getattr(seen, "cause", None) or seen.__cause__
        if not isinstance(inner, BaseException) or inner is seen:
            break
        seen = inner
    text = (str(seen).strip().splitlines() or [type(seen).__name__])[0]
    return f"labeling on Ray failed: {type(seen).__name__}: {text}"


def summary_line(totals: dict[str, Any], seconds: float) -> str:
    """The counts of a Ray run as the one JSON line `srl-zoo label` prints."""
    rate = totals["tokens"] / max(seconds, 1e-9)
    return json.dumps({**totals, "seconds": round(seconds, 1), "tokens_per_s": round(rate, 1)})
