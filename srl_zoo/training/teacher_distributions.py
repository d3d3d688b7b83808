"""A teacher's tag distributions for distilling it into a smaller model (`srl-zoo teach`; docs/training.md,
"Distilling a model"). The teacher archive runs through the runtime (its fastest precision within 0.1 F1, `auto`)
over data files, each a CoNLL file (its gold predicates scored, its gold frames kept) or plain text, one tokenized
sentence per line (the teacher finds the predicates and its best tags become the frames: silver data). Per
(frame, token) its most probable tags (its CRF's marginals, or its softmax) go to a teacher file
(`srl_zoo.data.formats.teacher_distributions`), which a training config names in its reader's `teacher_files`
beside the data file it belongs to: the single CoNLL input, or the CoNLL file of every input's frames
(`frames_path`).

The inputs are taught in chunks of sentences, each kept under `OUTPUT.parts/` once done: a run that stops
resumes at the first missing chunk (the same archive, inputs and settings; else it says so)."""

import json
import logging
import os
import shutil
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import torch

from srl_zoo.archive_cache import content_digest
from srl_zoo.archive_files import ArchiveError
from srl_zoo.data.formats import READERS, SrlFrame, SrlSentence, SrlSpan
from srl_zoo.data.formats.conll2012 import read_conll2012, write_conll2012
from srl_zoo.data.formats.conll_kind import conll_format_of
from srl_zoo.data.formats.io_utils import atomic_write, iter_lines
from srl_zoo.data.formats.sentence import ConllFormatError
from srl_zoo.data.formats.teacher_distributions import (
    TeacherFileError,
    TeacherFrames,
    read_teacher_file,
    top_distributions,
    write_teacher_file,
)
from srl_zoo.front.requests import SrlRequest
from srl_zoo.nn.inference_speed import bfloat16_autocast
from srl_zoo.runtime.labeler import RuntimeLabeler, load
from srl_zoo.runtime.load import NotCovered

logger = logging.getLogger(__name__)

#: sentences per chunk kept under `OUTPUT.parts/` (what a stopped run loses at most)
CHUNK_SENTENCES = 2000


@dataclass
class TaughtSentence:
    """One input sentence: its words, its frames (gold, or None until the teacher finds them) and its source."""

    words: list[str]
    gold: Optional[SrlSentence]
    source: str


def read_inputs(paths: Sequence[str]) -> list[TaughtSentence]:
    """The sentences of every input in order: a CoNLL file's (its format told from its first lines) with their
    gold frames, a text file's lines (words split on spaces; blank lines skipped) without."""
    sentences: list[TaughtSentence] = []
    for path in paths:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{path}: no such data file")
        conll_format = conll_format_of(path)
        if conll_format is not None:
            sentences.extend(TaughtSentence(s.tokens, s, s.source or path) for s in READERS[conll_format](path))
            continue
        for number, line in iter_lines(path):
            if line.split():
                sentences.append(TaughtSentence(line.split(), None, f"{path}:{number}"))
    return sentences


def teach_chunk(
    labeler: RuntimeLabeler, sentences: Sequence[TaughtSentence], top_k: int
) -> list[tuple[SrlSentence, TeacherFrames]]:
    """The teacher's frames and distributions for `sentences` (each with words), in their order: gold frames keep
    their predicates and arguments; a text sentence gets the teacher's predicates (sense `LEMMA.NN` from its head,
    the word lowercased as lemma) and best tags."""
    model = labeler.model
    labels = tuple(model.tags[index] for index in range(len(model.tags)))
    requests = [
        SrlRequest(s.words, [frame.index for frame in s.gold.frames] if s.gold is not None else None) for s in sentences
    ]
    found: list[Any] = [None] * len(sentences)
    for call in labeler.budget.calls([request.words for request in requests]):
        batch = labeler.prepare_batch([requests[i] for i in call])
        # not inference_mode: a CRF's marginals are the gradient of its log partition
        with torch.no_grad(), bfloat16_autocast(labeler.autocast_bfloat16, labeler.device.type):
            output = model.decode(batch, with_probabilities=True)
        probabilities = output["class_probabilities"].float().cpu().numpy()
        for row, (index, decoded) in enumerate(zip(call, model.readout.srl_frames(output), strict=True)):
            length = len(sentences[index].words)
            ids, kept = top_distributions(probabilities[row, [f for f, _ in decoded], :length], top_k)
            predicates = np.asarray([frame.index for _, frame in decoded], dtype=np.int32)
            taught = _with_frames(sentences[index], [frame for _, frame in decoded])
            found[index] = (taught, TeacherFrames(labels, predicates, ids, kept))
    return found


def _with_frames(sentence: TaughtSentence, decoded: list[SrlFrame]) -> SrlSentence:
    """The sentence as written to the frames file: its gold one, or its words with the teacher's frames."""
    if sentence.gold is not None:
        return sentence.gold
    lemmas = [sentence.words[frame.index].lower() for frame in decoded]
    frames = [  # a predicate the head gave no sense gets the first, as a restricted head does for a new word
        SrlFrame(frame.index, lemma, f"{lemma}.{frame.sense or '01'}", one_verb(frame.index, frame.arguments))
        for frame, lemma in zip(decoded, lemmas, strict=True)
    ]
    return SrlSentence(tokens=list(sentence.words), frames=frames, source=sentence.source)


def one_verb(predicate: int, spans: Sequence[SrlSpan]) -> list[SrlSpan]:
    """A decoded frame's spans as a data file holds them: one `V` span, on the predicate. Other `V` spans the tags
    gave are dropped; where none covers the predicate, the predicate becomes `V` and a span over it is dropped."""
    on_predicate = [s for s in spans if s.label == "V" and s.start <= predicate <= s.end][:1]
    kept = [s for s in spans if s.label != "V" and not (on_predicate == [] and s.start <= predicate <= s.end)]
    verb = on_predicate or [SrlSpan("V", predicate, predicate)]
    return sorted(kept + verb, key=lambda span: (span.start, span.end))


def _fingerprint(archive_file: str, paths: Sequence[str], settings: dict[str, Any]) -> dict[str, Any]:
    """What a chunk folder was made from: the archive's and the inputs' SHA-256 and the settings."""
    return {"archive": content_digest(archive_file), "inputs": [content_digest(path) for path in paths], **settings}


def _chunk_folder(out_path: str, fingerprint: dict[str, Any]) -> str:
    """`OUTPUT.parts/`, made with its `made_from.json`, or checked against it (a `TeacherFileError` naming it)."""
    folder = out_path + ".parts"
    record = os.path.join(folder, "made_from.json")
    if os.path.isfile(record):
        with open(record, encoding="utf-8") as handle:
            if json.load(handle) != fingerprint:
                raise TeacherFileError(
                    f"{folder}: chunks of another teacher, other inputs or other settings; remove the folder to "
                    "start again"
                )
        return folder
    os.makedirs(folder, exist_ok=True)
    with atomic_write(record) as handle:
        json.dump(fingerprint, handle)
    return folder


def _chunks(folder: str, count: int) -> Iterator[tuple[int, str, str]]:
    """Each chunk's number and its two files (frames, distributions)."""
    for number in range(count):
        stem = os.path.join(folder, f"chunk-{number:05d}")
        yield number, stem + ".gold_conll", stem + ".npz"


def write_distributions(
    archive_file: str,
    data_paths: Sequence[str],
    out_path: str,
    frames_path: Optional[str] = None,
    top_k: int = 4,
    precision: str = "auto",
    batch_size: int = 64,
) -> int:
    """Write the teacher archive's distributions for the frames of `data_paths` to `out_path` and, with
    `frames_path`, every input's frames (gold or the teacher's) to that CoNLL-2012 file; the number of sentences.
    Without `frames_path` there must be one CoNLL input (the teacher file then belongs to it)."""
    sentences = read_inputs(data_paths)
    if frames_path is None and (len(data_paths) != 1 or any(s.gold is None for s in sentences)):
        what = "several inputs" if len(data_paths) != 1 else "plain text, not CoNLL"
        reason = f"{what}: name the CoNLL file of their frames with --frames-output"
        raise ConllFormatError(data_paths[-1], None, reason)
    try:
        labeler = load(archive_file, batch_size=batch_size, precision=precision, readable_frames=False)
    except NotCovered as error:
        reason = f"{error.part} is not in the allennlp-free runtime, which runs a teacher: choose a teacher it builds"
        raise ArchiveError(archive_file, reason) from None
    logger.info("the teacher runs in %s (%s)", labeler.precision, labeler.precision_reason)
    settings = {"top_k": top_k, "precision": labeler.precision, "chunk": CHUNK_SENTENCES}
    folder = _chunk_folder(out_path, _fingerprint(archive_file, data_paths, settings))
    count = -(-len(sentences) // CHUNK_SENTENCES)
    started = time.perf_counter()
    for number, conll_part, npz_part in _chunks(folder, count):
        if os.path.isfile(npz_part):
            continue
        chunk = sentences[number * CHUNK_SENTENCES : (number + 1) * CHUNK_SENTENCES]
        taught = teach_chunk(labeler, chunk, top_k)
        write_conll2012([sentence for sentence, _ in taught], conll_part)
        labels = list(taught[0][1].labels)
        write_teacher_file(npz_part, labels, archive_file, ((s.tokens, frames) for s, frames in taught))
        logger.info("chunk %d/%d done, %.0f s", number + 1, count, time.perf_counter() - started)
    taught_sentences = [
        (sentence, frames)
        for _, conll_part, npz_part in _chunks(folder, count)
        for sentence, (_, frames) in zip(read_conll2012(conll_part), read_teacher_file(npz_part), strict=True)
    ]
    labels = list(taught_sentences[0][1].labels) if taught_sentences else []
    if frames_path is not None:
        write_conll2012([sentence for sentence, _ in taught_sentences], frames_path)
    written = write_teacher_file(
        out_path, labels, archive_file, ((sentence.tokens, frames) for sentence, frames in taught_sentences)
    )
    shutil.rmtree(folder)
    return written
