"""The `srl_zoo` spaCy pipeline component: labels a Doc's own tokens with a trained srl_zoo model.

    nlp = spacy.blank("en")            # or any pipeline; no re-tokenization
    nlp.add_pipe("sentencizer")        # optional: without sentence boundaries the Doc is one sentence
    nlp.add_pipe("srl_zoo", config={"archive": "model.tar.gz"})
    doc = nlp("President Bush nominated two individuals.")
    for frame in doc._.srl_frames:
        print(frame.predicate, frame.roleset, frame.roleset_name, [(s.label_, s.text) for s in frame.arguments])
    for span in doc.spans["srl"]:     # every argument (and each predicate's `V`), for displaCy's span style
        print(span.label_, span.text, span._.srl_predicate, span._.srl_roleset, span._.srl_description)
    spacy.displacy.render(doc, style="span", options={"spans_key": "srl"})

Registered with spaCy's `spacy_factories` entry point, so `add_pipe("srl_zoo")` works after
`pip install` without importing srl_zoo first.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Optional

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

#: the span group of every argument of every frame
SPANS_KEY = "srl"


@dataclass
class SpacyFrame:
    """One predicate of a Doc and its arguments, each a `Span` whose `label_` is the role (`V`, the
    predicate itself, included as the model gives it); the readable keys as the `srl` predictor gives them
    (None where the model or the frame files do not say)."""

    predicate: Token
    sense: Optional[str]
    arguments: list[Span]
    lemma: Optional[str] = None
    roleset: Optional[str] = None
    roleset_name: Optional[str] = None
    score: Optional[float] = None
    #: per argument (in `arguments`' order): what its role means and how sure the model is
    descriptions: list[Optional[str]] = field(default_factory=list)
    scores: list[Optional[float]] = field(default_factory=list)


def _argument_detail(name: str) -> Any:
    """A getter of `span._.<name>` for the spans of `doc.spans["srl"]` (each knows its frame by its `id`)."""

    def getter(span: Span) -> Any:
        frames = span.doc._.srl_frames
        if not frames or not 0 < span.id <= len(frames):
            return None
        frame: SpacyFrame = frames[span.id - 1]
        if name == "srl_predicate":
            return frame.predicate
        if name == "srl_roleset":
            return frame.roleset
        place = next(
            (
                i
                for i, a in enumerate(frame.arguments)
                if (a.start, a.end, a.label) == (span.start, span.end, span.label)
            ),
            None,
        )
        values = frame.descriptions if name == "srl_description" else frame.scores
        return values[place] if place is not None and place < len(values) else None

    return getter


def register_extensions() -> None:
    """`doc._.srl_frames` and, on the spans of `doc.spans["srl"]`, `srl_predicate` (Token), `srl_roleset`,
    `srl_description` and `srl_score`."""
    if not Doc.has_extension("srl_frames"):
        Doc.set_extension("srl_frames", default=None)
    for name in ("srl_predicate", "srl_roleset", "srl_description", "srl_score"):
        if not Span.has_extension(name):
            Span.set_extension(name, getter=_argument_detail(name))


class SrlComponent:
    """Sets `doc._.srl_frames` (a list of `SpacyFrame`, in sentence and predicate order) and the span group
    `doc.spans["srl"]`: one span per argument (the predicate's `V` included), its label the role, its
    frame's predicate and roleset and its role's description and score on `span._` (`srl_predicate`,
    `srl_roleset`, `srl_description`, `srl_score`), drawn by `displacy.render(doc, style="span",
    options={"spans_key": "srl"})`.

    # Parameters

    archive : path of a trained srl_zoo model (`model.tar.gz`).
    cuda_device : -1 for the CPU, else the GPU's index.
    batch_size : sentences per model call (sentences of the Docs of one `nlp.pipe` batch are
        grouped by length, within the Python API's batching budget: `srl_zoo.front.batch_budget`).
    precision : `"auto"` (the fastest precision the machine runs natively that the archive records within 0.1
        F1 of float32, else float32: `srl_zoo.nn.precision`), `"float32"`, `"bfloat16"` or `"int8"`.
    min_score : leave out arguments the model scores below this probability (0 keeps every one).
    """

    def __init__(
        self, archive: str, cuda_device: int = -1, batch_size: int = 64, precision: str = "auto", min_score: float = 0.0
    ) -> None:
        if not archive:
            raise ValueError('the srl_zoo component needs config={"archive": "path/to/model.tar.gz"}')
        # imported here: spaCy imports this module for every pipeline it makes (its entry point), and a model
        # costs seconds that a pipeline without this component must not pay
        from srl_zoo.labelers import load_labeler

        self.labeler = load_labeler(
            archive, cuda_device=cuda_device, batch_size=batch_size, precision=precision, min_score=min_score
        )
        register_extensions()

    def __call__(self, doc: Doc) -> Doc:
        return next(self.pipe([doc]))

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        batch: list[Doc] = []
        for doc in docs:
            batch.append(doc)
            if len(batch) >= batch_size:
                yield from self._label(batch)
                batch = []
        if batch:
            yield from self._label(batch)

    def _label(self, docs: list[Doc]) -> list[Doc]:
        sentences = []  # (doc, token indices of its words)
        for doc in docs:
            spans = doc.sents if doc.has_annotation("SENT_START") else [doc[:]]
            for span in spans:
                indices = [token.i for token in span if not token.is_space]
                if indices:
                    sentences.append((doc, indices))
        outputs = self.labeler.label_words([[doc[i].text for i in idx] for doc, idx in sentences])
        for doc in docs:
            doc._.srl_frames = []
            doc.spans[SPANS_KEY] = []
        for (doc, indices), output in zip(sentences, outputs, strict=False):
            for frame in output["frames"]:
                number = len(doc._.srl_frames) + 1  # the arguments' span id: their frame, counted from 1
                arguments = [
                    Span(doc, indices[a["start"]], indices[a["end"]] + 1, label=a["role"], span_id=number)
                    for a in frame["arguments"]
                ]
                predicate = frame["predicate"]
                doc._.srl_frames.append(
                    SpacyFrame(
                        doc[indices[predicate["index"]]],
                        predicate.get("sense"),
                        arguments,
                        lemma=predicate.get("lemma"),
                        roleset=predicate.get("roleset"),
                        roleset_name=predicate.get("roleset_name"),
                        score=predicate.get("score"),
                        descriptions=[a.get("description") for a in frame["arguments"]],
                        scores=[a.get("score") for a in frame["arguments"]],
                    )
                )
                doc.spans[SPANS_KEY].extend(arguments)
        return docs


def make_srl_component(
    nlp: Language, name: str, archive: str, cuda_device: int, batch_size: int, precision: str, min_score: float
) -> SrlComponent:
    """spaCy factory of `SrlComponent` (`nlp.add_pipe("srl_zoo", config={"archive": ...})`)."""
    return SrlComponent(archive, cuda_device, batch_size, precision, min_score)


# a stand-in package named `spacy` without factories (allennlp's stub on a GPU image, where the real spaCy
# is not installed) leaves the component unregistered instead of failing `import srl_zoo`
if hasattr(Language, "factory"):
    Language.factory(
        "srl_zoo",
        default_config={"archive": "", "cuda_device": -1, "batch_size": 64, "precision": "auto", "min_score": 0.0},
    )(make_srl_component)
