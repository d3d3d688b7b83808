"""A labelling run spread over several processes (`torchrun`): process `rank` of `world` labels the
input chunks whose number is `rank` modulo `world` into its own part file, with an index of the
chunks it holds; once every part is complete, one process merges them, in chunk order, into the
output, byte for byte what one process writes."""

import os
from dataclasses import dataclass
from typing import BinaryIO

from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.progress import Progress, progress_path, read_progress, write_progress


@dataclass(frozen=True)
class Share:
    """Which input chunks one process labels: those numbered `rank` modulo `world`."""

    rank: int = 0
    world: int = 1

    def owns(self, chunk_number: int) -> bool:
        return chunk_number % self.world == self.rank

    @property
    def name(self) -> str:
        """`""` for a whole run, else `"R-of-W"` (recorded in progress records)."""
        return "" if self.world == 1 else f"{self.rank}-of-{self.world}"


def part_path(output_file: str, share: Share) -> str:
    """Where `share` writes: the output itself for a one-process run, else `OUTPUT.partR-of-W`."""
    return output_file if share.world == 1 else f"{output_file}.part{share.name}"


def index_path(part_file: str) -> str:
    """A part's index: one `CHUNK_NUMBER BYTES` line per chunk it holds, in order."""
    return part_file + ".index"


def append_index(index: BinaryIO, chunk_number: int, size: int) -> None:
    """Record that the part's next `size` bytes are chunk `chunk_number` (durably, before the progress
    record says so)."""
    index.write(f"{chunk_number} {size}\n".encode("ascii"))
    index.flush()
    os.fsync(index.fileno())


def _read_index(part_file: str, index_bytes: int) -> list[tuple[int, int]]:
    with open(index_path(part_file), "rb") as handle:
        text = handle.read(index_bytes).decode("ascii")
    return [(int(number), int(size)) for number, size in (line.split() for line in text.splitlines())]


def merge_parts(output_file: str, world: int) -> Progress:
    """Write `output_file` (atomically) from the complete parts of a `world`-process run, chunks in
    input order; record it as complete and remove the parts. `LabelRunError` if a part is missing,
    incomplete, or from another input."""
    shares = [Share(rank, world) for rank in range(world)]
    records: dict[int, Progress] = {}
    for share in shares:
        record = read_progress(part_path(output_file, share))
        if record is None or not record.complete:
            raise LabelRunError(
                f"{part_path(output_file, share)} is not complete: run the same torchrun command again to finish it"
            )
        records[share.rank] = record
    if len({(r.input_file, r.consumed_sha256, r.lines_consumed) for r in records.values()}) != 1:
        raise LabelRunError(f"the parts of {output_file} were made from different inputs: pass --overwrite")
    order = sorted(
        (number, share.rank, size)
        for share in shares
        for number, size in _read_index(part_path(output_file, share), records[share.rank].index_bytes)
    )
    parts = {share.rank: open(part_path(output_file, share), "rb") for share in shares}  # noqa: SIM115 (closed below)
    try:
        with atomic_write(output_file, "wb") as merged:
            for _, rank, size in order:
                merged.write(parts[rank].read(size))
            merged.flush()
            os.fsync(merged.fileno())
            written = merged.tell()
    finally:
        for handle in parts.values():
            handle.close()
    first = records[0]
    done = Progress(
        input_file=first.input_file,
        input_format=first.input_format,
        output_format=first.output_format,
        lines_consumed=first.lines_consumed,
        consumed_sha256=first.consumed_sha256,
        output_bytes=written,
        complete=True,
        input_size=first.input_size,
    )
    write_progress(output_file, done)
    for share in shares:
        remove_part(output_file, share)
    return done


def remove_part(output_file: str, share: Share) -> None:
    """Delete `share`'s part, its index and its progress record (if there)."""
    part = part_path(output_file, share)
    for path in (part, index_path(part), progress_path(part)):
        if os.path.exists(path):
            os.remove(path)
