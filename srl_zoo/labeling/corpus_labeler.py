"""What `srl-zoo label`'s corpus loop asks of a labeler: the allennlp-free runtime's `RuntimeLabeler` and the
allennlp `Labeler` both give it, so the loop never asks which one it has."""

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from srl_zoo.runtime.batch_budget import BatchBudget
from srl_zoo.runtime.requests import SrlRequest
from srl_zoo.runtime.text import Sentence


class CorpusLabeler(Protocol):
    """A labeler the corpus loop drives: it checks and parses requests, splits text, prepares batches on the host
    (maybe in a worker process: a prepared batch pickles) and labels them in the model's process."""

    budget: BatchBudget

    @property
    def batch_size(self) -> int:
        """Sentences per model call."""

    @property
    def on_gpu(self) -> bool:
        """Whether the model runs on a GPU (prepared batches are then pinned)."""

    def check_request(self, request: dict[str, Any]) -> None:
        """`ValueError` saying what is wrong with a pre-tokenized request."""

    def parse_request(self, request: dict[str, Any]) -> SrlRequest:
        """The checked request of one pre-tokenized input."""

    def split(self, text: str) -> list[Sentence]:
        """Sentences of `text` as words with their character offsets."""

    def prepare_batch(self, requests: Sequence[SrlRequest]) -> Any:
        """The host's work for one model call of these sentences (CPU tensors)."""

    def label_batch(self, batch: Any) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each sentence of a prepared batch."""

    def label_texts(self, texts: list[str], batch_size: int) -> Iterator[list[dict[str, Any]]]:
        """The labeled sentences (with character offsets) of each text, in order."""

    def label_tokenized(self, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each pre-tokenized request."""
