"""training_configs/README.md says where to start: every paper has a config for each of the three formats, each
named config exists, and every config of a paper folder is reachable from the table or the folder notes."""

import os
import re

from tests.conftest import REPO_ROOT

TABLE = os.path.join(REPO_ROOT, "training_configs", "README.md")
PAPERS = ("DeepAtt (Tan et al. 2018), FFN sub-layers", "selective connection", "LISA", "AMN")


def rows() -> dict[str, list[str]]:
    with open(TABLE, encoding="utf-8") as handle:
        lines = [line for line in handle if line.startswith("| ") and line.count("|") == 5]
    return {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:5]] for line in lines[1:]}


def test_every_paper_has_a_config_for_each_format():
    table = rows()
    for paper in PAPERS:
        (cells,) = [cells for name, cells in table.items() if name.startswith(paper)]
        assert all(cells), (paper, cells)


def test_every_config_named_exists_and_is_in_its_format():
    with open(TABLE, encoding="utf-8") as handle:
        named = re.findall(r"`([a-z_/0-9]+\.jsonnet)`", handle.read())
    assert len(named) >= 15
    for config in named:
        assert os.path.isfile(os.path.join(REPO_ROOT, "training_configs", config)), config
    for cells in rows().values():
        for config, data_format in zip(cells, ("conll2005", "conll2012", "conll2009"), strict=True):
            assert not config or config.strip("`").endswith(f"_{data_format}.jsonnet"), config
