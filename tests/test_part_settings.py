"""Each part's settings have one source: the plain part's constructor (`srl_zoo/parts/`), which the runtime builds
from an archive. A registered part (what a config names, and what the configuration reference is generated from)
that wraps a plain one takes its settings from it (`srl_zoo.modules.plain_settings`), writing none of them again
(the runtime's table of parts is generated from registration: tests/commands/test_runtime_parts.py)."""

import inspect

import pytest
from allennlp.common import Registrable

import srl_zoo.plugin  # noqa: F401  (every part registered)


def registered_parts() -> list[tuple[type, str, type]]:
    """(registrable base, name, class) of every srl_zoo part registered with allennlp."""
    found = []
    for base, names in Registrable._registry.items():
        for name, (cls, _) in names.items():
            if cls.__module__.startswith("srl_zoo."):
                found.append((base, name, cls))
    return found


def plain_bases(cls: type) -> list[type]:
    """The plain parts `cls` wraps (its bases defined under `srl_zoo.parts`)."""
    return [base for base in cls.__mro__[1:] if base.__module__.startswith("srl_zoo.parts.")]


def defaults(cls: type) -> dict[str, object]:
    parameters = inspect.signature(cls.__init__).parameters.values()
    return {p.name: p.default for p in parameters if p.default is not inspect.Parameter.empty}


def wrapped_constructors() -> list[tuple[str, type, type]]:
    """(name, registered class, plain part) where a registered part has its own constructor over a plain part's that
    shares settings with it (a wrapper that inherits the plain constructor, such as the output layers', has none)."""
    found = []
    for _, name, cls in registered_parts():
        constructed = [base for base in plain_bases(cls) if "__init__" in vars(base)]
        if "__init__" in vars(cls) and constructed and set(defaults(cls)) & set(defaults(constructed[0])):
            found.append((name, cls, constructed[0]))
    return found


WRAPPERS = wrapped_constructors()


def test_the_scorers_and_heads_wrap_their_plain_parts_constructors():
    assert {"indicator", "bilinear", "tagger", "joint_pos_predicate"} <= {name for name, _, _ in WRAPPERS}


@pytest.mark.parametrize("name, cls, plain", WRAPPERS, ids=[name for name, _, _ in WRAPPERS])
def test_a_registered_part_takes_its_plain_parts_defaults(name, cls, plain):
    registered, own = defaults(cls), defaults(plain)
    shared = sorted(set(registered) & set(own))
    assert {key: registered[key] for key in shared} == {key: own[key] for key in shared}, (name, plain.__name__)


@pytest.mark.parametrize("name, cls, plain", WRAPPERS, ids=[name for name, _, _ in WRAPPERS])
def test_a_registered_part_writes_none_of_its_plain_parts_settings(name, cls, plain):
    written = inspect.unwrap(vars(cls)["__init__"])  # the constructor as its module writes it
    written_settings = {p.name for p in inspect.signature(written).parameters.values() if p.default is not p.empty}
    repeated = written_settings & set(defaults(plain))
    assert not repeated, f"{name} repeats {sorted(repeated)} of {plain.__name__}: use takes_settings_of"
