"""The settings an archive's JSON members give, checked against their types and ranges before anything is
extracted: a transformer's sizes and rates (in `transformer/config.json` or an embedder's `transformer_kwargs`), a
word-piece `max_length`, the score calibration's temperature and the F1 recorded per precision. A bad value is one
reason naming the key, so it is refused in one line instead of crashing, or loading and failing on every call."""

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Optional, TypeGuard

#: the config keys of the score calibration and the F1 per precision (as `archive_files.SCORE_CALIBRATION_KEY` and
#: `nn.precision.F1_PER_PRECISION_KEY` name them)
CALIBRATION_KEY = "srl_zoo_score_calibration"
F1_KEY = "srl_zoo_f1_per_precision"
#: how much lower a faster precision's F1 may be than float32's for `auto` to take it
F1_TOLERANCE = 0.1


def keeps_f1(measured: Optional[Mapping[str, Any]], precision: str = "bfloat16") -> bool:
    """Whether an F1 per precision record (`{"float32": F1, "bfloat16": F1, "int8": F1, ...}`) shows `precision`
    within `F1_TOLERANCE` of float32; False without a record."""
    float32, other = (measured or {}).get("float32"), (measured or {}).get(precision)
    if not _is_number(float32) or not _is_number(other):
        return False  # not measured, or it could not run where it was measured
    return other >= float32 - F1_TOLERANCE


#: the fewest word pieces a transformer row may hold: two special tokens and one piece
MIN_MAX_LENGTH = 3


def _is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(minimum: int) -> Callable[[Any], Optional[str]]:
    def check(value: Any) -> Optional[str]:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            return f"expected a whole number of at least {minimum}"
        return None

    return check


def _rate(value: Any) -> Optional[str]:
    return None if _is_number(value) and 0 <= value < 1 else "expected a number from 0 up to 1 (a dropout rate)"


def _positive(value: Any) -> Optional[str]:
    return None if _is_number(value) and value > 0 else "expected a finite number above 0"


def _activation_name(value: Any) -> Optional[str]:
    return None if isinstance(value, str) and value.isidentifier() else "expected an activation's name"


#: a transformer config's settings that the encoders read, each with its check
TRANSFORMER_SETTINGS: dict[str, Callable[[Any], Optional[str]]] = {
    "hidden_size": _whole(1),
    "num_hidden_layers": _whole(0),
    "num_attention_heads": _whole(1),
    "intermediate_size": _whole(1),
    "max_position_embeddings": _whole(1),
    "vocab_size": _whole(1),
    "type_vocab_size": _whole(1),
    "relative_attention_num_buckets": _whole(1),
    "hidden_dropout_prob": _rate,
    "attention_probs_dropout_prob": _rate,
    "layer_norm_eps": _positive,
    "hidden_act": _activation_name,
}


def transformer_settings_problem(config: Any, where: str = "") -> Optional[str]:
    """Why a transformer config (or the `transformer_kwargs` applied over one) gives a setting the encoders cannot
    use, as `key value: expected ...`, else None; `hidden_size` must divide into `num_attention_heads`."""
    if not isinstance(config, dict):
        return None
    for key, check in TRANSFORMER_SETTINGS.items():
        if key in config:
            problem = check(config[key])
            if problem is not None:
                return f"{where}{key} {config[key]!r}: {problem}"
    heads, width = config.get("num_attention_heads"), config.get("hidden_size")
    if isinstance(heads, int) and isinstance(width, int) and heads > 0 and width % heads:
        return f"{where}hidden_size {width}: not a multiple of num_attention_heads {heads}"
    return None


def _dicts(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every dict inside the JSON value `node` with its dotted path (`a.b.`, ending in a dot), depth first."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _dicts(value, f"{where}{key}.")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _dicts(value, f"{where[:-1]}[{index}].")


def _max_length_problem(value: Any) -> Optional[str]:
    if value is None:
        return None
    return _whole(MIN_MAX_LENGTH)(value)


def _calibration_problem(calibration: Any) -> Optional[str]:
    if not isinstance(calibration, dict):
        return f"{CALIBRATION_KEY}: expected an object"
    temperature = calibration.get("temperature", 1.0)
    if _positive(temperature) is not None:
        return f"{CALIBRATION_KEY}.temperature {temperature!r}: expected a finite number above 0"
    return None


def _f1_problem(record: Any) -> Optional[str]:
    if not isinstance(record, dict):
        return f"{F1_KEY}: expected an object of F1 per precision"
    for precision, f1 in record.items():
        if f1 is not None and not _is_number(f1):  # None: not measured (no engine for it where it was exported)
            return f"{F1_KEY}.{precision} {f1!r}: expected a number (an F1) or null"
    return None


def model_settings_problem(config: Any) -> Optional[str]:
    """Why an srl_zoo archive's `config.json` gives a setting it cannot label with (a transformer setting in any
    `transformer_kwargs`, a word-piece `max_length`, the calibration's temperature, the F1 per precision), as
    `dotted.key value: expected ...`, else None."""
    if not isinstance(config, dict):
        return None
    if CALIBRATION_KEY in config and config[CALIBRATION_KEY] is not None:
        problem = _calibration_problem(config[CALIBRATION_KEY])
        if problem is not None:
            return problem
    if config.get(F1_KEY) is not None:
        problem = _f1_problem(config[F1_KEY])
        if problem is not None:
            return problem
    for where, node in _dicts(config):
        if "max_length" in node and str(node.get("type", "")).startswith(("pretrained_transformer", "word_pieces")):
            problem = _max_length_problem(node["max_length"])
            if problem is not None:
                return f"{where}max_length {node['max_length']!r}: {problem}"
        problem = transformer_settings_problem(node.get("transformer_kwargs"), f"{where}transformer_kwargs.")
        if problem is not None:
            return problem
    return None
