"""Labeling through an archive's inference graphs, with neither torch nor allennlp: `GraphLabeler` labels raw
text and pre-tokenized sentences as the torch runtime's `RuntimeLabeler` does, on the CPU, through the float32 graphs
or the int8 ones (`srl_zoo.graphs.graph_precision`)."""

from collections.abc import Sequence
from typing import Any, Optional

from srl_zoo.archive_cache import extracted_archive
from srl_zoo.frames.readable_frames import ReadableFrames
from srl_zoo.front.batch_budget import MAX_BATCH_CHARACTERS, BatchBudget, check_batch_size
from srl_zoo.front.request_labeling import RequestLabeling
from srl_zoo.front.requests import SrlRequest, check_min_score
from srl_zoo.graphs.engine import default_threads
from srl_zoo.graphs.graph_precision import graph_precision
from srl_zoo.graphs.network import GraphBatch, GraphNetwork, read_manifest


class GraphLabeler(RequestLabeling):
    """Labels text with a `GraphNetwork` (see `RuntimeLabeler` for the parameters it shares).

    # Parameters

    network : the archive's graphs. batch_size : sentences per call, at most. language : spaCy's code of the
    blank tokenizer. readable_frames : PropBank's readable keys (English only). min_score : leave out arguments
    scored below it. max_batch_characters : padded characters per call, at most. precision_reason : why the
    network's graphs were chosen.
    """

    on_gpu = False

    def __init__(
        self,
        network: GraphNetwork,
        batch_size: int = 64,
        language: str = "en",
        readable_frames: bool = True,
        min_score: float = 0.0,
        max_batch_characters: int = MAX_BATCH_CHARACTERS,
        precision_reason: str = "",
    ) -> None:
        self.network = network
        #: the graphs' precision (`float32` or `int8`), and why
        self.precision = network.precision
        self.precision_reason = precision_reason or f"the archive's {network.precision} inference graphs"
        self.budget = BatchBudget(batch_size, characters=max_batch_characters)
        self.language = language
        self.readable = ReadableFrames() if readable_frames and language == "en" else None
        self.min_score = check_min_score(min_score)

    @property
    def tags(self) -> dict[int, str]:
        return self.network.tags

    def prepare_batch(self, requests: Sequence[SrlRequest]) -> GraphBatch:
        return self.network.prepare([r.words for r in requests], [r.predicates for r in requests])

    def frames_of(self, batch: GraphBatch) -> list[list[dict[str, Any]]]:
        return self.network.readable_frames(self.network.decode(batch))


def load(
    archive_file: str, batch_size: int = 64, threads: Optional[int] = None, precision: str = "auto", **options: Any
) -> Optional[GraphLabeler]:
    """A `GraphLabeler` for the srl_zoo archive `archive_file`, or None where it holds no graphs (`srl-zoo export
    --graphs` writes them) or none of `precision` (`graph_precision`); `threads`: the engine's per call (None:
    `default_threads`); `options`: `language`, `readable_frames`, `min_score`, `max_batch_characters`."""
    check_batch_size(batch_size)
    with extracted_archive(archive_file) as folder:
        return load_from_folder(archive_file, folder, batch_size, threads, precision, **options)


def load_from_folder(
    archive_file: str,
    folder: str,
    batch_size: int = 64,
    threads: Optional[int] = None,
    precision: str = "auto",
    **options: Any,
) -> Optional[GraphLabeler]:
    """`load` reading the archive's files from `folder`, the folder they are extracted in."""
    check_batch_size(batch_size)
    manifest = read_manifest(archive_file, folder)
    chosen = None if manifest is None else graph_precision(precision, manifest)
    if manifest is None or chosen is None:
        return None
    network = GraphNetwork(archive_file, folder, manifest, threads or default_threads(), chosen.name)
    return GraphLabeler(network, batch_size, precision_reason=chosen.reason, **options)
