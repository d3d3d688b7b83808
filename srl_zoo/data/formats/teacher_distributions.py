"""A teacher model's tag distributions for the frames of a data file (knowledge distillation): written once by
`python -m srl_zoo.training.teacher_distributions`, read beside the data by the reader's `teacher_files`.

The file is a numpy `.npz` archive holding, for every sentence of the data file in order, its words' hash and
its predicates, and for every (frame, token) cell the teacher's `top_k` most probable tags with their
probabilities (renormalised over those kept):

- `labels` `(num_labels,)` the teacher's tags; `teacher` `()` what made the file;
- `word_hashes` `(sentences,)` uint32 CRC-32 of the words (`words_hash`); `token_counts`, `frame_counts`
  `(sentences,)`; `predicates` `(frames,)` their token indices, sentence after sentence;
- `label_ids` `(cells, top_k)` int16 into `labels` (-1: none) and `probabilities` `(cells, top_k)` float16,
  cells frame after frame, token after token."""

import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.data.formats.sentence import SrlSentence

KEYS = ("labels", "teacher", "word_hashes", "token_counts", "frame_counts", "predicates", "label_ids", "probabilities")


class TeacherFileError(ValueError):
    """A teacher file that is unreadable or does not belong to the data it is read beside; the message names both."""


@dataclass(frozen=True)
class TeacherFrames:
    """One sentence's teacher distributions.

    # Parameters

    labels : the teacher's tags (shared by every sentence of a file).
    predicates : `(num_frames,)` the frames' predicate indices.
    label_ids : `(num_frames, num_tokens, top_k)` indices into `labels`, -1 where none.
    probabilities : `(num_frames, num_tokens, top_k)` their probabilities.
    """

    labels: tuple[str, ...]
    predicates: np.ndarray
    label_ids: np.ndarray
    probabilities: np.ndarray


def words_hash(words: list[str]) -> int:
    """A sentence's CRC-32 over its words (what aligns a teacher file with its data file)."""
    return zlib.crc32("\x1f".join(words).encode("utf-8"))


def top_distributions(probabilities: np.ndarray, top_k: int) -> tuple[np.ndarray, np.ndarray]:
    """The `top_k` most probable tags per cell and their probabilities renormalised over them.

    # Parameters

    probabilities : `(..., num_labels)` a distribution per cell.

    # Returns

    `label_ids (..., top_k)` int16 (-1 where a tag has probability 0) and `probabilities (..., top_k)` float16.
    """
    top_k = min(top_k, probabilities.shape[-1])
    ids = np.argsort(-probabilities, axis=-1)[..., :top_k]
    kept = np.take_along_axis(probabilities, ids, axis=-1)
    ids = np.where(kept > 0, ids, -1)
    total = kept.sum(-1, keepdims=True)
    kept = np.divide(kept, total, out=np.zeros_like(kept), where=total > 0)
    return ids.astype(np.int16), kept.astype(np.float16)


def write_teacher_file(
    path: str, labels: list[str], teacher: str, sentences: Iterable[tuple[list[str], TeacherFrames]]
) -> int:
    """Write the teacher distributions of `sentences` (words, frames; in the data file's order) to `path`
    (a temporary file renamed at the end); the number of sentences written."""
    hashes, token_counts, frame_counts = [], [], []
    predicates: list[np.ndarray] = []
    ids: list[np.ndarray] = []
    probabilities: list[np.ndarray] = []
    for words, frames in sentences:
        hashes.append(words_hash(words))
        token_counts.append(len(words))
        frame_counts.append(len(frames.predicates))
        predicates.append(np.asarray(frames.predicates, dtype=np.int32))
        top_k = frames.label_ids.shape[-1]
        ids.append(frames.label_ids.reshape(-1, top_k))
        probabilities.append(frames.probabilities.reshape(-1, top_k))
    arrays = {
        "labels": np.asarray(labels, dtype=str),
        "teacher": np.asarray(teacher),
        "word_hashes": np.asarray(hashes, dtype=np.uint32),
        "token_counts": np.asarray(token_counts, dtype=np.int32),
        "frame_counts": np.asarray(frame_counts, dtype=np.int32),
        "predicates": np.concatenate(predicates) if predicates else np.zeros(0, np.int32),
        "label_ids": np.concatenate(ids) if ids else np.zeros((0, 1), np.int16),
        "probabilities": np.concatenate(probabilities) if probabilities else np.zeros((0, 1), np.float16),
    }
    with atomic_write(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
    return len(hashes)


def read_teacher_file(path: str) -> Iterator[tuple[int, TeacherFrames]]:
    """Per sentence of a teacher file, in order: its words' hash and its `TeacherFrames`."""
    if not os.path.isfile(path):
        raise TeacherFileError(
            f"{path or repr(path)}: no such teacher file: `srl-zoo teach` writes one (`make teacher` the bundled "
            "recipe's; SRL_TEACHER names another)"
        )
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in KEYS}
    except (OSError, KeyError, ValueError) as error:
        raise TeacherFileError(f"{path}: not a teacher file ({error})") from None
    labels = tuple(str(label) for label in arrays["labels"])
    frame_starts = np.concatenate([[0], np.cumsum(arrays["frame_counts"])])
    cells = arrays["frame_counts"].astype(np.int64) * arrays["token_counts"]
    cell_starts = np.concatenate([[0], np.cumsum(cells)])
    top_k = arrays["label_ids"].shape[-1]
    for index, (tokens, frames) in enumerate(zip(arrays["token_counts"], arrays["frame_counts"], strict=True)):
        shape = (int(frames), int(tokens), top_k)
        cell_slice = slice(cell_starts[index], cell_starts[index + 1])
        yield (
            int(arrays["word_hashes"][index]),
            TeacherFrames(
                labels,
                arrays["predicates"][frame_starts[index] : frame_starts[index + 1]],
                arrays["label_ids"][cell_slice].reshape(shape),
                arrays["probabilities"][cell_slice].reshape(shape),
            ),
        )


def attach_teacher(
    sentences: Iterable[SrlSentence], teacher_path: str, data_path: str
) -> Iterator[tuple[SrlSentence, TeacherFrames]]:
    """Pair each sentence of `data_path` with its distributions from `teacher_path`, checking that they belong
    together (words, predicates, number of sentences): a `TeacherFileError` naming both files otherwise."""
    taught = read_teacher_file(teacher_path)
    for number, sentence in enumerate(sentences, start=1):
        where = f"{teacher_path}: sentence {number} ({sentence.source or data_path})"
        found = next(taught, None)
        if found is None:
            raise TeacherFileError(f"{where}: the teacher file ends before the data file {data_path}")
        hashed, frames = found
        if hashed != words_hash(sentence.tokens):
            raise TeacherFileError(f"{where}: its words differ from the data's; was it made from {data_path}?")
        if [frame.index for frame in sentence.frames] != frames.predicates.tolist():
            raise TeacherFileError(f"{where}: its predicates differ from the data's")
        yield sentence, frames
    if next(taught, None) is not None:
        raise TeacherFileError(f"{teacher_path}: more sentences than the data file {data_path}")
