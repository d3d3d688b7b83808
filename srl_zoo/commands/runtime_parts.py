"""The runtime's table of parts (`srl_zoo/runtime/parts_table.py`), generated from registration: for each kind of
part an archive's config names (frame scorer, encoder, output layer, predicate head), every name srl_zoo registers
a wrapper under, with the plain part that wrapper wraps (the first base it has under `srl_zoo.parts`). The runtime
cannot read allennlp's registry (it runs without allennlp), so the table is written here and a test fails when it
is not what registration gives (`tests/commands/test_runtime_parts.py`).

    python -m srl_zoo.commands.runtime_parts srl_zoo/runtime/parts_table.py          # rewrite it
    python -m srl_zoo.commands.runtime_parts --check srl_zoo/runtime/parts_table.py
"""

from dataclasses import dataclass
from typing import Optional

from allennlp.common import Registrable

from srl_zoo.allennlp_patches import register_and_patch
from srl_zoo.commands.generated_doc import generated_doc_main
from srl_zoo.parts.scorers.frame_scorer import FrameScorer


@dataclass(frozen=True)
class Kind:
    """One kind of part in the table: the registrable base's name, the table's name, how the runtime makes it, and
    the plain base the table's values are typed by (None: the union of their classes)."""

    base: str
    table: str
    comment: str
    value_base: Optional[type] = None


KINDS = (
    Kind(
        "FrameScorer",
        "SCORERS",
        "`model.frame_scorer.type` (default `indicator`): made as "
        "`Scorer(encoder, tag_output, num_labels, **settings)`",
        FrameScorer,
    ),
    Kind("Seq2SeqEncoder", "ENCODERS", "`model.frame_scorer.encoder.type`: made from the config's settings"),
    Kind(
        "TagOutput",
        "OUTPUTS",
        "`model.frame_scorer.output.type` (default `softmax`): made as `Output(index_to_label, **settings)`",
    ),
    Kind(
        "PredicateHead",
        "PREDICATE_HEADS",
        "`model.predicate_head.type` (default `tagger`): made as "
        "`Head.from_vocabulary(vocabulary, input_dim, **settings)`",
    ),
)

HEADER = "\n".join(
    [
        '"""The plain parts the runtime builds, by the `type` an archive\'s config gives them: the names the',
        "allennlp side registers their wrappers under (generated from registration by `python -m",
        "srl_zoo.commands.runtime_parts srl_zoo/runtime/parts_table.py`; do not edit). An archive whose every part",
        'is here labels without allennlp."""',
        "",
    ]
)


def plain_part(cls: type) -> Optional[type]:
    """The plain part the registered class `cls` wraps: its first base defined under `srl_zoo.parts`."""
    return next((base for base in cls.__mro__[1:] if base.__module__.startswith("srl_zoo.parts.")), None)


def registered_plain_parts(base_name: str) -> dict[str, type]:
    """Each name srl_zoo registers under the registrable base `base_name` → the plain part its class wraps."""
    found = {}
    for base, names in Registrable._registry.items():
        if base.__name__ != base_name:
            continue
        for name, (cls, _) in names.items():
            plain = plain_part(cls) if cls.__module__.startswith("srl_zoo.") else None
            if plain is not None:
                found[name] = plain
    return dict(sorted(found.items()))


def parts_table() -> str:
    """The whole of `srl_zoo/runtime/parts_table.py`."""
    register_and_patch()  # every part registered
    tables = {kind: registered_plain_parts(kind.base) for kind in KINDS}
    imported = {(cls.__module__, cls.__name__) for table in tables.values() for cls in table.values()}
    imported |= {(kind.value_base.__module__, kind.value_base.__name__) for kind in KINDS if kind.value_base}
    lines = [HEADER]
    lines += [f"from {module} import {name}" for module, name in sorted(imported)]
    for kind, table in tables.items():
        classes = [kind.value_base] if kind.value_base else list(dict.fromkeys(table.values()))
        value_type = " | ".join(f"type[{cls.__name__}]" for cls in classes)
        lines += ["", f"#: {kind.comment}", f"{kind.table}: dict[str, {value_type}] = {{"]
        lines += [f'    "{name}": {cls.__name__},' for name, cls in table.items()]
        lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: Optional[list[str]] = None) -> None:
    generated_doc_main(__doc__ or "", "srl_zoo.commands.runtime_parts", parts_table, argv)


if __name__ == "__main__":
    main()
