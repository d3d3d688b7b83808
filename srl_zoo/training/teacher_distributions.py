"""A teacher's tag distributions for the gold frames of a data file, for distilling it into a smaller model
(`srl-zoo teach`): the teacher archive runs over the file with its gold predicates, and per (frame, token) its
most probable tags (its CRF's marginals, or its softmax) go to a teacher file (`srl_zoo.data.formats.
teacher_distributions`), which a training config names in its reader's `teacher_files` (docs/training.md,
"Distilling a model")."""

import logging
import time
from collections.abc import Iterator, Sequence

import numpy as np
import torch
from allennlp.data import Instance

from srl_zoo.archives import load_model_archive
from srl_zoo.data.formats.teacher_distributions import TeacherFrames, top_distributions, write_teacher_file
from srl_zoo.data.sentence_metadata import metadata_of

logger = logging.getLogger(__name__)


def length_batches(lengths: Sequence[int], batch_words: int) -> Iterator[list[int]]:
    """Indices of the sentences grouped by length (shortest first), each group at most `batch_words` padded
    words (at least one sentence)."""
    order = sorted(range(len(lengths)), key=lambda index: lengths[index])
    group: list[int] = []
    for index in order:
        if group and (len(group) + 1) * lengths[index] > batch_words:
            yield group
            group = []
        group.append(index)
    if group:
        yield group


def teacher_frames(
    model: torch.nn.Module, instances: Sequence[Instance], labels: tuple[str, ...], top_k: int
) -> list[TeacherFrames]:
    """The teacher's distributions for the gold frames of `instances` (one batch), in their order."""
    outputs = model.forward_on_instances(list(instances))  # type: ignore[operator]
    found = []
    for instance, output in zip(instances, outputs, strict=True):
        words = metadata_of(instance).words
        predicates = np.asarray(metadata_of(instance).predicate_indices, dtype=np.int32)
        frames = len(predicates)
        if frames and not np.array_equal(output["predicate_indices"][:frames], predicates):
            raise ValueError("the teacher did not score the gold predicates: is its predicate_source 'gold'?")
        probabilities = np.zeros((0, len(words), len(labels)), dtype=np.float32)
        if frames:
            probabilities = np.asarray(output["class_probabilities"], dtype=np.float32)[:frames, : len(words)]
        ids, kept = top_distributions(probabilities, top_k)
        found.append(TeacherFrames(labels, predicates, ids, kept))
    return found


def write_distributions(
    archive_file: str, data_path: str, out_path: str, top_k: int = 4, batch_words: int = 2000
) -> int:
    """Write the teacher archive's distributions for the gold frames of `data_path` to `out_path`; the
    number of sentences."""
    archive = load_model_archive(archive_file)
    model, reader = archive.model, archive.dataset_reader
    model.eval()
    model.set_predicate_source("gold")
    namespace = model.frame_scorer.label_namespace
    vocabulary = model.vocab.get_index_to_token_vocabulary(namespace)
    labels = tuple(vocabulary[index] for index in range(len(vocabulary)))
    instances = list(reader.read(data_path))
    found: list = [None] * len(instances)
    started, done = time.perf_counter(), 0
    with torch.no_grad():  # not inference_mode: a CRF's marginals are the gradient of its log partition
        for group in length_batches([len(metadata_of(instance).words) for instance in instances], batch_words):
            batch = [instances[index] for index in group]
            for index, frames in zip(group, teacher_frames(model, batch, labels, top_k), strict=True):
                found[index] = frames
            done += len(group)
            seconds = time.perf_counter() - started
            logger.info("%d/%d sentences, %.0f s (%.1f sentences/s)", done, len(instances), seconds, done / seconds)
    sentences = ((metadata_of(instance).words, frames) for instance, frames in zip(instances, found, strict=True))
    return write_teacher_file(out_path, list(labels), archive_file, sentences)
