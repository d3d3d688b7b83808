"""A registered wrapper takes its plain part's settings: in its signature (what allennlp and the reference read),
and complete, defaults filled in, when it is built."""

import inspect
from typing import Any, Optional

import pytest
from allennlp.common import Params
from allennlp.data import Vocabulary

import srl_zoo.plugin  # noqa: F401  (every part registered)
from srl_zoo.models.heads.predicate_head import PredicateHead
from srl_zoo.modules.plain_settings import settings_of, takes_settings_of


class Plain:
    def __init__(self, width: int, depth: int = 2, name: Optional[str] = None, rate: float = 0.5) -> None:
        self.made = {"width": width, "depth": depth, "name": name, "rate": rate}


class Wrapper(Plain):
    @takes_settings_of(Plain)
    def __init__(self, source: str, rate: float = 0.25, **settings: Any) -> None:
        self.settings = dict(settings)
        super().__init__(len(source), rate=rate, **settings)


def test_the_settings_of_a_plain_part_are_its_parameters_with_defaults():
    assert [(p.name, p.default, p.annotation) for p in settings_of(Plain)] == [
        ("depth", 2, int),
        ("name", None, Optional[str]),
        ("rate", 0.5, float),
    ]


def test_the_wrapper_signature_lists_its_own_parameters_then_the_plain_settings():
    parameters = inspect.signature(Wrapper).parameters
    assert [(name, p.default) for name, p in parameters.items()] == [
        ("source", inspect.Parameter.empty),
        ("rate", 0.25),  # the wrapper's own, not the plain part's 0.5
        ("depth", 2),
        ("name", None),
    ]
    assert parameters["depth"].kind is inspect.Parameter.KEYWORD_ONLY


def test_settings_arrive_complete_and_given_values_win():
    assert Wrapper("abc").settings == {"depth": 2, "name": None}
    made = Wrapper("abc", name="x", depth=5).made
    assert made == {"width": 3, "depth": 5, "name": "x", "rate": 0.25}


def test_a_key_neither_takes_is_refused():
    with pytest.raises(TypeError, match="unknown"):
        Wrapper("abc", unknown=1)


def test_a_constructor_without_settings_is_refused_when_decorated():
    with pytest.raises(TypeError, match=r"no \*\*settings for Plain"):

        @takes_settings_of(Plain)
        def __init__(self, source: str) -> None: ...


def test_allennlp_builds_a_registered_head_from_the_plain_settings():
    tiny_vocab = Vocabulary()
    tiny_vocab.add_tokens_to_namespace(["-", "01"], "predicate_senses")
    head = PredicateHead.from_params(
        Params({"type": "tagger", "layer": 0, "loss_weight": 0.5}), vocab=tiny_vocab, input_dim=8
    )
    assert (head.layer, head.loss_weight) == (0, 0.5)
    default = PredicateHead.from_params(Params({"type": "tagger"}), vocab=tiny_vocab, input_dim=8)
    assert default.layer == -1
