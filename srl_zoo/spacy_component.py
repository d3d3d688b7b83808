"""The `srl_zoo` spaCy pipeline component: labels a Doc's own tokens with a trained srl_zoo model.

    nlp = spacy.blank("en")            # or any pipeline; no re-tokenization
    nlp.add_pipe("sentencizer")        # optional: without sentence boundaries the Doc is one sentence
    nlp.add_pipe("srl_zoo", config={"archive": "model.tar.gz"})
    doc = nlp("President Bush nominated two individuals.")
    for frame in doc._.srl_frames:
        print(frame.predicate, frame.sense, [(span.label_, span.text) for span in frame.arguments])

Registered with spaCy's `spacy_factories` entry point, so `add_pipe("srl_zoo")` works after
`pip install` without importing srl_zoo first.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Optional

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from srl_zoo.api import load, predict_by_length


@dataclass
class SpacyFrame:
    """One predicate of a Doc and its arguments, each a `Span` whose `label_` is the role (`V`, the
    predicate itself, included as the model gives it)."""

    predicate: Token
    sense: Optional[str]
    arguments: list[Span]


class SrlComponent:
    """Sets `doc._.srl_frames` (a list of `SpacyFrame`, in sentence and predicate order).

    # Parameters

    archive : path of a trained srl_zoo model (`model.tar.gz`).
    cuda_device : -1 for the CPU, else the GPU's index.
    batch_size : sentences per model call (sentences of the Docs of one `nlp.pipe` batch are
        grouped by length).
    precision : `"auto"` (float32 on a CPU, bfloat16 autocast on a GPU where the archive records that it
        keeps the F1), `"float32"` or `"bfloat16"`.
    """

    def __init__(self, archive: str, cuda_device: int = -1, batch_size: int = 64, precision: str = "auto") -> None:
        if not archive:
            raise ValueError('the srl_zoo component needs config={"archive": "path/to/model.tar.gz"}')
        self.predictor = load(archive, cuda_device=cuda_device, precision=precision).predictor
        self.batch_size = batch_size
        if not Doc.has_extension("srl_frames"):
            Doc.set_extension("srl_frames", default=None)

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
        outputs = predict_by_length(
            self.predictor, [[doc[i].text for i in idx] for doc, idx in sentences], self.batch_size
        )
        for doc in docs:
            doc._.srl_frames = []
        for (doc, indices), output in zip(sentences, outputs, strict=False):
            for frame in output["frames"]:
                arguments = [
                    Span(doc, indices[a["start"]], indices[a["end"]] + 1, label=a["role"]) for a in frame["arguments"]
                ]
                predicate = frame["predicate"]
                doc._.srl_frames.append(SpacyFrame(doc[indices[predicate["index"]]], predicate.get("sense"), arguments))
        return docs


def make_srl_component(
    nlp: Language, name: str, archive: str, cuda_device: int, batch_size: int, precision: str
) -> SrlComponent:
    """spaCy factory of `SrlComponent` (`nlp.add_pipe("srl_zoo", config={"archive": ...})`)."""
    return SrlComponent(archive, cuda_device, batch_size, precision)


# a stand-in package named `spacy` without factories (allennlp's stub on a GPU image, where the real spaCy
# is not installed) leaves the component unregistered instead of failing `import srl_zoo`
if hasattr(Language, "factory"):
    Language.factory(
        "srl_zoo", default_config={"archive": "", "cuda_device": -1, "batch_size": 64, "precision": "auto"}
    )(make_srl_component)
