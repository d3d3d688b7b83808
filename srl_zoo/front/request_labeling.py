"""Checked requests to labeled sentences, once for the runtime's labelers (the torch network's and the inference
graphs'): requests parsed and checked, batched by length within the budget, each batch prepared on the host and run,
each frame made readable and filtered by `min_score`. A labeler gives `tags`, `prepare_batch` and `frames_of`."""

from collections.abc import Sequence
from typing import Any, Optional

from srl_zoo.data.formats.json_values import json_values
from srl_zoo.frames.readable_frames import ReadableFrames
from srl_zoo.front.batch_budget import BatchBudget
from srl_zoo.front.labeler_contract import role_names
from srl_zoo.front.requests import SrlRequest, parse_request, parse_requests
from srl_zoo.front.sentence_output import finish_sentence
from srl_zoo.front.text_labeling import TextLabeling


class RequestLabeling(TextLabeling):
    """The request side of a labeler; subclasses set `budget`, `language`, `readable` (PropBank's readable keys, or
    None) and `min_score`, and give `tags`, `prepare_batch` and `frames_of`."""

    readable: Optional[ReadableFrames]
    min_score: float

    @property
    def tags(self) -> dict[int, str]:
        """`{index: BIO tag}` of the model's tags."""
        raise NotImplementedError

    def prepare_batch(self, requests: Sequence[SrlRequest]) -> Any:
        """The host's work for one model call of these (non-empty) sentences; its result has `words`."""
        raise NotImplementedError

    def frames_of(self, batch: Any) -> list[list[dict[str, Any]]]:
        """Each sentence's frames of a prepared batch (`frame_json`'s form)."""
        raise NotImplementedError

    @property
    def role_names(self) -> list[str]:
        """The argument roles the model can give (its BIO tags without the prefix, `O` and `V`), sorted."""
        return role_names(self.tags.values())

    def check_request(self, request: dict[str, Any]) -> None:
        """`BadRequest` (a `ValueError`) saying what is wrong with a pre-tokenized request."""
        self.parse_request(request)

    def parse_request(self, request: dict[str, Any]) -> SrlRequest:
        """The checked request of one pre-tokenized input (`{"tokens", "predicates"?}` or `{"sentence"}`)."""
        return parse_request(request, self.tokenize)

    def label_tokenized(self, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each pre-tokenized request (`{"tokens", "predicates"?, "heads"?}` or
        `{"sentence"}`); every request is checked first (`ValueError` naming the request's index and what is
        wrong). Given heads are the parse a syntax-supervised encoder (LISA's) attends to."""
        return self.label_requests(parse_requests(requests, self.tokenize))

    def label_words(
        self,
        sentences: Sequence[list[str]],
        predicates: Optional[Sequence[Optional[list[int]]]] = None,
        budget: Optional[BatchBudget] = None,
    ) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each tokenized sentence, in input order, computed in calls of sentences of
        similar size within `budget` (None: the labeler's); `predicates`: each sentence's predicate indices, None
        where the model is to find them."""
        given = list(predicates) if predicates is not None else [None] * len(sentences)
        return self.label_requests(
            [SrlRequest(list(words), p) for words, p in zip(sentences, given, strict=True)], budget
        )

    def label_requests(
        self, requests: Sequence[SrlRequest], budget: Optional[BatchBudget] = None
    ) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each checked request, in input order, computed in calls of sentences of similar
        size within `budget` (None: the labeler's)."""
        results: list[dict[str, Any]] = [{"words": list(r.words), "frames": []} for r in requests]
        todo = [i for i, request in enumerate(requests) if request.words]
        for chunk in (budget or self.budget).calls([requests[i].words for i in todo]):
            indices = [todo[i] for i in chunk]
            batch = self.prepare_batch([requests[i] for i in indices])
            for i, sentence in zip(indices, self.label_batch(batch), strict=True):
                results[i] = sentence
        return results

    def label_batch(self, batch: Any) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each sentence of a prepared batch, frames made readable and filtered by
        `min_score`."""
        return json_values(
            [
                finish_sentence({"words": words, "frames": sentence_frames}, self.readable, self.min_score)
                for words, sentence_frames in zip(batch.words, self.frames_of(batch), strict=True)
            ]
        )
