"""The readable keys of a frame: lemma, roleset and its name from the bundled PropBank table, and what each
role means, for a lemma with several rolesets, an unknown lemma, a nominal alias and modifiers."""

import pytest

from srl_zoo.frames.readable_frames import MODIFIER_NAMES, ReadableFrames, role_description
from srl_zoo.frames.rolesets import bundled_rolesets

READABLE = ReadableFrames()


def frame(word: str, sense, roles=("ARG0", "ARG1")):
    predicate = {"index": 0, "word": word}
    if sense is not None:
        predicate["sense"] = sense
    return {"predicate": predicate, "arguments": [{"role": role} for role in roles]}


def test_a_verb_gets_its_roleset_and_what_its_numbered_roles_mean():
    readable = READABLE.frame(frame("approved", "01"))
    assert readable["predicate"] == {
        "index": 0,
        "word": "approved",
        "sense": "01",
        "lemma": "approve",
        "roleset": "approve.01",
        "roleset_name": "assent to",
    }
    assert [a["description"] for a in readable["arguments"]] == ["approver", "thing approved"]


def test_a_lemma_with_several_rolesets_takes_the_one_of_the_predicted_sense():
    assert len(bundled_rolesets().named_by("run")) > 5
    first, second = (READABLE.frame(frame("ran", sense))["predicate"] for sense in ("01", "02"))
    assert (first["roleset"], second["roleset"]) == ("run.01", "run.02")
    assert first["roleset_name"] != second["roleset_name"]
    descriptions = [READABLE.frame(frame("ran", sense))["arguments"][0]["description"] for sense in ("01", "02")]
    assert descriptions[0] and descriptions[1] and descriptions[0] != descriptions[1]


def test_a_nominal_predicate_maps_to_its_verbs_roleset_through_the_aliases():
    readable = READABLE.frame(frame("Approvals", "01"))
    assert readable["predicate"]["lemma"] == "approve"
    assert (readable["predicate"]["roleset"], readable["predicate"]["roleset_name"]) == ("approve.01", "assent to")
    assert readable["arguments"][0]["description"] == "approver"


def test_an_unknown_lemma_keeps_lemma_and_sense_with_nothing_invented():
    readable = READABLE.frame(frame("blorfed", "01"))
    assert readable["predicate"]["roleset"] == "blorfed.01"
    assert readable["predicate"]["roleset_name"] is None
    assert [a["description"] for a in readable["arguments"]] == [None, None]


def test_without_a_sense_there_is_no_roleset_but_modifiers_still_read():
    readable = READABLE.frame(frame("approved", None, ("ARG0", "ARGM-TMP", "AM-LOC", "V")))
    assert (readable["predicate"]["lemma"], readable["predicate"]["roleset"]) == ("approve", None)
    assert [a["description"] for a in readable["arguments"]] == [None, "temporal", "location", None]


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("A0", "approver"),
        ("R-ARG0", "approver"),
        ("C-ARG1", "thing approved"),
        ("ARG1-DSP", "thing approved"),
        ("ARGM-MNR", "manner"),
        ("ARG5", None),
        ("V", None),
    ],
)
def test_role_descriptions_read_every_spelling(role, expected):
    assert role_description(role, bundled_rolesets().get("approve.01")) == expected


def test_a_rolesets_own_modifier_description_wins_over_the_generic_name():
    rolesets = bundled_rolesets()
    with_own = next(
        roleset
        for roleset in map(rolesets.get, sorted(rolesets.rolesets))
        if roleset is not None and any(role.startswith("ARGM-") for role in roleset.roles)
    )
    role = next(role for role in with_own.roles if role.startswith("ARGM-"))
    assert role_description(role, with_own) == with_own.roles[role]
    assert set(MODIFIER_NAMES) >= {"TMP", "LOC", "MNR", "CAU", "PRP", "DIR", "EXT", "ADV", "DIS", "MOD", "NEG"}
