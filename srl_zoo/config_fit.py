"""What a part's config offers the other parts and what it needs of them, so that parts that do not fit together are
one line naming both keys before any data is read (`srl_zoo.training.config_check`), instead of an error at the
first batch. A part declares, as class methods reading its own config (a dict, before anything is built):
`config_offers(config) -> {role: facts}` (a sentence encoder offers `"sentence_encoder": {"layers": 4, ...}`) and
`config_needs(config) -> [ConfigNeed]`."""

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional

#: the role of the dataset reader; its fact: `labels_on`, "head words" (CoNLL-2009: each argument a label on its head
#: word) or "spans" (CoNLL-2005, CoNLL-2012)
TRAINING_DATA = "training_data"
#: the role of the part that encodes the sentence for the frame scorer, the heads and the auxiliary tasks; its facts:
#: `layers` (how many layer outputs it gives) and `syntax_head` (whether it scores dependency arcs)
SENTENCE_ENCODER = "sentence_encoder"


@dataclass(frozen=True)
class ConfigNeed:
    """What a part needs of the part that plays `role`: `problem(facts, where)` says what does not fit (None where
    it fits), `where` being the config path of the part offering `facts`; `key` is the needing part's key the
    problem is about ("" for the part as a whole)."""

    role: str
    key: str
    problem: Callable[[dict[str, Any], str], Optional[str]]


def setting(cls: type, config: dict[str, Any], key: str) -> Any:
    """`config[key]`, or the default of `cls`'s constructor parameter `key` where the config leaves it out."""
    if key in config:
        return config[key]
    parameter = inspect.signature(cls).parameters.get(key)
    return None if parameter is None or parameter.default is inspect.Parameter.empty else parameter.default


def layer_problem(layer: Any, facts: dict[str, Any], where: str) -> Optional[str]:
    """Why layer index `layer` is not one of the layers the sentence encoder at `where` gives (None if it is)."""
    layers = facts.get("layers")
    if not isinstance(layer, int) or not isinstance(layers, int) or -layers <= layer < layers:
        return None
    return f"{layer} is not one of the {layers} layers {where} gives: use 0 to {layers - 1}, or -1 for the top one"


def reads_one_layer(cls: type, config: dict[str, Any]) -> list[ConfigNeed]:
    """The need of a part that reads the sentence encoder's layer `layer` (a predicate head): that layer exists.
    A part's `config_needs` returns it."""
    layer = setting(cls, config, "layer")
    return [ConfigNeed(SENTENCE_ENCODER, "layer", lambda facts, where: layer_problem(layer, facts, where))]


def reads_head_words(key: str, what: str, instead: str) -> ConfigNeed:
    """The need of a part made for labels on head words (CoNLL-2009): `what` it is, `instead` what to use on
    spans; the problem names the reader, which reads spans."""

    def problem(facts: dict[str, Any], where: str) -> Optional[str]:
        if facts.get("labels_on") != "spans":
            return None
        return f"{what} labels on head words (CoNLL-2009), but {where} reads spans: {instead}"

    return ConfigNeed(TRAINING_DATA, key, problem)
