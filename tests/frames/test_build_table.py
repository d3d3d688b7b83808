"""The rolesets table built from frame files: roles, modifiers, aliases, a bad file named, the bundled one
small and attributed."""

import gzip
import json
import os

import pytest

from srl_zoo.frames.build_table import main
from srl_zoo.frames.rolesets import BUNDLED_TABLE, Rolesets

FRAME_FILE = """<?xml version="1.0" encoding="utf-8" standalone="no"?>
<!DOCTYPE frameset PUBLIC "-//PB//PropBank Frame v3.4 Transitional//EN" "http://propbank.org/frameset.dtd">
<frameset>
  <predicate lemma="approve">
    <roleset id="approve.01" name="assent   to">
      <aliases><alias pos="v">approve</alias><alias pos="n">approval</alias></aliases>
      <roles>
        <role descr="approver" f="PAG" n="0"/>
        <role descr="thing approved" f="PPT" n="1"/>
        <role descr="medium" f="LOC" n="m"/>
      </roles>
      <example name="broken upstream"><text>x</text><propbank><arg>in</rel></propbank></example>
    </roleset>
  </predicate>
</frameset>
"""


def test_a_frame_file_becomes_rolesets_roles_and_aliases(tmp_path):
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "approve.xml").write_text(FRAME_FILE, encoding="utf-8")
    out = tmp_path / "table.json.gz"
    assert main([str(tmp_path / "frames"), str(out), "--commit", "abc"]) == 0
    table = Rolesets.read(out)
    assert table.get("approve.01") == (
        "approve.01",
        "assent to",
        {"ARG0": "approver", "ARG1": "thing approved", "ARGM-LOC": "medium"},
    )
    assert table.named_by("Approval") == ["approve.01"] and table.senses("approve") == ["01"]
    assert table.source["commit"] == "abc" and "CC BY-SA 4.0" in table.source["licence"]


def test_a_frame_file_that_is_not_xml_is_named_and_nothing_is_written(tmp_path, capsys):
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "bad.xml").write_text("<frameset><predicate></frameset>", encoding="utf-8")
    out = tmp_path / "table.json.gz"
    assert main([str(tmp_path / "frames"), str(out), "--commit", "abc"]) == 2
    assert "bad.xml" in capsys.readouterr().err and not out.exists()


def test_the_bundled_table_is_small_attributed_and_complete():
    assert os.path.getsize(BUNDLED_TABLE) <= 3 * 1024 * 1024
    with gzip.open(BUNDLED_TABLE, "rt", encoding="utf-8") as handle:
        source = json.load(handle)["source"]
    source_note = (BUNDLED_TABLE.parent / "SOURCE.md").read_text(encoding="utf-8")
    assert source["commit"] in source_note and "CC BY-SA 4.0" in source_note
    assert len(Rolesets.read(BUNDLED_TABLE).rolesets) > 10_000


def test_a_file_that_is_not_a_table_is_named(tmp_path):
    bad = tmp_path / "table.json.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(ValueError, match="table.json.gz"):
        Rolesets.read(bad)
