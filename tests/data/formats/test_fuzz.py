"""Hypothesis fuzzing: generated sentences round-trip; mutated files parse or raise ConllFormatError."""

import dataclasses
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from srl_zoo.data.formats import READERS, WRITERS, ConllFormatError, SrlFrame, SrlSentence, SrlSpan

WORD = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=6).filter(
    lambda w: w.split() == [w] and "\t" not in w
)
LABELS = st.sampled_from(["A0", "A1", "AM-TMP", "C-A1", "R-A0", "C-V", "ARGM-LOC"])
FORMATS = {name: (READERS[name], WRITERS[name]) for name in READERS}


@st.composite
def sentences(draw, dependency: bool):
    """A well-formed sentence: non-overlapping argument spans and one V span per span frame."""
    n = draw(st.integers(1, 10))
    tokens = draw(st.lists(WORD, min_size=n, max_size=n))
    predicates = sorted(draw(st.sets(st.integers(0, n - 1), max_size=3)))
    frames = []
    for index in predicates:
        free = [i for i in range(n) if i != index]
        chosen = sorted(draw(st.sets(st.sampled_from(free), max_size=len(free))) if free else [])
        arguments = [] if dependency else [SrlSpan("V", index, index)]
        # merge runs of chosen positions into spans (spans never cross the predicate)
        start, previous = None, -2
        for i in range(n + 1):
            if i < n and i in chosen and (start is None or i == previous + 1):
                start = i if start is None else start
                previous = i
                continue
            if start is not None:
                end = start if dependency else previous
                arguments.append(SrlSpan(draw(LABELS), start, end))
                if dependency:
                    arguments.extend(SrlSpan(draw(LABELS), j, j) for j in range(start + 1, previous + 1))
                start = None
            if i < n and i in chosen:
                start, previous = i, i
        arguments.sort(key=lambda a: a.start)
        frames.append(
            SrlFrame(index=index, lemma=draw(WORD.filter(lambda w: w not in ("-", "_"))), arguments=arguments)
        )
    heads = [draw(st.integers(0, i)) for i in range(n)]  # each token's head is the root or an earlier token: a tree
    return SrlSentence(tokens=tokens, pos=["NN"] * n, heads=heads if dependency else None, frames=frames)


def round_trip(name, generated):
    read, write = FORMATS[name]
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "f.txt")
        if name in ("conll2009", "conll2012"):  # formats with senses
            for frame in generated.frames:
                frame.sense = frame.lemma + ".01"
        write([generated], path)
        (once,) = list(read(path))
        write([once], path)
        (twice,) = list(read(path))
    assert once == twice
    assert once.tokens == generated.tokens
    assert [(f.index, f.arguments) for f in once.frames] == [(f.index, f.arguments) for f in generated.frames]


SETTINGS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


BOM_FIRST = SrlSentence(tokens=["a", "\ufeff"], pos=["NN", "NN"], frames=[])  # the fuzz run found it (2026-11-30)


@SETTINGS
@given(sentences(dependency=False))
@example(BOM_FIRST)
def test_conll2005_round_trip(sentence):
    """A token that begins with a byte-order mark is refused in one line (a CoNLL-2005 file cannot hold it first on
    a line: the readers drop a mark there), and nothing is written; any other sentence round-trips."""
    if any(token.startswith("\ufeff") for token in sentence.tokens):
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory, "f.txt")
            path.write_text("kept\n")
            with pytest.raises(ValueError, match=r"^token \d+ \('\\ufeff.*begins with a byte-order mark"):
                FORMATS["conll2005"][1]([sentence], str(path))
            assert path.read_text() == "kept\n"
        return
    round_trip("conll2005", sentence)


@SETTINGS
@given(sentences(dependency=False))
def test_conll2012_round_trip(sentence):
    round_trip("conll2012", sentence)


@SETTINGS
@given(sentences(dependency=True))
def test_conll2009_round_trip(sentence):
    round_trip("conll2009", sentence)


MUTATION_BYTES = st.sampled_from(
    [b"(", b")", b"*", b"-", b"_", b" ", b"\t", b"\n", b"\n\n", b"#", b"A0", b"9", b"\xff", b"\xc3"]
    # other tools' habits and other traps: CR endings, a BOM, non-ASCII digits, empty cells, extra V spans,
    # document markers
    + [b"\r", b"\r\n", "\ufeff".encode(), "\u00b2".encode(), "\u0663".encode(), b"\t\t", b"(V*)", b"(V*"]
    + [b"0", b"Y", b"#begin document (x); part 000\n", b"#end document\n"]
)


@st.composite
def broken_files(draw):
    name = draw(st.sampled_from(sorted(FORMATS)))
    sentence = draw(sentences(dependency=name == "conll2009"))
    read, write = FORMATS[name]
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "f.txt")
        for frame in sentence.frames:
            frame.sense = frame.lemma + ".01"
        write([sentence], path)
        data = Path(path).read_bytes()
    for _ in range(draw(st.integers(1, 3))):
        position = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            data = data[:position] + draw(MUTATION_BYTES) + data[position:]
        else:
            data = data[:position] + data[position + draw(st.integers(1, 4)) :]
    return name, data


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(broken_files())
@example(("conll2005", b" \xef\xbb\xbf0 NN * * -\n 0 NN * * -\n00 NN * * -\n\n"))  # a mark after a blank
@example(("conll2005", b"\xef\xbb\xbf \xef\xbb\xbf0 NN * * -\n 0 NN * * -\n00 NN * * -\n\n"))  # two marks
def test_broken_files_parse_or_raise_a_clear_error(case):
    """About 500 mutated files per format (seeded): every error is a ConllFormatError naming the file,
    and every file that is accepted reads back the same after going through the writer."""
    name, data = case
    read, write = FORMATS[name]
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "broken.txt")
        with open(path, "wb") as handle:
            handle.write(data)
        try:
            parsed = list(read(path))
        except ConllFormatError as error:
            assert path in str(error)
            assert error.reason
            if error.line is not None:
                assert 1 <= error.line <= data.count(b"\n") + 1
        else:
            for sentence in parsed:
                for frame in sentence.frames:
                    assert 0 <= frame.index < len(sentence.tokens)
                    for span in frame.arguments:
                        assert 0 <= span.start <= span.end < len(sentence.tokens)
            rewritten = os.path.join(directory, "rewritten.txt")
            write(parsed, rewritten)
            assert without_source(read(rewritten)) == without_source(parsed)


def without_source(sentences):
    return [dataclasses.replace(sentence, source=None) for sentence in sentences]


# Damage that leaves every line well-formed on its own: a column cut from every row, a blank cell, a file
# cut short. None of it may be read as a (different) valid file.
SEPARATORS = {"conll2005": None, "conll2012": None, "conll2009": "\t"}
DAMAGE_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def is_data_row(line: str) -> bool:
    """A token's row, not a blank line or CoNLL-2012's document markers (a token may be `#`)."""
    return bool(line.strip()) and not line.startswith(("#begin", "#end"))


def written(name, sentence) -> str:
    """`sentence` as a file of format `name` (senses set where the format has them), as text."""
    read, write = FORMATS[name]
    for frame in sentence.frames:
        frame.sense = frame.lemma + ".01"
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "f.txt")
        write([sentence], path)
        return open(path, encoding="utf-8").read()


def read_text(name, text: str):
    """The sentences of `text` read as format `name`, or the `ConllFormatError` raised."""
    read, _ = FORMATS[name]
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "damaged.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        try:
            return list(read(path))
        except ConllFormatError as error:
            assert path in str(error) and error.reason
            return error


def edit_rows(name, text: str, edit) -> str:
    """`text` with `edit(cells)` applied to each sentence row's cells (marker and blank lines kept)."""
    separator = SEPARATORS[name]
    lines = []
    for line in text.split("\n"):
        if line.strip() and not line.startswith("#"):
            line = (separator or " ").join(edit(line.split(separator)))
        lines.append(line)
    return "\n".join(lines)


@st.composite
def formats_and_sentences(draw):
    name = draw(st.sampled_from(sorted(FORMATS)))
    return name, draw(sentences(dependency=name == "conll2009"))


@DAMAGE_SETTINGS
@given(formats_and_sentences(), st.integers(0, 40))
def test_a_column_cut_from_every_row_is_refused(case, column):
    name, sentence = case
    text = written(name, sentence)
    first_row = next(line for line in text.split("\n") if is_data_row(line))
    width = len(first_row.split(SEPARATORS[name]))
    damaged = edit_rows(name, text, lambda cells: cells[: column % width] + cells[column % width + 1 :])
    assert isinstance(read_text(name, damaged), ConllFormatError)


@DAMAGE_SETTINGS
@given(formats_and_sentences(), st.integers(0, 400), st.sampled_from(["", " ", "  "]))
@example(("conll2005", SrlSentence(tokens=["#"], pos=["NN"])), 0, "")  # a token `#` is a row, not a comment
def test_a_blank_cell_is_refused(case, position, blank):
    name, sentence = case
    text = written(name, sentence)
    rows = [i for i, line in enumerate(text.split("\n")) if is_data_row(line)]
    target_row = rows[position % len(rows)]
    lines = text.split("\n")
    cells = lines[target_row].split(SEPARATORS[name])
    cells[(position // len(rows)) % len(cells)] = blank
    lines[target_row] = (SEPARATORS[name] or " ").join(cells)
    assert isinstance(read_text(name, "\n".join(lines)), ConllFormatError)


@DAMAGE_SETTINGS
@given(formats_and_sentences(), st.integers(1, 10_000))
def test_a_file_cut_short_is_refused_or_reads_a_prefix(case, cut):
    """Cut inside a line: refused. Cut at a line end: refused, or read as the sentence's first rows."""
    name, sentence = case
    text = written(name, sentence)
    damaged = text[: cut % len(text)]
    result = read_text(name, damaged)
    if damaged.split("\n")[-1].strip():  # the cut is inside a line's content
        assert isinstance(result, ConllFormatError)
    elif not isinstance(result, ConllFormatError):
        assert len(result) <= 1
        assert all(read.tokens == sentence.tokens[: len(read.tokens)] for read in result)


SPAN_CELLS = st.sampled_from(["*", "(A0*", "*)", "(V*)", "(A1*)", "A0|A1", "-", "(AM-TMP*", "A0*"])


@DAMAGE_SETTINGS
@given(sentences(dependency=True), st.integers(0, 400), SPAN_CELLS)
def test_a_span_format_cell_in_a_conll2009_apred_column_is_refused_at_its_line(sentence, position, cell):
    """A CoNLL-2009 file whose APRED column holds a CoNLL-2005/2012 span cell (or `A0|A1`, a lone `-`) is not
    read as roles: the reader names the line."""
    if not sentence.frames:
        sentence.frames = [SrlFrame(index=0, lemma="go", arguments=[])]
    text = written("conll2009", sentence)
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if line.strip()]
    row = rows[position % len(rows)]
    cells = lines[row].split("\t")
    column = 14 + position % (len(cells) - 14)
    lines[row] = "\t".join(cells[:column] + [cell] + cells[column + 1 :])
    error = read_text("conll2009", "\n".join(lines))
    assert isinstance(error, ConllFormatError), (cell, lines[row])
    assert error.line == row + 1 and "not a role label" in error.reason
