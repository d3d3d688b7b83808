"""A corpus as blocks that Ray actors label one at a time (`srl-zoo label --ray`): the plan of an input (text or
JSONL files cut every `block_lines` lines at byte offsets, a compressed file whole, a Parquet file by row group),
its manifest, and one block labeled into its own output file, written under a temporary name and renamed, so
that an output that exists is whole and a rerun labels only the blocks whose outputs are missing.

Paths are read and written through pyarrow's file systems: a local or shared folder, or a URI pyarrow knows
(`s3://...`, `gs://...`). pyarrow comes with `pip install 'srl_zoo[ray]'`."""

import hashlib
import io
import json
import os
import posixpath
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any, Optional

from srl_zoo.data.formats.io_utils import TEMPORARY_PREFIX, numbered_lines_of
from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.labeling.chunks import TEXT_FIELDS, TOKEN_FIELDS, BadLine, Chunk, line_items
from srl_zoo.labeling.errors import LabelRunError
from srl_zoo.labeling.labeled_chunks import label_prepared, outcomes
from srl_zoo.labeling.prepared_chunks import prepare_chunk

#: the input formats a Ray run reads (a Parquet row holds the fields of a JSONL line: `text`, or `tokens` with
#: `predicates`, `heads`, `pos`)
RAY_INPUT_FORMATS = ("text", "jsonl", "parquet")
#: the output formats a Ray run writes, one file per block
RAY_OUTPUT_FORMATS = ("json", "allennlp_models", "parquet")
#: the folder's record of a run: its input, settings and blocks
MANIFEST = "_manifest.json"
_COMPRESSED = (".gz",)


@dataclass(frozen=True)
class Block:
    """One unit of work: lines `first_line`.. of `source` held in bytes `start`..`end` (`end` -1: to the end, a
    compressed file read whole), or, for Parquet, row group `start` whose first row is `first_line`. `name`: its
    output's path inside the output folder, without the extension. `sha256`: the digest of the bytes it was planned
    from (a text span's bytes, a compressed file's, a Parquet row group's column chunks), which reading it checks
    again; "" where none was taken."""

    name: str
    source: str
    start: int
    end: int
    first_line: int
    sha256: str = ""


@dataclass(frozen=True)
class RunSettings:
    """What every block of a run is labeled with (`srl-zoo label`'s options)."""

    input_format: str
    output_format: str
    batch_size: int = 64
    max_line_characters: int = 1_000_000


def file_system(path: str) -> tuple[Any, str]:
    """`(pyarrow file system, path in it)` of a local path or a URI."""
    from pyarrow import fs

    if "://" in path:
        return fs.FileSystem.from_uri(path)
    return fs.LocalFileSystem(), os.path.abspath(path)


def input_files(path: str) -> list[str]:
    """The files of an input: the file itself, or every file under a folder, in name order, leaving out names
    that begin with `.` or `_` (hidden files, `_SUCCESS` markers)."""
    from pyarrow import fs

    system, root = file_system(path)
    info = system.get_file_info(root)
    if info.type == fs.FileType.NotFound:
        raise LabelRunError(f"{path}: no such file or folder")
    if info.type == fs.FileType.File:
        return [root]
    found = system.get_file_info(fs.FileSelector(root, recursive=True))
    files = sorted(
        entry.path
        for entry in found
        if entry.type == fs.FileType.File
        and not any(part.startswith((".", "_")) for part in posixpath.relpath(entry.path, root).split("/"))
    )
    if not files:
        raise LabelRunError(f"{path}: a folder without input files")
    return files


def input_format_of(files: list[str], named: Optional[str]) -> str:
    """The input format: `named`, else by the first file's extension (`.parquet`, `.jsonl`/`.json`, else text)."""
    if named is not None:
        if named not in RAY_INPUT_FORMATS:
            raise LabelRunError(f"--ray reads {', '.join(RAY_INPUT_FORMATS)}, not {named}: label it without --ray")
        return named
    name = files[0][: -len(".gz")] if files[0].endswith(".gz") else files[0]
    if name.endswith(".parquet"):
        return "parquet"
    return "jsonl" if name.endswith((".jsonl", ".json")) else "text"


def plan_blocks(input_path: str, input_format: str, block_lines: int, files: Optional[list[str]] = None) -> list[Block]:
    """Every block of the input, in input order (see the module docstring); `files`: `input_files(input_path)`
    where the caller has listed them already (a listing of an object store is a request)."""
    if block_lines < 1:
        raise LabelRunError(f"--block-lines must be at least 1, got {block_lines}")
    files = files if files is not None else input_files(input_path)
    system, root = file_system(input_path)
    single = len(files) == 1 and files[0] == root
    blocks: list[Block] = []
    for source in files:
        stem = posixpath.basename(source) if single else posixpath.relpath(source, root)
        if input_format == "parquet":
            spans = _row_groups(system, source)
        elif source.endswith(_COMPRESSED):
            spans = [(0, -1, 1, _file_digest(system, source))]
        else:
            spans = list(_line_spans(system, source, block_lines))
        blocks.extend(
            Block(f"{stem}.{i:05d}", _uri(input_path, source), start, end, first, digest)
            for i, (start, end, first, digest) in enumerate(spans)
        )
    return blocks


def _uri(input_path: str, source: str) -> str:
    """`source` as the other processes open it: a URI for a URI input, else the absolute path."""
    if "://" in input_path:
        return input_path.split("://", 1)[0] + "://" + source
    return source


def _line_spans(system: Any, source: str, block_lines: int) -> Iterator[tuple[int, int, int, str]]:
    """`(start byte, end byte, first line number, SHA-256 of those bytes)` of every `block_lines` lines of an
    uncompressed file."""
    start = offset = 0
    first = 1
    digest = hashlib.sha256()
    with system.open_input_stream(source) as handle:
        for number, line, ending in numbered_lines_of(io.BufferedReader(handle)):  # type: ignore[arg-type]
            offset += len(line) + len(ending)
            digest.update(line + ending)
            if number - first + 1 == block_lines:
                yield start, offset, first, digest.hexdigest()
                start, first, digest = offset, number + 1, hashlib.sha256()
    if offset > start or first == 1:
        yield start, offset, first, digest.hexdigest()


def _file_digest(system: Any, source: str) -> str:
    """The SHA-256 of a whole file's bytes (a compressed file is one block)."""
    digest = hashlib.sha256()
    with system.open_input_stream(source) as handle:
        for piece in iter(lambda: handle.read(1024 * 1024), b""):
            digest.update(piece)
    return digest.hexdigest()


def _row_group_digest(system: Any, source: str, metadata: Any, group: int) -> str:
    """The SHA-256 of a Parquet row group's bytes in the file: each column chunk's pages, in column order."""
    digest = hashlib.sha256()
    with system.open_input_file(source) as handle:
        for column in range(metadata.num_columns):
            chunk = metadata.row_group(group).column(column)
            begin = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
            digest.update(handle.read_at(chunk.total_compressed_size, begin))
    return digest.hexdigest()


def _labeled_columns(parquet: Any, source: str) -> list[str]:
    """The columns of the open Parquet file that a line's fields are read from (`text`, or `tokens` and the rest);
    `LabelRunError` naming `source` where it has none to label."""
    names = parquet.schema_arrow.names
    columns = [name for name in names if name in TEXT_FIELDS | TOKEN_FIELDS]
    if not columns:
        raise LabelRunError(f"{source}: no 'text' or 'tokens' column (found {names})")
    return columns


def _row_groups(system: Any, source: str) -> list[tuple[int, int, int, str]]:
    """`(row group, -1, number of its first row, its digest)` of every row group of a Parquet file; a file with no
    column to label (`text`, or `tokens`) is refused here, before any work."""
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(system.open_input_file(source))
    except Exception as error:
        raise LabelRunError(f"{source}: not a Parquet file ({error})") from None
    _labeled_columns(parquet, source)
    metadata = parquet.metadata
    spans, first = [], 1
    for group in range(metadata.num_row_groups):
        spans.append((group, -1, first, _row_group_digest(system, source, metadata, group)))
        first += metadata.row_group(group).num_rows
    return spans


def manifest_of(
    blocks: list[Block], settings: RunSettings, archive: str, input_path: str, labeling: Optional[dict[str, Any]] = None
) -> dict[str, Any]:
    """What a run's folder records, so that a rerun goes on only with the same input (each block's digest), model
    (the archive's digest) and settings (`labeling`: precision and the rest of how the model labels)."""
    return {
        "input": input_path,
        "model": os.path.realpath(archive) if "://" not in archive else archive,
        "model_sha256": model_digest(archive),
        "settings": asdict(settings),
        "labeling": labeling or {},
        "blocks": [asdict(block) for block in blocks],
    }


def model_digest(archive: str) -> str:
    """The SHA-256 of the model archive's bytes ("" for a URI, which every actor reads as it is, or a path that is
    no file, which no actor loads)."""
    if "://" in archive or not os.path.isfile(archive):
        return ""
    from srl_zoo.archive_cache import content_digest

    try:
        return content_digest(archive)
    except OSError as error:
        raise LabelRunError(f"{archive}: cannot read the model ({error.strerror})") from None


#: what each part of a manifest is called when a rerun's differs
_MANIFEST_PARTS = {
    "input": "input path", "model": "model path", "model_sha256": "model (its bytes differ)",
    "settings": "output settings", "labeling": "precision or scores", "blocks": "input (its lines or bytes differ)",
}  # fmt: skip


def prepare_output(output: str, manifest: dict[str, Any], overwrite: bool) -> list[str]:
    """Make the output folder ready and return the names of the blocks whose outputs are already written: a
    new folder gets the manifest; a folder with the same manifest resumes; another manifest, or a folder of other
    files, is refused unless `overwrite` (which removes the earlier run's block outputs and manifest only)."""
    from pyarrow import fs

    system, root = file_system(output)
    info = system.get_file_info(root)
    if info.type == fs.FileType.File:
        raise LabelRunError(f"{output}: a file; a run on Ray writes a folder of one output per block")
    extension = _extension(manifest["settings"]["output_format"])
    if info.type == fs.FileType.Directory:
        earlier = _read_manifest(system, root, output)
        if earlier is None and _has_files(system, root) and not overwrite:
            raise LabelRunError(f"{output}: a folder of other files (no {MANIFEST}): choose an empty or new folder")
        if earlier is not None and earlier != manifest:
            if not overwrite:
                changed = [_MANIFEST_PARTS.get(key, key) for key in manifest if earlier.get(key) != manifest[key]]
                raise LabelRunError(
                    f"{posixpath.join(output, MANIFEST)}: an earlier run with another {', '.join(changed)}; nothing "
                    "was labeled: pass --restart to label it all again, or choose another folder"
                )
            _remove_outputs(system, root, earlier)
        elif earlier is not None and overwrite:
            _remove_outputs(system, root, earlier)
    system.create_dir(root, recursive=True)
    _remove_temporary(system, root)
    _write_whole(system, posixpath.join(root, MANIFEST), (json.dumps(manifest, indent=1) + "\n").encode())
    done = [
        block["name"] for block in manifest["blocks"] if _exists(system, _output_path(root, block["name"], extension))
    ]
    return done


def _read_manifest(system: Any, root: str, output: str) -> Optional[dict[str, Any]]:
    path = posixpath.join(root, MANIFEST)
    if not _exists(system, path):
        return None
    with system.open_input_stream(path) as handle:
        try:
            value = json.loads(handle.read().decode("utf-8"))
        except ValueError as error:
            raise LabelRunError(f"{posixpath.join(output, MANIFEST)}: not the manifest of a run ({error})") from None
    if not isinstance(value, dict):
        raise LabelRunError(f"{posixpath.join(output, MANIFEST)}: not the manifest of a run")
    return value


def _has_files(system: Any, root: str) -> bool:
    from pyarrow import fs

    return bool(system.get_file_info(fs.FileSelector(root, recursive=False)))


def _remove_outputs(system: Any, root: str, manifest: dict[str, Any]) -> None:
    extension = _extension(manifest.get("settings", {}).get("output_format", "json"))
    for block in manifest.get("blocks", []):
        for path in (
            _output_path(root, block["name"], extension),
            posixpath.join(root, ATTEMPTS, block["name"] + ".json"),
        ):
            if _exists(system, path):
                system.delete_file(path)
    system.delete_file(posixpath.join(root, MANIFEST))


def _remove_temporary(system: Any, root: str) -> None:
    """Remove what killed writers left: files named `.tmp-...` anywhere in the folder."""
    from pyarrow import fs

    for entry in system.get_file_info(fs.FileSelector(root, recursive=True)):
        if entry.type == fs.FileType.File and posixpath.basename(entry.path).startswith(TEMPORARY_PREFIX):
            system.delete_file(entry.path)


def _exists(system: Any, path: str) -> bool:
    from pyarrow import fs

    return bool(system.get_file_info(path).type == fs.FileType.File)


def _extension(output_format: str) -> str:
    return ".parquet" if output_format == "parquet" else ".jsonl"


def _output_path(root: str, name: str, extension: str) -> str:
    return posixpath.join(root, name + extension)


def _write_whole(system: Any, path: str, data: bytes) -> None:
    """Write `data` under a temporary name next to `path`, then rename it onto `path`."""
    system.create_dir(posixpath.dirname(path), recursive=True)
    temporary = posixpath.join(
        posixpath.dirname(path), f"{TEMPORARY_PREFIX}{posixpath.basename(path)}.{uuid.uuid4().hex}"
    )
    with system.open_output_stream(temporary) as handle:
        handle.write(data)
    system.move(temporary, path)


def read_block(block: Block, input_format: str) -> Chunk:
    """The block's lines as a chunk: `(line number, text or BadLine)` for each non-blank line; a Parquet row as
    the JSONL line of its fields (so that it is checked as a JSONL line is). `LabelRunError` where the bytes are no
    longer those the block was planned from (`Block.sha256`): the input changed since the run began."""
    system, path = file_system(block.source)
    if input_format == "parquet":
        return Chunk(_parquet_lines(system, path, block), 0, "", at_end=False)
    if block.end < 0:
        with system.open_input_stream(path) as handle:
            raw = handle.read()
        _check_digest(block, hashlib.sha256(raw).hexdigest())
        data = _decompressed(raw, block.source)
    else:
        with system.open_input_file(path) as handle:
            data = handle.read_at(block.end - block.start, block.start)
        _check_digest(block, hashlib.sha256(data).hexdigest())
    raw_lines = numbered_lines_of(io.BytesIO(data), block.first_line)
    return Chunk(line_items(raw_lines, block.source), 0, "", at_end=False)


def _check_digest(block: Block, digest: str) -> None:
    """`LabelRunError` where the block's bytes now have another `digest` than when the run was planned."""
    if block.sha256 and digest != block.sha256:
        raise LabelRunError(
            f"{block.source}: lines {block.first_line}.. changed since this run was planned; nothing of them was "
            "labeled: rerun with --restart to label the input as it is now"
        )


def _decompressed(raw: bytes, source: str) -> bytes:
    """A whole compressed file's bytes decompressed (gzip)."""
    import gzip

    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as error:
        raise LabelRunError(f"{source}: not a whole gzip file ({error})") from None


def _parquet_lines(system: Any, path: str, block: Block) -> list[tuple[int, Any]]:
    """The row group `block.start` as numbered JSONL lines of its fields; a row that cannot be one (a value that
    is not text or a list of words, text that is not UTF-8) is a `BadLine` naming it, not a failed block."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(system.open_input_file(path))
    columns = _labeled_columns(parquet, block.source)
    if block.sha256:
        _check_digest(block, _row_group_digest(system, path, parquet.metadata, block.start))
    table = parquet.read_row_group(block.start, columns=columns)
    strings = {name for name in columns if pa.types.is_string(table.column(name).type)}
    values: dict[str, list[Any]] = {}
    for name in columns:  # strings as bytes, decoded row by row: one bad row must not fail its column
        column = table.column(name)
        values[name] = column.cast(pa.binary()).to_pylist() if name in strings else _column_values(column)
    lines: list[tuple[int, Any]] = []
    for row in range(table.num_rows):
        number = block.first_line + row
        fields = {name: values[name][row] for name in columns}
        lines.append((number, _parquet_line(fields, strings, number, block)))
    return lines


def _column_values(column: Any) -> list[Any]:
    """A column's values as Python values, row by row (a value Python cannot hold becomes the error saying so)."""
    found: list[Any] = []
    for value in column:
        try:
            found.append(value.as_py())
        except (ValueError, OverflowError, UnicodeDecodeError) as error:
            found.append(BadLine(f"{type(error).__name__}: {error}"))
    return found


def _parquet_line(row: dict[str, Any], strings: set[str], number: int, block: Block) -> Any:
    """One Parquet row (its values by column, `strings` the text columns, read as bytes) as the JSONL line of its
    fields, or a `BadLine` saying which field cannot be one."""
    fields: dict[str, Any] = {}
    for name, value in row.items():
        where = f"{block.source}: row {number}: column {name!r}"
        if isinstance(value, BadLine):
            return BadLine(f"{where}: {value}")
        if isinstance(value, bytes):
            if name not in strings:
                return BadLine(f"{where}: binary data, not text")
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError as error:
                return BadLine(f"{where}: not UTF-8 text (byte {error.start})")
        if value is not None:
            fields[name] = value
    try:
        return json.dumps(fields, ensure_ascii=False)
    except (TypeError, ValueError) as error:
        return BadLine(f"{block.source}: row {number}: a value that is not text, a number or a list ({error})")


def label_block(labeler: TextLabeler, block: Block, settings: RunSettings, output: str) -> dict[str, Any]:
    """Label `block` into its output file in the folder `output` (unless that file exists: a retried or resumed
    block is never written twice); returns its counts: `lines` labeled, `sentences`, `tokens`, `errors`."""
    system, root = file_system(output)
    extension = _extension(settings.output_format)
    path = _output_path(root, block.name, extension)
    counts: dict[str, Any] = {"block": block.name, "lines": 0, "sentences": 0, "tokens": 0, "errors": 0}
    counts["written"] = False
    if _exists(system, path):
        return counts
    chunk = read_block(block, settings.input_format)
    attempts = _Attempts(system, posixpath.join(root, ATTEMPTS, f"{block.name}.json"))
    records: list[dict[str, Any]] = []
    encoded: list[bytes] = []
    for number, outcome in attempts.outcomes(labeler, chunk, settings, block.source):
        if isinstance(outcome, Exception):
            counts["errors"] += 1
            error = {"line": number, "error": str(outcome)}
            records.append({**error, "sentences": []})
            encoded.append((json.dumps(error, ensure_ascii=False) + "\n").encode("utf-8"))
            continue
        record, sentences = outcome
        counts["lines"] += 1
        counts["sentences"] += sentences
        value = json.loads(record)
        counts["tokens"] += sum(len(sentence.get("words", ())) for sentence in value["sentences"])
        records.append({**value, "error": None})
        encoded.append(record)
    if settings.output_format == "parquet":
        _write_whole(system, path, _parquet_bytes(records))
    else:
        _write_whole(system, path, b"".join(encoded))
    attempts.done()
    counts["written"] = True
    return counts


#: the output folder's record of the blocks whose labeling began and has not ended (an actor died in it)
ATTEMPTS = ".attempts"
#: what a line becomes whose labeling an actor died in twice (killed for its memory, most likely)
DIED_IN = "an actor died labeling this line (killed for its memory?): left out; label it alone to see why"


def remove_empty_attempts(output: str) -> None:
    """Remove the output folder's `ATTEMPTS` folder once no block's record is left in it (the run is whole)."""
    from pyarrow import fs

    system, root = file_system(output)
    folder = posixpath.join(root, ATTEMPTS)
    if system.get_file_info(folder).type == fs.FileType.Directory and not _has_files(system, folder):
        system.delete_dir(folder)


def _outcomes_of(labeler: TextLabeler, chunk: Chunk, settings: RunSettings, source: str) -> list[tuple[int, Any]]:
    """Each line's outcome in `chunk`, labeled together (`outcomes`: a record and its sentences, or the error)."""
    reading = "jsonl" if settings.input_format == "parquet" else settings.input_format
    record_format = "json" if settings.output_format == "parquet" else settings.output_format
    prepared = prepare_chunk(labeler, chunk, reading, source, settings.batch_size, settings.max_line_characters)
    labeled = label_prepared(labeler, prepared, record_format, source)
    return outcomes(prepared, labeled, record_format, source)


class _Attempts:
    """A block's attempts, recorded in the output folder (`ATTEMPTS`): the first labels its lines together;
    one after an attempt that died (its actor killed, for memory most likely) labels them one at a time, recording
    the line in hand, and a line an attempt died in becomes that line's error record instead of killing every
    retry: the retries of a block are bounded, and the row, not the run, fails.

    # Parameters

    system : the output folder's file system. path : this block's record in it.
    """

    def __init__(self, system: Any, path: str) -> None:
        self.system = system
        self.path = path
        self.earlier = self._read() or {"attempts": 0, "line": None}
        self.attempt = int(self.earlier.get("attempts", 0)) + 1
        self._record(None)

    def outcomes(self, labeler: TextLabeler, chunk: Chunk, settings: RunSettings, source: str) -> list[tuple[int, Any]]:
        """Every line's outcome, in order."""
        if self.attempt == 1:
            return _outcomes_of(labeler, chunk, settings, source)
        found: list[tuple[int, Any]] = []
        for number, line in chunk.lines:
            if number == self.earlier.get("line"):
                found.append((number, BadLine(f"{source}:{number}: {DIED_IN}")))
                continue
            self._record(number)
            found += _outcomes_of(labeler, Chunk([(number, line)], 0, "", at_end=False), settings, source)
        self._record(None)
        return found

    def done(self) -> None:
        """The block is written: its record goes."""
        if _exists(self.system, self.path):
            self.system.delete_file(self.path)

    def _record(self, line: Optional[int]) -> None:
        _write_whole(self.system, self.path, json.dumps({"attempts": self.attempt, "line": line}).encode())

    def _read(self) -> Optional[dict[str, Any]]:
        if not _exists(self.system, self.path):
            return None
        with self.system.open_input_stream(self.path) as handle:
            try:
                value = json.loads(handle.read().decode("utf-8"))
            except ValueError:
                return None
        return value if isinstance(value, dict) else None


def _parquet_bytes(records: list[dict[str, Any]]) -> bytes:
    """The block's records as one Parquet file: `line`, `sentences` (`SENTENCE_TYPE`s) and `error`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from srl_zoo.labeling.arrow_types import LABELED_FIELDS

    schema = pa.schema([pa.field("line", pa.int64()), *LABELED_FIELDS])
    table = pa.Table.from_pylist(records, schema=schema)
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()
