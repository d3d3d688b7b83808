"""Dependency trees from CoNLL-U and CoNLL-2009 files, and their strict alignment with SRL sentences."""

import os
from pathlib import Path

import pytest

from srl_zoo.data.formats import ConllFormatError, read_conll2009, read_conll2012
from srl_zoo.data.formats.dependency_trees import attach_dependency_trees, read_dependency_trees
from tests.conftest import FIXTURES

CONLLU = """# sent_id = 1
# text = Don't go.
1-2\tDon't\t_\t_\t_\t_\t_\t_\t_\t_
1\tDo\tdo\tAUX\tVB\t_\t3\taux\t_\t_
2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_
3\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_
3.1\tgone\tgo\tVERB\tVB\t_\t_\t_\t3:conj\t_
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

1\tYes\tyes\tINTJ\tUH\t_\t0\troot\t_\t_
"""


def test_conllu_skips_comments_ranges_and_empty_nodes(tmp_path):
    path = tmp_path / "trees.conllu"
    path.write_text(CONLLU, encoding="utf-8")
    trees = list(read_dependency_trees(str(path)))
    assert [t.tokens for t in trees] == [["Do", "n't", "go", "."], ["Yes"]]
    assert trees[0].heads == [3, 3, 0, 3] and trees[0].relations == ["aux", "advmod", "root", "punct"]
    assert trees[0].line == 4 and trees[1].line == 10


def test_conll2009_trees_equal_the_conll2009_reader():
    path = os.path.join(FIXTURES, "conll2009", "sample.txt")
    trees = list(read_dependency_trees(path))
    sentences = list(read_conll2009(path))
    assert [t.heads for t in trees] == [s.heads for s in sentences]
    assert [t.relations for t in trees] == [s.dependency_labels for s in sentences]


def test_attaching_aligned_trees_to_span_data():
    spans = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    trees = os.path.join(FIXTURES, "conll2009", "sample.txt")
    attached = list(attach_dependency_trees(read_conll2012(spans), trees, spans))
    assert [s.heads for s in attached] == [s.heads for s in read_conll2009(trees)]
    assert [s.frames for s in attached] == [s.frames for s in read_conll2012(spans)]


def test_misaligned_trees_are_clear_errors(tmp_path):
    spans = os.path.join(FIXTURES, "conll2012", "sample.gold_conll")
    trees = os.path.join(FIXTURES, "conll2009", "edge_cases.txt")  # other sentences
    with pytest.raises(
        ConllFormatError, match=r"edge_cases.txt, line 1: does not align with sentence 1 of .*sample.gold_conll"
    ):
        list(attach_dependency_trees(read_conll2012(spans), trees, spans))
    lines = Path(FIXTURES, "conll2009", "sample.txt").read_text(encoding="utf-8").split("\n\n")
    short = tmp_path / "short.txt"
    short.write_text("\n\n".join(lines[:3]) + "\n\n", encoding="utf-8")
    with pytest.raises(ConllFormatError, match="short.txt: has fewer sentences than .*: none for sentence 4"):
        list(attach_dependency_trees(read_conll2012(spans), str(short), spans))
    two_spans = list(read_conll2012(spans))[:2]
    with pytest.raises(ConllFormatError, match="short.txt, line [0-9]+: has more sentences than"):
        list(attach_dependency_trees(two_spans, str(short), spans))


def test_bad_tree_lines_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tA\ta\tX\tX\t_\t7\tdep\t_\t_\n", encoding="utf-8")
    with pytest.raises(ConllFormatError, match="bad.conllu, line 1: HEAD is '7'"):
        list(read_dependency_trees(str(bad)))
    bad.write_text("1\tA\ta\n", encoding="utf-8")
    with pytest.raises(ConllFormatError, match="bad.conllu, line 1: expected 10"):
        list(read_dependency_trees(str(bad)))
