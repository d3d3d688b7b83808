"""The runtime's table of parts is what registration gives: each name a srl_zoo wrapper is registered under, with
the plain part it wraps (`python -m srl_zoo.commands.runtime_parts` regenerates the file)."""

import os

from srl_zoo.commands.runtime_parts import parts_table, plain_part
from srl_zoo.modules.frame_scorers.indicator import IndicatorFrameScorer
from srl_zoo.parts.scorers import indicator
from tests.conftest import REPO_ROOT


def test_the_runtimes_table_is_the_generated_one():
    with open(os.path.join(REPO_ROOT, "srl_zoo", "runtime", "parts_table.py"), encoding="utf-8") as handle:
        written = handle.read()
    assert written == parts_table(), "run: python -m srl_zoo.commands.runtime_parts srl_zoo/runtime/parts_table.py"


def test_a_wrappers_plain_part_is_its_first_base_under_parts():
    assert plain_part(IndicatorFrameScorer) is indicator.IndicatorFrameScorer
    assert plain_part(int) is None
