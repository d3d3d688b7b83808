"""The Python API: `srl_zoo.load("model.tar.gz")` gives a `Labeler` that labels raw text.

import srl_zoo
labeler = srl_zoo.load("model.tar.gz", cuda_device=-1)
for sentence in labeler("Bush nominated two judges. They were confirmed."):
    for frame in sentence["frames"]:
        print(frame["description"])
"""

from collections.abc import Iterator, Sequence
from typing import Any, Optional

from allennlp.predictors import Predictor

from srl_zoo.allennlp_patches import register_and_patch
from srl_zoo.archives import load_model_archive
from srl_zoo.data.formats.encodable_text import check_encodable
from srl_zoo.front.batch_budget import MAX_BATCH_CHARACTERS, BatchBudget, check_batch_size
from srl_zoo.front.labeler_contract import role_names
from srl_zoo.front.requests import parse_requests
from srl_zoo.front.text import (
    Offsets,
    Sentence,
    check_text,
    with_char_offsets,
)
from srl_zoo.front.text_labeling import TextLabeling
from srl_zoo.nn.tensor_batches import TensorDict, tensorize
from srl_zoo.predictors.srl_predictor import SrlPredictor, SrlRequest

__all__ = ["Labeler", "Offsets", "Sentence", "check_text", "load", "predict_by_length", "with_char_offsets"]


class Labeler(TextLabeling):
    """Splits text into sentences and words (a blank spaCy pipeline with its rule-based sentencizer:
    no model, nothing downloaded), labels every sentence with the model's `srl` predictor, and
    gives each predicate and argument `start_char`/`end_char` in the original string (argument
    `text` is that slice of it).

    Output of `labeler(text)`: one dict per sentence, `{"text", "start_char", "end_char", "words",
    "frames"}`, frames as the `srl` predictor gives them (see `SrlPredictor`).

    # Parameters

    predictor : an `SrlPredictor` (the model's default predictor).
    batch_size : sentences per model call.
    language : spaCy language code of the blank tokenizer.
    max_batch_characters : padded characters (sentences x the most characters of one) per model call,
        at most: bounds the memory of long texts (the word pieces of a batch) whatever their sentences.

    Every model call is cut within the labeler's `budget` (`BatchBudget`: these bounds and the cell bound),
    the one batching policy of the API, `srl-zoo label`, the spaCy component and the service.
    """

    def __init__(
        self,
        predictor: SrlPredictor,
        batch_size: int = 64,
        language: str = "en",
        max_batch_characters: int = MAX_BATCH_CHARACTERS,
    ) -> None:
        if not isinstance(predictor, SrlPredictor):
            raise TypeError(f"Labeler needs an SrlPredictor, got {type(predictor).__name__}")
        self.budget = BatchBudget(batch_size, characters=max_batch_characters)
        if predictor.output_format != "json":
            raise ValueError("Labeler needs the predictor's json output_format (it adds character offsets to it)")
        self.predictor = predictor
        self.language = language

    def check_request(self, request: dict[str, Any]) -> None:
        """`ValueError` saying what is wrong with a pre-tokenized request (`{"tokens", "predicates"?,
        "heads"?, "pos"?}`, the `srl` predictor's input)."""
        self.predictor.parse_request(request)

    @property
    def model(self) -> Any:
        """The predictor's model (an allennlp `Model`, a torch module)."""
        return self.predictor.model

    @property
    def on_gpu(self) -> bool:
        """Whether the predictor's model runs on a GPU."""
        return self.predictor.cuda_device >= 0

    @property
    def precision(self) -> str:
        """The precision the predictor runs in (`float32` or `bfloat16`)."""
        return self.predictor.precision

    @property
    def precision_reason(self) -> str:
        """Why that precision (what `precision="auto"` decided, or that it was asked for)."""
        return self.predictor.precision_reason

    @property
    def role_names(self) -> list[str]:
        """The argument roles the model can give (its BIO tags without the prefix, `O` and `V`), sorted."""
        return role_names(self.predictor.model.vocab.get_token_to_index_vocabulary("labels"))

    def label_words(
        self,
        sentences: Sequence[list[str]],
        predicates: Optional[Sequence[Optional[list[int]]]] = None,
        budget: Optional[BatchBudget] = None,
    ) -> list[dict[str, Any]]:
        """The predictor's output for each tokenized sentence, batched by length within `budget` (None: the
        labeler's); `predicates`: each sentence's predicate indices (None: the model finds them)."""
        return predict_by_length(self.predictor, sentences, budget or self.budget, predicates)

    def parse_request(self, request: dict[str, Any]) -> SrlRequest:
        """The checked request of one pre-tokenized input (`BadRequest` saying what is wrong)."""
        return self.predictor.parse_request(request)

    def prepare_batch(self, requests: Sequence[SrlRequest]) -> TensorDict:
        """The model's input tensors for these sentences (allennlp instances, indexed and padded)."""
        return tensorize([self.predictor.make_instance(request) for request in requests], self.predictor.model.vocab)

    def label_batch(self, batch: TensorDict) -> list[dict[str, Any]]:
        """The predictor's output for each sentence of a prepared batch."""
        return self.predictor.predict_tensors(batch)

    def label_tokenized(self, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """The predictor's output (words and frames, no character offsets) for each pre-tokenized request;
        every request is checked first (`ValueError` naming the request's index and what is wrong)."""
        requests = list(requests)
        parse_requests(requests, self.predictor.tokenize)
        return self.predictor.predict_batch_json(requests)

    def label_file(self, path: str, batch_size: int = 0) -> Iterator[dict[str, Any]]:
        """The predictor's output for each sentence of a CoNLL-2005, 2012 or 2009 file (its format
        detected; read with the model's token settings and label spelling), at the file's predicates.
        Bad input is a `ValueError` (`ConllFormatError`) naming the file and line, before any labeling."""
        check_encodable(path, "path")
        instances = list(self.predictor.dataset_reader.read(path))
        size = batch_size or self.batch_size
        for start in range(0, len(instances), size):
            yield from self.predictor.predict_batch_instance(instances[start : start + size])


def predict_by_length(
    predictor: SrlPredictor,
    sentences: Sequence[list[str]],
    budget: BatchBudget,
    predicates: Optional[Sequence[Optional[list[int]]]] = None,
) -> list[dict[str, Any]]:
    """The predictor's output for each tokenized sentence, in input order, computed in calls of sentences
    of similar size (less padding) within `budget` (`BatchBudget.calls`). `predicates`, if given, are each
    sentence's predicate indices (otherwise, or where None, the model finds them)."""
    results: list[dict[str, Any]] = [{} for _ in sentences]
    for chunk in budget.calls(sentences):
        requests = [
            {"tokens": sentences[i]}
            if predicates is None or predicates[i] is None
            else {"tokens": sentences[i], "predicates": predicates[i]}
            for i in chunk
        ]
        for i, output in zip(chunk, predictor.predict_batch_json(requests), strict=False):
            results[i] = output
    return results


def load(
    archive_file: str,
    cuda_device: int = -1,
    batch_size: int = 64,
    overrides: str = "",
    precision: str = "auto",
    **predictor_args,
) -> Labeler:
    """A `Labeler` for a trained srl_zoo model archive (`model.tar.gz`).

    # Parameters

    archive_file : path of the archive.
    cuda_device : -1 for the CPU, else the GPU's index.
    batch_size : sentences per model call.
    overrides : allennlp config overrides (a JSON string), e.g. a smaller inference chunk.
    precision : `"auto"` (default: bfloat16 autocast where the archive records that it keeps the F1 and the GPU
        or CPU runs it natively, else float32: `srl_zoo.nn.precision`), `"float32"` or `"bfloat16"`;
        `labeler.predictor.precision` says which is used, `precision_reason` why.
    predictor_args : passed to the `srl` predictor (e.g. `output_format`).
    """
    check_batch_size(batch_size)
    register_and_patch()  # the archive's parts by name, and srl_zoo's safe loading (as `--include-package` has them)
    archive = load_model_archive(archive_file, cuda_device=cuda_device, overrides=overrides)
    if "mixed_precision" not in predictor_args:  # the older switch wins where it is given
        predictor_args["precision"] = precision
    predictor = Predictor.from_archive(archive, "srl_zoo", extra_args=predictor_args)
    return Labeler(predictor, batch_size)  # type: ignore[arg-type]
