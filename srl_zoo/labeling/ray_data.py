"""Corpus labeling on Ray Data: `RayLabeler`, a callable class for `Dataset.map_batches` that loads an archive once
per actor and labels a batch of rows into typed Arrow columns, and `label_dataset`, which applies it to a
`ray.data.Dataset` with the usual knobs. `write_parquet` and `write_json` take the result as it is.

Each output row is its input row (every column kept, an `id` among them) plus `sentences` (a list of
`arrow_types.SENTENCE_TYPE`: words, character offsets and frames with their predicate, tags and arguments) and
`error` (null, or why the row could not be labeled: a row that fails is a record, not a failed job). Ray and pyarrow
are needed here only (`pip install 'srl_zoo[ray]'`), and imported when a batch is labeled."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.labeling.chunks import MAX_LINE_CHARACTERS

#: how often an actor that died (out of memory, a lost node) is restarted and its batch retried before the run fails
MAX_RESTARTS = 3

if TYPE_CHECKING:
    import pyarrow as pa


class RayLabeler:
    """What each Ray actor runs: the archive loaded once (`srl_zoo.labelers.load_labeler`, the runtime's where it
    builds the archive), `threads` torch threads, then each batch (a `pyarrow.Table`) labeled: the `text_column`
    as raw text, or the `tokens_column` (lists of words) with given predicates where `predicates_column` has them.

    # Parameters

    archive : a model archive (`model.tar.gz`) every actor can read.
    text_column, tokens_column, predicates_column : the input's columns (a tokens column is used where given).
    threads : torch threads of this actor.
    batch_size : sentences per model call (the runtime's batching inside).
    precision : `"auto"`, `"float32"` or `"bfloat16"` (`srl_zoo.load`'s).
    cuda_device : -1 for the CPU, else the GPU's index.
    max_characters : a longer text is the row's error, not labeled (`srl-zoo label`'s limit on a line).
    """

    def __init__(
        self,
        archive: str,
        text_column: str = "text",
        tokens_column: Optional[str] = None,
        predicates_column: Optional[str] = None,
        threads: int = 1,
        batch_size: int = 64,
        precision: str = "auto",
        cuda_device: int = -1,
        max_characters: int = MAX_LINE_CHARACTERS,
    ) -> None:
        from srl_zoo.labelers import load_labeler
        from srl_zoo.labeling.ray_corpus import threads_of_this_actor

        threads_of_this_actor(threads)
        self.labeler: TextLabeler = load_labeler(
            archive, cuda_device=cuda_device, batch_size=batch_size, precision=precision
        )
        self.max_characters = max_characters
        self.text_column = text_column
        self.tokens_column = tokens_column
        self.predicates_column = predicates_column

    def __call__(self, batch: pa.Table) -> pa.Table:
        """`batch` with the `sentences` (lists of `SENTENCE_TYPE`) and `error` (strings) columns added."""
        import pyarrow as pa

        from srl_zoo.labeling.arrow_types import LABELED_FIELDS

        if self.tokens_column is not None:
            requests = [self._tokens_request(batch, row) for row in range(batch.num_rows)]
            labeled = _each_or_alone(requests, self._label_tokens)
        else:
            texts = batch.column(self.text_column).to_pylist()
            labeled = _each_or_alone(texts, self._label_texts)
        labeled = [_writable(sentences, error) for sentences, error in labeled]
        sentences_field, error_field = LABELED_FIELDS
        sentences = pa.array([s if error is None else [] for s, error in labeled], sentences_field.type)
        errors = pa.array([error for _, error in labeled], error_field.type)
        return batch.append_column(sentences_field, sentences).append_column(error_field, errors)

    def _tokens_request(self, batch: pa.Table, row: int) -> Any:
        request: dict[str, Any] = {"tokens": batch.column(self.tokens_column)[row].as_py()}
        if self.predicates_column is not None:
            predicates = batch.column(self.predicates_column)[row].as_py()
            if predicates is not None:
                request["predicates"] = predicates
        return request

    def _label_texts(self, texts: Sequence[Any]) -> list[list[dict[str, Any]]]:
        for index, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"row {index}: the text is {type(text).__name__}, not a string")
            self._check_length(index, len(text))
        return list(self.labeler.pipe(list(texts)))

    def _label_tokens(self, requests: Sequence[Any]) -> list[list[dict[str, Any]]]:
        for index, request in enumerate(requests):
            tokens = request.get("tokens") or []
            self._check_length(index, sum(len(token) + 1 for token in tokens if isinstance(token, str)))
        return [[sentence] for sentence in self.labeler.label_tokenized(list(requests))]

    def _check_length(self, index: int, characters: int) -> None:
        """`ValueError` for row `index` of `characters` over `max_characters` (what `srl-zoo label
        --max-line-characters` bounds): it is that row's error, never labeled."""
        if characters > self.max_characters:
            raise ValueError(f"row {index}: {characters:,} characters, over the limit of {self.max_characters:,}")


def _writable(sentences: list[dict[str, Any]], error: Optional[str]) -> tuple[list[dict[str, Any]], Optional[str]]:
    """A row's outcome as it can be written: sentences whose text is not UTF-8 (a lone surrogate) become the
    error saying so."""
    if error is not None:
        return sentences, error
    try:
        json.dumps(sentences, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as problem:
        return [], f"UnicodeEncodeError: the row's text cannot be written as UTF-8 ({problem.reason})"
    return sentences, None


def _each_or_alone(rows: Sequence[Any], label: Any) -> list[tuple[list[dict[str, Any]], Optional[str]]]:
    """`(sentences, None)` for each of `rows` labeled together by `label`; where that fails, each row alone, a row
    that still fails `([], "ErrorType: reason")`."""
    try:
        return [(sentences, None) for sentences in label(rows)]
    except Exception:  # one bad row: label the others alone
        pass
    labeled: list[tuple[list[dict[str, Any]], Optional[str]]] = []
    for row in rows:
        try:
            labeled.append((label([row])[0], None))
        except Exception as error:
            reason = (str(error).strip().splitlines() or [""])[0][:300]
            labeled.append(([], f"{type(error).__name__}: {reason}" if reason else type(error).__name__))
    return labeled


def label_dataset(
    dataset: Any,
    archive: str,
    text_column: str = "text",
    tokens_column: Optional[str] = None,
    predicates_column: Optional[str] = None,
    actors: int = 1,
    threads_per_actor: int = 1,
    batch_size: int = 64,
    precision: str = "auto",
    gpus_per_actor: float = 0,
    rows_per_call: int = 256,
) -> Any:
    """`dataset` (a `ray.data.Dataset`) labeled by `actors` Ray actors of `RayLabeler` (see it for the columns,
    `batch_size` and `precision`), each with `threads_per_actor` CPUs (and `gpus_per_actor` GPUs: its actor then
    labels on its GPU), taking `rows_per_call` rows at a time; lazy, as Ray Data is (`write_parquet`,
    `write_json`, `take`, `iter_rows`... run it). An actor that dies is restarted and its batches retried. Where
    this process has no Ray yet, a local one on loopback only is started (`local_ray`) and kept until it exits."""
    import ray

    if not ray.is_initialized():  # as Ray Data would start one, but on loopback only, until this process ends
        _start_local_ray()
    settings = {
        "archive": archive, "text_column": text_column, "tokens_column": tokens_column,
        "predicates_column": predicates_column, "threads": threads_per_actor, "batch_size": batch_size,
        "precision": precision, "cuda_device": 0 if gpus_per_actor else -1,
    }  # fmt: skip
    return dataset.map_batches(
        RayLabeler,
        fn_constructor_kwargs=settings,
        batch_size=rows_per_call,
        batch_format="pyarrow",
        concurrency=actors,
        num_cpus=threads_per_actor,
        num_gpus=gpus_per_actor,
        max_restarts=MAX_RESTARTS,
        max_task_retries=MAX_RESTARTS,
    )


def _start_local_ray() -> None:
    """Start a local Ray on loopback only (`srl_zoo.labeling.local_ray`) that lasts until this process exits."""
    import atexit

    from srl_zoo.labeling.local_ray import local_ray

    started = local_ray()
    started.__enter__()
    atexit.register(started.__exit__, None, None, None)
