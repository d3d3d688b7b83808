"""Labeling without allennlp: `srl_zoo.runtime.load("model.tar.gz")` gives a `RuntimeLabeler` that labels raw
text and pre-tokenized sentences with the archive's parts, the same labels and scores as the allennlp predictor.

    from srl_zoo.runtime import labeler
    label = labeler.load("model.tar.gz")
    for sentence in label("Bush nominated two judges."):
        print([frame["description"] for frame in sentence["frames"]])
"""

import functools
from collections.abc import Callable, Sequence
from typing import Any, Optional, Union

import torch

from srl_zoo.frames.readable_frames import ReadableFrames
from srl_zoo.front.batch_budget import MAX_BATCH_CHARACTERS, BatchBudget, check_batch_size
from srl_zoo.front.request_labeling import RequestLabeling
from srl_zoo.front.requests import SrlRequest, check_min_score
from srl_zoo.nn.inference_speed import bfloat16_autocast
from srl_zoo.nn.precision import cpu_has_fast_bfloat16, precision_choice
from srl_zoo.runtime.int8_encoder import (
    encoder_cache_folder,
    int8_engine_for,
    missing_int8_engine,
    run_transformer_in_int8,
)
from srl_zoo.runtime.load import load_model, model_from_folder
from srl_zoo.runtime.model import LabelingModel, PreparedBatch
from srl_zoo.runtime.onnx_encoder import EngineUnavailable


class RuntimeLabeler(RequestLabeling):
    """Labels text with a `LabelingModel`: sentences split and tokenized by a blank spaCy pipeline, batched by
    length within a `BatchBudget`, each frame given readable keys (lemma, roleset, role descriptions).

    # Parameters

    model : the archive's `LabelingModel`.
    cuda_device : -1 for the CPU, else the GPU's index.
    batch_size : sentences per model call, at most. max_batch_characters : padded characters per call, at most.
    language : spaCy language code of the blank tokenizer.
    precision : `auto` (the fastest precision this machine runs natively that the archive records within 0.1 F1
        of float32, else float32: `srl_zoo.nn.precision`), `float32`, `bfloat16` or `int8` (the transformer in ONNX
        Runtime with int8 weights: srl_zoo's `onnx` extra).
    encoder_cache : the folder that keeps the transformer's ONNX graphs for int8, or a function that gives it when
        int8 is chosen (None: made anew each time).
    readable_frames : add PropBank's lemma, roleset and role descriptions (English only).
    min_score : leave out arguments scored below it; 0 keeps every one.
    """

    def __init__(
        self,
        model: LabelingModel,
        cuda_device: int = -1,
        batch_size: int = 64,
        language: str = "en",
        precision: str = "auto",
        readable_frames: bool = True,
        min_score: float = 0.0,
        max_batch_characters: int = MAX_BATCH_CHARACTERS,
        encoder_cache: Union[None, str, Callable[[], Optional[str]]] = None,
        int8_engine: Optional[str] = None,
    ) -> None:
        self.device = torch.device(f"cuda:{cuda_device}" if cuda_device >= 0 else "cpu")
        self.model = model.to(self.device)
        self.budget = BatchBudget(batch_size, characters=max_batch_characters)
        self.language = language
        engine = int8_engine_for(model, int8_engine)
        self.precision, self.precision_reason = precision_choice(
            precision, cuda_device, model.f1_per_precision, int8_engine=engine
        )
        if self.precision == "int8":
            if engine is None:
                raise missing_int8_engine(model, int8_engine)
            try:
                run_transformer_in_int8(model, encoder_cache() if callable(encoder_cache) else encoder_cache, engine)
            except EngineUnavailable as error:
                if precision != "auto":
                    raise ValueError(f"precision int8: {error}; use float32 or bfloat16") from None
                self.precision, reason = precision_choice(precision, cuda_device, model.f1_per_precision)
                self.precision_reason = f"{reason}; int8 not taken: {error}"
        #: bfloat16 autocast: asked for, or around the int8 transformer where the CPU computes bfloat16 natively
        self.autocast_bfloat16 = self.precision == "bfloat16" or (self.precision == "int8" and cpu_has_fast_bfloat16())
        self.readable = ReadableFrames() if readable_frames and language == "en" else None
        self.min_score = check_min_score(min_score)

    @property
    def on_gpu(self) -> bool:
        """Whether the model runs on a GPU."""
        return self.device.type == "cuda"

    @property
    def tags(self) -> dict[int, str]:
        """`{index: BIO tag}` of the model's tags."""
        return self.model.tags

    def prepare_batch(self, requests: Sequence[SrlRequest]) -> PreparedBatch:
        """The host's work for one model call of these sentences (non-empty ones): CPU tensors."""
        return self.model.prepare(
            [r.words for r in requests],
            [r.predicates for r in requests],
            [r.heads if r.heads_given else None for r in requests],
        )

    def frames_of(self, batch: PreparedBatch) -> list[list[dict[str, Any]]]:
        """Each sentence's frames of a prepared batch, computed on the labeler's device in its precision."""
        with torch.inference_mode(), bfloat16_autocast(self.autocast_bfloat16, self.device.type):
            return self.model(batch)


def load(
    archive_file: str, cuda_device: int = -1, batch_size: int = 64, precision: str = "auto", **options: Any
) -> RuntimeLabeler:
    """A `RuntimeLabeler` for the srl_zoo archive `archive_file` (options: `language`, `readable_frames`,
    `min_score`, `max_batch_characters`); `ArchiveError` naming the file for a bad archive or a part the runtime
    does not build."""
    check_batch_size(batch_size)
    return _labeler(archive_file, load_model(archive_file), cuda_device, batch_size, precision, **options)


def load_from_folder(
    archive_file: str,
    folder: str,
    cuda_device: int = -1,
    batch_size: int = 64,
    precision: str = "auto",
    **options: Any,
) -> RuntimeLabeler:
    """`load` reading the archive's files from `folder`, the folder they are extracted in."""
    check_batch_size(batch_size)
    model = model_from_folder(archive_file, folder)
    return _labeler(archive_file, model, cuda_device, batch_size, precision, **options)


def _labeler(
    archive_file: str, model: LabelingModel, cuda_device: int, batch_size: int, precision: str, **options: Any
) -> RuntimeLabeler:
    """The `RuntimeLabeler` of `archive_file`'s model, its int8 encoder kept in the archive's encoder cache."""
    options.setdefault("encoder_cache", functools.partial(encoder_cache_folder, archive_file))  # hashed if int8
    return RuntimeLabeler(model, cuda_device, batch_size, precision=precision, **options)
