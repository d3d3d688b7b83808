"""What `srl_zoo.load`'s users, `srl-zoo label`'s corpus loop, `srl-zoo serve` and the spaCy component ask of a
labeler: the allennlp-free runtime's `RuntimeLabeler` and the allennlp `Labeler` (`srl_zoo.api`) both give it, so no
caller asks which one it has."""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional, Protocol

from srl_zoo.front.batch_budget import BatchBudget
from srl_zoo.front.requests import SrlRequest
from srl_zoo.front.text import Sentence


def role_names(tags: Iterable[str]) -> list[str]:
    """The argument roles of BIO `tags` (without the B-/I- prefix, `O` and the predicate's own `V`), sorted."""
    return sorted({tag[2:] for tag in tags if tag[:2] in ("B-", "I-")} - {"V"})


class TextLabeler(Protocol):
    """A labeler: it checks and parses requests, splits text, prepares batches on the host (maybe in a worker
    process: a prepared batch pickles) and labels them in the model's process, or labels words and sentences whole."""

    budget: BatchBudget

    @property
    def precision(self) -> str:
        """The precision the model runs in (`float32` or `bfloat16`)."""

    @property
    def precision_reason(self) -> str:
        """Why that precision."""

    @property
    def role_names(self) -> list[str]:
        """The argument roles the model can give (without `V`), sorted."""

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

    def __call__(self, text: str) -> list[dict[str, Any]]:
        """The labeled sentences of one text, with character offsets."""

    def pipe(
        self, texts: Iterable[str], batch_size: int = 0, buffer_texts: int = 256
    ) -> Iterator[list[dict[str, Any]]]:
        """The labeled sentences of each text, in input order."""

    def label_file(self, path: str, batch_size: int = 0) -> Iterator[dict[str, Any]]:
        """`{"words", "frames"}` of each sentence of a CoNLL file, at the file's predicates."""

    def label_texts(self, texts: list[str], batch_size: int) -> Iterator[list[dict[str, Any]]]:
        """The labeled sentences (with character offsets) of each text, in order."""

    def label_tokenized(self, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each pre-tokenized request."""

    def label_words(
        self,
        sentences: Sequence[list[str]],
        predicates: Optional[Sequence[Optional[list[int]]]] = None,
        budget: Optional[BatchBudget] = None,
    ) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each tokenized sentence, batched by length within `budget` (None: the labeler's);
        `predicates`: each sentence's predicate indices, None where the model is to find them."""

    def label_sentences(
        self,
        sentences: Sequence[Sentence],
        texts: Sequence[str],
        budget: Optional[BatchBudget] = None,
        predicates: Optional[Sequence[Optional[list[int]]]] = None,
    ) -> list[dict[str, Any]]:
        """Pre-split sentences labeled with character offsets into `texts`, batched within `budget`."""
