"""Malformed input raises ConllFormatError naming the file, the line and what was expected."""

import pytest

from srl_zoo.data.formats import ConllFormatError, read_conll2005, read_conll2009, read_conll2012

GOOD_2005 = "The DT (S(NP* * - (A0*\ncat NN *) * - *)\nsat VBD (VP*) * sit (V*)\n. . *) * - *\n"
GOOD_2009 = (
    "1\tThe\tthe\tthe\tDT\tDT\t_\t_\t2\t2\tdet\tdet\t_\t_\t_\n"
    "2\tcat\tcat\tcat\tNN\tNN\t_\t_\t3\t3\tnsubj\tnsubj\t_\t_\tA0\n"
    "3\tsat\tsit\tsit\tVBD\tVBD\t_\t_\t0\t0\troot\troot\tY\tsit.01\t_\n"
)
DOC = "d/x.xml 0 "
GOOD_2012 = (
    "#begin document (d/x.xml); part 000\n"
    f"{DOC}0 The DT (S(NP* - - - - * (ARG0* -\n"
    f"{DOC}1 cat NN *) - - - - * *) -\n"
    f"{DOC}2 sat VBD (VP*) sit sit.01 - - * (V*) -\n"
    "\n#end document\n"
)


def parse_all(reader, tmp_path, text, mode="w"):
    path = tmp_path / "input.txt"
    if mode == "wb":
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ConllFormatError) as info:
        list(reader(str(path)))
    assert str(path) in str(info.value)
    return info.value


def test_good_inputs_parse(tmp_path):
    for reader, text in ((read_conll2005, GOOD_2005), (read_conll2009, GOOD_2009), (read_conll2012, GOOD_2012)):
        path = tmp_path / "good.txt"
        path.write_text(text, encoding="utf-8")
        assert len(list(reader(str(path)))) == 1


def test_wrong_column_count(tmp_path):
    error = parse_all(read_conll2005, tmp_path, GOOD_2005.replace("cat NN *) * - *)", "cat NN *) *)"))
    assert error.line == 2 and "wrong column count" in str(error) and "expected 6 columns" in str(error)
    error = parse_all(read_conll2009, tmp_path, GOOD_2009.replace("\tA0\n", "\n"))
    assert error.line == 2 and "wrong column count" in str(error)


def test_unbalanced_brackets(tmp_path):
    error = parse_all(read_conll2005, tmp_path, GOOD_2005.replace("cat NN *) * - *)", "cat NN *) * - *"))
    assert error.line == 1 and "never closed" in str(error)
    error = parse_all(read_conll2012, tmp_path, GOOD_2012.replace("* (ARG0* -", "* * -"))
    assert error.line == 3 and "never opened" in str(error)


def test_bad_argument_cell(tmp_path):
    error = parse_all(read_conll2005, tmp_path, GOOD_2005.replace("(A0*", "(A0"))
    assert error.line == 1 and "bad argument cell" in str(error)


def test_props_column_without_v(tmp_path):
    error = parse_all(read_conll2005, tmp_path, GOOD_2005.replace("(V*)", "*"))
    assert "no V span" in str(error) and error.line == 3


def test_target_count_differs_from_props_columns(tmp_path):
    error = parse_all(read_conll2005, tmp_path, GOOD_2005.replace("sit (V*)", "- (V*)"))
    assert "0 target verbs" in str(error) and "1 props columns" in str(error)


def test_head_out_of_range(tmp_path):
    error = parse_all(read_conll2009, tmp_path, GOOD_2009.replace("\t3\t3\tnsubj", "\t9\t3\tnsubj"))
    assert error.line == 2 and "HEAD" in str(error) and "0 to 3" in str(error)


def test_token_ids_out_of_order(tmp_path):
    error = parse_all(read_conll2009, tmp_path, GOOD_2009.replace("3\tsat", "4\tsat"))
    assert error.line == 3 and "ID" in str(error)


def test_bad_utf8(tmp_path):
    error = parse_all(read_conll2005, tmp_path, GOOD_2005.encode("utf-8").replace(b"cat", b"c\xffat"), mode="wb")
    assert error.line == 2 and "UTF-8" in str(error)


def test_empty_file(tmp_path):
    error = parse_all(read_conll2009, tmp_path, "\n\n")
    assert "empty" in str(error)


def test_missing_path(tmp_path):
    with pytest.raises(ConllFormatError, match="no such file") as info:
        list(read_conll2005(str(tmp_path / "nope.txt")))
    assert "nope.txt" in str(info.value)
