"""The `srl` Predictor: raw text or tokens in, frames with roles and spans out (JSON or CoNLL-2005)."""

import functools
from typing import Any, Optional

import torch
from allennlp.common.util import JsonDict
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model
from allennlp.predictors.predictor import Predictor

from srl_zoo.data.format_detection import AnyFormatReader
from srl_zoo.data.formats.json_values import json_values
from srl_zoo.data.formats.output_formats import output_format as find_output_format
from srl_zoo.data.formats.output_formats import render
from srl_zoo.frames.readable_frames import ReadableFrames
from srl_zoo.front.requests import BadRequest, SrlRequest, check_min_score, parse_request
from srl_zoo.front.sentence_output import finish_sentence
from srl_zoo.front.text import blank_pipeline, split_words
from srl_zoo.nn.inference_speed import bfloat16_autocast
from srl_zoo.nn.precision import cpu_has_fast_bfloat16, precision_choice
from srl_zoo.nn.tensor_batches import TensorDict, tensorize, to_device

__all__ = ["BadRequest", "SrlPredictor", "SrlRequest", "check_min_score"]


@Predictor.register("srl_zoo")
class SrlPredictor(Predictor):
    """Labels sentences given as `{"sentence": "..."}` or `{"tokens": [...]}`.

    An optional `"predicates": [token indices]` fixes the predicates; otherwise the model's
    predicate identification head finds them. An optional `"heads": [1-based head per token, 0 =
    root]` injects a dependency parse into models with a syntax head (LISA) in place of their own.
    An optional `"pos": [tag per token]` gives POS tags to models with an associated memory (AMN)
    that select neighbours by POS (without it they use their own POS tagger, if they have one).
    Text is tokenized with a blank spaCy pipeline (rules only: no model, no download). Empty or
    whitespace-only input gives an empty result.

    Output per sentence: `words` and `frames`, each `{"predicate": {"index", "word", "sense"?, "score"?,
    "lemma", "roleset", "roleset_name"}, "arguments": [{"role", "start", "end", "text", "score",
    "description"}], "tags": [...], "description": "[ARG0: ...] ..."}` (docs/output.md reads one through).
    `score`s are probabilities: an argument's, that its span is one with its role (the CRF's marginal, or
    the product of its tags' probabilities); the predicate's, from the predicate head, that it is one with
    its sense.

    # Parameters

    output_format : `"json"` (default); `"allennlp_models"`: exactly allennlp-models'
        `semantic_role_labeling` output, `{"verbs": [{"verb", "description", "tags"}], "words"}` with
        PropBank label spellings (from `predict_json` and `predict_batch_json` too); or
        `"conll2005"`: `allennlp predict` writes CoNLL-2005 props lines (word, target, one column per
        predicate) instead of JSON; `"conll2009"`: CoNLL-2009 rows (PRED `word.sense`, one APRED
        column per predicate; columns the model does not predict are `_`), for dependency SRL models.
    language : spaCy language code of the blank tokenizer.
    precision : `"auto"` (default): bfloat16 autocast where the archive records that it keeps the F1 and the
        GPU or CPU runs it natively, else float32 (`srl_zoo.nn.precision`); or `"float32"`, `"bfloat16"` (int8 is
        the runtime's). Decoding and the output probabilities stay float32.
    mixed_precision : the older switch: `True` is `precision="bfloat16"`, `False` `"float32"`.
    readable_frames : add each predicate's `lemma`, `roleset` and `roleset_name` and each argument's role
        `description`, from PropBank's English frame files (bundled); only where `language` is `en`.
    min_score : leave out arguments scored below it (their tags become `O`); 0 keeps every one.
    """

    def __init__(
        self,
        model: Model,
        dataset_reader: DatasetReader,
        frozen: bool = True,
        output_format: str = "json",
        language: str = "en",
        precision: str = "auto",
        mixed_precision: Optional[bool] = None,
        readable_frames: bool = True,
        min_score: float = 0.0,
    ) -> None:
        # a CoNLL file given to `allennlp predict --use-dataset-reader` is read in its own format
        super().__init__(model, AnyFormatReader(dataset_reader, model.vocab), frozen)
        self._output_format = find_output_format(output_format)
        self._language = language
        self._readable = ReadableFrames() if readable_frames and language == "en" else None
        self.min_score = check_min_score(min_score)
        if mixed_precision is not None:
            precision = "bfloat16" if mixed_precision else "float32"
        if precision == "int8":
            raise ValueError("precision int8 labels through the runtime (srl_zoo.load, srl-zoo label), not allennlp")
        self._precision, self._precision_reason = precision_choice(precision, self.cuda_device, model.f1_per_precision)

    def _forward(self, instances: list[Instance]) -> list[dict[str, Any]]:
        return self.predict_tensors(tensorize(instances, self._model.vocab))

    def predict_tensors(self, tensors: TensorDict) -> list[dict[str, Any]]:
        """`{"words", "frames"}` of each sentence of a batch already made tensors (`tensorize`, maybe in
        another process; CPU tensors, pinned or not), not yet `json_values`."""
        device = torch.device(f"cuda:{self.cuda_device}" if self.cuda_device >= 0 else "cpu")
        try:
            with (
                torch.no_grad(),
                bfloat16_autocast(self._bfloat16, device.type),
                self._model.without_class_probabilities(),  # type: ignore[attr-defined]
                self._model.with_span_scores(),  # type: ignore[attr-defined]
            ):
                outputs = self._model.make_output_human_readable(self._model(**to_device(tensors, device, True)))
        except RuntimeError as error:
            if self._bfloat16 and device.type == "cpu" and not cpu_has_fast_bfloat16():
                first = str(error).splitlines()[0][:200]
                raise RuntimeError(
                    f"this model cannot run in bfloat16 on this CPU (no AVX-512 BF16 or AMX; {first}): "
                    "use precision float32 or auto"
                ) from error
            raise
        return [
            self.finish({"words": words, "frames": frames})
            for words, frames in zip(outputs["words"], outputs["frames"], strict=False)
        ]

    def finish(self, sentence: dict[str, Any]) -> dict[str, Any]:
        """One sentence's output with the readable keys added and the arguments under `min_score` left out."""
        return finish_sentence(sentence, self._readable, self.min_score)

    @functools.cached_property
    def _nlp(self) -> Any:
        """spaCy's blank pipeline with its sentencizer, made for the first raw text: pre-tokenized input needs no
        spaCy."""
        return blank_pipeline(self._language)

    def tokenize(self, text: str) -> list[str]:
        """The words of raw text as every labeler splits them (`srl_zoo.front.text.split_words`: spaCy's
        rule-based tokenizer; tokens of only control or zero-width characters dropped, as whitespace is)."""
        return split_words(self._nlp, text)

    @property
    def _bfloat16(self) -> bool:
        return self._precision == "bfloat16"

    @property
    def model(self) -> Model:
        """The model this predictor runs."""
        return self._model

    @property
    def dataset_reader(self) -> DatasetReader:
        """The reader that turns requests and gold files into the model's instances (any CoNLL format)."""
        return self._dataset_reader

    @property
    def precision(self) -> str:
        """`float32` or `bfloat16`: the arithmetic the model runs in (`auto` resolved on this machine)."""
        return self._precision

    @property
    def precision_reason(self) -> str:
        """Why the model runs in `precision` here (the `--precision` asked for and this machine)."""
        return self._precision_reason

    @property
    def output_format(self) -> str:
        """`json`, `allennlp_models`, `conll2005` or `conll2009` (see the class docstring)."""
        return self._output_format.name

    def parse_request(self, json_dict: JsonDict) -> "SrlRequest":
        """The checked request of one input; `ValueError` saying which field is wrong (`parse_request`)."""
        return parse_request(json_dict, self.tokenize)

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        return self.make_instance(self.parse_request(json_dict))

    def make_instance(self, request: "SrlRequest") -> Instance:
        """An Instance ready for the model (token indexers applied, as allennlp's readers expect)."""
        instance = self._dataset_reader.text_to_instance(
            request.words,
            predicate_indices=request.predicates,
            dependency_heads=request.heads,
            heads_given=request.heads is not None and request.heads_given,
            pos=request.pos,
        )
        self._dataset_reader.apply_token_indexers(instance)
        return instance

    def predict_json(self, inputs: JsonDict) -> JsonDict:
        return self.predict_batch_json([inputs])[0]

    def predict_batch_json(self, inputs: list[JsonDict]) -> list[JsonDict]:
        requests = [self.parse_request(json_dict) for json_dict in inputs]
        if any(request.heads is not None for request in requests):  # one batch needs the same fields everywhere
            requests = [
                request
                if request.heads is not None
                else request._replace(heads=[0] * len(request.words), heads_given=False)
                for request in requests
            ]
        results: list[JsonDict] = [{"words": request.words, "frames": []} for request in requests]
        todo = [i for i, request in enumerate(requests) if request.words]
        if todo:
            instances = [self.make_instance(requests[i]) for i in todo]
            for i, output in zip(todo, self._forward(instances), strict=False):
                results[i]["frames"] = output["frames"]
        return json_values([self._output_format.reshape(result) for result in results])

    def predict_instance(self, instance: Instance) -> JsonDict:
        return self.predict_batch_instance([instance])[0]

    def predict_batch_instance(self, instances: list[Instance]) -> list[JsonDict]:
        for instance in instances:
            self._dataset_reader.apply_token_indexers(instance)
        results = [{"words": output["words"], "frames": output["frames"]} for output in self._forward(instances)]
        return json_values([self._output_format.reshape(result) for result in results])

    def dump_line(self, outputs: JsonDict) -> str:
        if self._output_format.lines is None:  # a JSON format: `outputs` is reshaped already
            return super().dump_line(outputs)
        return render([outputs], self._output_format.name)
