"""docs/configuration.md is generated from the registered parts' signatures and docstrings and up to date, and
it names every srl_zoo part and every key the config check accepts for it."""

import os

from srl_zoo.commands.config_reference import KINDS, config_reference, srl_zoo_parts
from srl_zoo.training.constructor_keys import constructor_parameters
from tests.conftest import REPO_ROOT


def test_the_reference_in_the_docs_is_the_generated_one():
    with open(os.path.join(REPO_ROOT, "docs", "configuration.md"), encoding="utf-8") as handle:
        written = handle.read()
    assert written == config_reference(), "run: python -m srl_zoo.commands.config_reference docs/configuration.md"


def test_every_registered_part_and_every_key_it_takes_is_listed():
    reference = config_reference()
    for base, _ in KINDS:
        for names, cls, constructor in srl_zoo_parts(base):
            section = reference.split(f"### `{names[0]}`", 1)[1].split("\n### ", 1)[0]
            for key in constructor_parameters(cls, constructor):
                assert f"| `{key}` |" in section, (names[0], key)


def test_a_multi_key_docstring_line_gives_each_key_its_meaning():
    """`inference_chunk_elements, inference_chunk_tokens : ...` in a `# Parameters` section documents both keys."""
    section = config_reference().split("### `indicator`", 1)[1].split("\n### ", 1)[0]
    for key in ("inference_chunk_elements", "inference_chunk_tokens"):
        row = next(line for line in section.splitlines() if line.startswith(f"| `{key}` |"))
        assert "chunk limits at inference" in row


def test_every_key_of_srl_zoos_parts_has_its_own_meaning():
    """A key with no meaning, or whose meaning is a fragment of a docstring line that gave several keys theirs
    (`model width (200); num_heads : 8`), is a hole in the reference; keys the building part gives are marked."""
    import re

    reference = config_reference()
    fused = re.compile(r"(^|[;.] )`?[a-z_]+`?(, `?[a-z_]+`?)* : ")
    for base, _ in KINDS:
        for names, _cls, _constructor in srl_zoo_parts(base):
            section = reference.split(f"### `{names[0]}`", 1)[1].split("\n### ", 1)[0]
            for row in section.splitlines():
                if not row.startswith("| `"):
                    continue
                key, _type, default, meaning = [cell.strip() for cell in row.strip("|").split(" | ")]
                if default == "*given*":
                    continue
                assert meaning, (names[0], key)
                assert not fused.search(meaning), (names[0], key, meaning)
