"""The writing side of `srl-label`: a background thread that renders each labeled chunk and appends it
to the output, then records the progress, in that order and durably,
so that a run killed at any moment resumes to the same bytes."""

import logging
import os
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, BinaryIO, Optional

from tqdm import tqdm

from srl_zoo.labeling.chunks import BadLine
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.labeled_chunks import Labeled, outcomes
from srl_zoo.labeling.prepared_chunks import PreparedChunk
from srl_zoo.labeling.progress import Progress, prefix_sha256, write_progress

logger = logging.getLogger(__name__)
#: skipped lines each told in a line of their own; the rest are counted
SHOWN_SKIPPED_LINES = 20


@dataclass
class PartWriter:
    """Renders and writes labeled chunks in a background thread (one chunk behind the model), keeping
    the output and the progress record in step."""

    part: str
    start: Progress
    counts: dict[str, Any]
    output_format: str
    on_error: str
    progress: bool
    pending: deque[Future] = field(default_factory=deque)
    broken: bool = False  # a chunk failed to be written: no later one may be
    first_skipped: Optional[str] = None  # the first skipped line's `FILE:LINE: reason`

    def __enter__(self) -> "PartWriter":
        self.sink: BinaryIO = open(self.part, "ab")
        self.sink.truncate(self.start.output_bytes)  # drop whatever an interrupted run wrote after its last save
        self.bar = tqdm(desc="labeling", unit=" sentences", disable=not self.progress, dynamic_ncols=True)
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="srl-label-writer")
        return self

    def submit(self, prepared: PreparedChunk, labeled: Labeled) -> None:
        """Write this chunk once the one before is written; wait for that one (its errors surface here)."""
        self.pending.append(self.thread.submit(self._write, prepared, labeled))
        while len(self.pending) > 1:
            self.pending.popleft().result()

    def __exit__(self, *exc_info: Any) -> None:
        try:
            self.thread.shutdown(wait=True, cancel_futures=exc_info[0] is not None)
            if exc_info[0] is None:
                while self.pending:
                    self.pending.popleft().result()
        finally:
            self.bar.close()
            try:
                self.sink.close()
            except OSError:  # what a failed write left buffered: the progress record does not count it
                if exc_info[0] is None:
                    raise

    def _write(self, prepared: PreparedChunk, labeled: Labeled) -> None:
        if self.broken:  # never write a chunk after one that failed: the output would skip it
            raise RuntimeError("an earlier chunk failed to be written")
        try:
            self._write_chunk(prepared, labeled)
        except OSError as error:  # a full disk, a vanished folder: what is recorded stays, the rerun resumes
            self.broken = True
            raise LabelRunError(
                f"{self.part}: cannot write ({error.strerror or error}): the output is kept up to the last saved "
                "chunk; make room (or restore the folder) and run the same command again to resume"
            ) from None
        except BaseException:
            self.broken = True
            raise

    def _write_chunk(self, prepared: PreparedChunk, labeled: Labeled) -> None:
        chunk = prepared.chunk
        pieces: list[bytes] = []
        path = self.start.input_file
        for number, outcome in outcomes(prepared, labeled, self.output_format, path):
            if isinstance(outcome, BadLine):
                if self.on_error == "stop":
                    append_output(self.sink, b"".join(pieces))  # keep the lines before it
                    self._save(number - 1, prefix_sha256(path, number - 1), chunk.number, False)
                    raise outcome
                if self.counts["skipped"] < SHOWN_SKIPPED_LINES:
                    logger.warning("%s (line skipped)", outcome)
                elif self.counts["skipped"] == SHOWN_SKIPPED_LINES:
                    logger.warning("more lines skipped: counted, not shown (the counts at the end say how many)")
                self.first_skipped = self.first_skipped or f"at {outcome}"
                self.counts["skipped"] += 1
                continue
            record, sentences = outcome
            pieces.append(record)
            self.counts["lines"] += 1
            self.counts["sentences"] += sentences
            self.bar.update(sentences)
        data = b"".join(pieces)
        append_output(self.sink, data)
        self._save(chunk.consumed, chunk.sha256, chunk.number + 1, chunk.at_end)

    def _save(self, lines_consumed: int, consumed_sha256: str, chunks_consumed: int, complete: bool) -> None:
        """Record that the first `lines_consumed` input lines are done (the output written up to its current
        end)."""
        changes = {
            "lines_consumed": lines_consumed,
            "consumed_sha256": consumed_sha256,
            "chunks_consumed": chunks_consumed,
            "output_bytes": self.sink.tell(),
            "complete": complete,
            "input_size": os.path.getsize(self.start.input_file),
        }
        write_progress(self.part, Progress(**{**asdict(self.start), **changes}))


def append_output(sink: BinaryIO, data: bytes) -> None:
    """Append to the output and make it durable before the progress record says so."""
    sink.write(data)
    sink.flush()
    os.fsync(sink.fileno())
