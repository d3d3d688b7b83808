"""Raw text to sentences of words with character offsets (a blank spaCy pipeline with its rule-based sentencizer:
no model, nothing downloaded), and labeled sentences given their offsets back."""

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from srl_zoo.data.formats.encodable_text import check_encodable, is_invisible

Offsets = list[tuple[int, int]]  # (start_char, end_char) of each word
Sentence = tuple[list[str], Offsets]  # words and their offsets in the original text


def blank_pipeline(language: str) -> Any:
    """spaCy's blank pipeline for `language` with its sentencizer."""
    import spacy

    nlp = spacy.blank(language)
    nlp.add_pipe("sentencizer")
    return nlp


def split_sentences(nlp: Any, text: str) -> list[Sentence]:
    """Sentences of `text` as words (whitespace and tokens of only control or zero-width characters dropped) with
    their character offsets: the one tokenization of raw text, for texts and `{"sentence"}` requests alike."""
    sentences = []
    if len(text) >= nlp.max_length:  # spaCy's bound for its parser's and NER's memory; a sentencizer needs none
        nlp.max_length = len(text) + 1
    for sentence in nlp(text).sents:
        tokens = [token for token in sentence if not token.is_space and not is_invisible(token.text)]
        if tokens:
            sentences.append(([t.text for t in tokens], [(t.idx, t.idx + len(t.text)) for t in tokens]))
    return sentences


def split_words(nlp: Any, text: str) -> list[str]:
    """The words of `text` as `split_sentences` gives them, its sentences joined: a `{"sentence"}` request's."""
    return [word for words, _ in split_sentences(nlp, text) for word in words]


def check_text(text: Any, index: int) -> None:
    """`TypeError` unless `text` is a string; `ValueError` naming text `index` and the character offset
    when it holds a character UTF-8 cannot encode (spaCy and the JSON writers would fail on it later)."""
    if not isinstance(text, str):
        raise TypeError(f"texts must be strings, got {type(text).__name__} (text {index})")
    check_encodable(text, f"text {index}")


def with_char_offsets(output: dict[str, Any], offsets: Offsets, text: str) -> dict[str, Any]:
    """The predictor's output for one sentence with `start_char`/`end_char` on the sentence, each
    predicate and each argument (whose `text` becomes the original slice, spacing included)."""
    frames = []
    for frame in output["frames"]:
        predicate = dict(frame["predicate"])
        predicate["start_char"], predicate["end_char"] = offsets[predicate["index"]]
        arguments = []
        for argument in frame["arguments"]:
            start_char, end_char = offsets[argument["start"]][0], offsets[argument["end"]][1]
            arguments.append(
                {**argument, "text": text[start_char:end_char], "start_char": start_char, "end_char": end_char}
            )
        frames.append({**frame, "predicate": predicate, "arguments": arguments})
    start_char, end_char = offsets[0][0], offsets[-1][1]
    return {
        "text": text[start_char:end_char],
        "start_char": start_char,
        "end_char": end_char,
        "words": output["words"],
        "frames": frames,
    }


def checked_buffers(texts: Iterable[Any], size: int) -> Iterator[list[str]]:
    """`texts` in lists of up to `size`, each text checked (`check_text`, naming its index in `texts`) before the
    list holding it is given out; a list or tuple is checked whole first, so nothing of it is labeled before a
    bad text is found."""
    checked = isinstance(texts, list | tuple)
    if checked:
        for index, text in enumerate(texts):
            check_text(text, index)
    buffer: list[str] = []
    for index, text in enumerate(texts):
        if not checked:
            check_text(text, index)
        buffer.append(text)
        if len(buffer) >= size:
            yield buffer
            buffer = []
    if buffer:
        yield buffer


def label_by_text(
    texts: Sequence[str],
    split: Callable[[str], list[Sentence]],
    label: Callable[[list[Sentence], list[str]], list[dict[str, Any]]],
) -> Iterator[list[dict[str, Any]]]:
    """The labeled sentences of each text, in order: `split(text)` gives a text's sentences, and `label(sentences,
    texts)` labels the sentences of all `texts` together (`texts[i]`: the string sentence i's offsets point into)."""
    split_texts = [split(text) for text in texts]
    flat = [sentence for sentences in split_texts for sentence in sentences]
    owners = [text for text, sentences in zip(texts, split_texts, strict=True) for _ in sentences]
    labeled = iter(label(flat, owners))
    for sentences in split_texts:
        yield [next(labeled) for _ in sentences]
