"""Raw text to sentences of words with character offsets (a blank spaCy pipeline with its rule-based sentencizer:
no model, nothing downloaded), and labeled sentences given their offsets back."""

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
    their character offsets."""
    sentences = []
    for sentence in nlp(text).sents:
        tokens = [token for token in sentence if not token.is_space and not is_invisible(token.text)]
        if tokens:
            sentences.append(([t.text for t in tokens], [(t.idx, t.idx + len(t.text)) for t in tokens]))
    return sentences


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
