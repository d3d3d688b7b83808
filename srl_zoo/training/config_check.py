"""A training config checked against the parts it names before anything is read or built: a key no part takes
(a typo, a leftover) and a value of the wrong simple type are one `ConfigurationError` naming the key path and,
for an unknown key, the keys that part takes. allennlp itself drops unknown trainer keys without a word
(`GradientDescentTrainer` takes `**kwargs`) and reports others only after reading the data, in a traceback.

A part that refuses spellings of earlier versions (read only from archives) declares it with a class method
`check_spelling(config)`, which raises a one-line `ConfigurationError`. Parts that must fit each other (a head's
layer within the encoder's layers, a parse task over an encoder with a syntax head) declare what they offer and need
(`srl_zoo.config_fit`); a need the offering part does not meet is one line naming both keys."""

import difflib
import inspect
import typing
from collections.abc import Callable
from typing import Any, Optional

import torch
from allennlp.common import FromParams, Lazy, Registrable
from allennlp.common.checks import ConfigurationError
from allennlp.data import DataLoader, DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp.training import Trainer

from srl_zoo.config_fit import ConfigNeed
from srl_zoo.modules.sentence_encoder import contract_offers
from srl_zoo.training.constructor_keys import constructor_parameters
from srl_zoo.training.embedder_settings import check_settings_follow_the_embedder
from srl_zoo.training.given_keys import given_keys

#: the config's top-level parts and what each is
SECTIONS: dict[str, type] = {
    "dataset_reader": DatasetReader,
    "validation_dataset_reader": DatasetReader,
    "model": Model,
    "data_loader": DataLoader,
    "validation_data_loader": DataLoader,
    "trainer": Trainer,
    "vocabulary": Vocabulary,
}
#: other top-level keys allennlp reads (`allennlp train`, its TrainModel, the seeds, multi-process training)
TOP_LEVEL = set(SECTIONS) | {
    "train_data_path",
    "validation_data_path",
    "test_data_path",
    "evaluate_on_test",
    "datasets_for_vocab_creation",
    "batch_weight_key",
    "distributed",
    "evaluation",
    "include_in_archive",
    "random_seed",
    "numpy_seed",
    "pytorch_seed",
    "type",
}


def check_training_config(config: dict[str, Any], gpus: Optional[int] = None) -> None:
    """`ConfigurationError` for the first key of `config` (a training config as a dict) that no part takes, or
    value of the wrong simple type, naming its path (`trainer.num_epochz`), and for a config that asks for a
    GPU on a machine with `gpus` GPUs (default: torch's count) too few, saying how to run it on the CPU, and
    for a setting made for GloVe-style embeddings over a pretrained transformer (`embedder_settings`)."""
    _check_devices(config, torch.cuda.device_count() if gpus is None else gpus)
    _check_keys(config, TOP_LEVEL, "", "the config")
    fit = _Fit()
    for section, base in SECTIONS.items():
        if section in config:
            _check_value(config[section], base, section, fit)
    fit.check()
    if isinstance(config.get("model"), dict):
        check_settings_follow_the_embedder(config["model"])


def _check_devices(config: dict[str, Any], gpus: int) -> None:
    """`ConfigurationError` naming the GPU a config asks for that this machine lacks, with the `-o` for the CPU."""
    trainer, distributed = config.get("trainer") or {}, config.get("distributed") or {}
    devices = distributed.get("cuda_devices") if isinstance(distributed, dict) else None
    if isinstance(devices, list) and any(isinstance(d, int) and d >= gpus for d in devices):
        raise ConfigurationError(
            f"distributed.cuda_devices is {devices} but this machine has {gpus} GPU(s): run it in one process "
            """on the CPU with -o '{"distributed": null, "trainer.cuda_device": -1}'"""
        )
    device = trainer.get("cuda_device") if isinstance(trainer, dict) else None
    if isinstance(device, int) and not isinstance(device, bool) and device >= gpus:
        raise ConfigurationError(
            f"trainer.cuda_device is {device} but this machine has {gpus} GPU(s): run it on the CPU with "
            """-o '{"trainer.cuda_device": -1}'"""
        )


class _Fit:
    """What the parts of a config offer each other (`role -> (path, facts)`) and need (`(path, ConfigNeed)`)."""

    def __init__(self) -> None:
        self.offers: dict[str, tuple[str, dict[str, Any]]] = {}
        self.needs: list[tuple[str, ConfigNeed]] = []

    def read(self, cls: type, config: dict[str, Any], path: str) -> None:
        """Take what the part `cls` configured by `config` at `path` declares."""
        for role, facts in (contract_offers(cls, config) or {}).items():
            self.offers[role] = (path, facts)
        needs = getattr(cls, "config_needs", None)
        self.needs.extend((path, need) for need in (needs(config) if needs is not None else []))

    def check(self) -> None:
        """`ConfigurationError` for the first need that the part offering its role does not meet."""
        for path, need in self.needs:
            if need.role not in self.offers:
                continue
            where, facts = self.offers[need.role]
            problem = need.problem(facts, where)
            if problem is not None:
                raise ConfigurationError(f"{path}.{need.key}: {problem}" if need.key else f"{path}: {problem}")


def _check_value(value: Any, annotation: Any, path: str, fit: _Fit) -> None:
    """Check `value`, given for a parameter annotated `annotation`, at `path`."""
    if typing.get_origin(annotation) is typing.Literal:
        if value not in typing.get_args(annotation):
            raise ConfigurationError(f"{path}: one of {typing.get_args(annotation)}, got {value!r}")
        return
    alternatives = _alternatives(annotation)
    if any(kind in (int, float, bool, str) for kind in alternatives):
        if value is None or _fits(value, alternatives):
            return
        raise ConfigurationError(f"{path}: expected {_type_name(annotation)}, got {value!r}")
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Lazy or annotation is Lazy:
        _check_value(value, arguments[0] if arguments else Any, path, fit)
    elif origin in (dict, typing.Dict) and isinstance(value, dict) and len(arguments) == 2:  # noqa: UP006
        for key, item in value.items():
            _check_value(item, arguments[1], f"{path}.{key}", fit)
    elif origin in (list, typing.List) and isinstance(value, list) and arguments:  # noqa: UP006
        for index, item in enumerate(value):
            _check_value(item, arguments[0], f"{path}[{index}]", fit)
    elif origin is typing.Union:
        given = [a for a in arguments if a is not type(None)]
        parts = [part for part in given if _is_part(_unwrap_lazy(part))]
        if len(given) == 1 or len(parts) == 1:  # Optional[X], or one part among plain values
            _check_value(value, given[0] if len(given) == 1 else parts[0], path, fit)
    elif _is_part(annotation) and isinstance(value, dict):
        _check_part(value, annotation, path, fit)


def _check_part(config: dict[str, Any], base: type, path: str, fit: _Fit) -> None:
    """Check the config of a part whose class is `base` or, for a registrable `base`, named by `type`."""
    cls, constructor = base, None
    if issubclass(base, Registrable):
        registrable = typing.cast(type[Registrable], base)
        name = config.get("type", registrable.default_implementation)
        _check_type(name, registrable, path)
        cls, constructor = registrable.resolve_class_name(name)
    check_spelling: Optional[Callable[[dict[str, Any]], None]] = getattr(cls, "check_spelling", None)
    if check_spelling is not None:
        check_spelling(config)
    given = given_keys(base)
    parameters = {key: p for key, p in constructor_parameters(cls, constructor).items() if key not in given}
    refused = sorted(set(config) & given)
    owner = f"{path} ({cls.__name__})"
    if refused:
        building = "by the part that builds it; a config does not set it"
        raise ConfigurationError(f"{path}.{refused[0]}: given to {owner} {building}")
    _check_keys(config, set(parameters) | {"type"}, f"{path}.", owner)
    for key, value in config.items():
        if key in parameters:
            _check_value(value, parameters[key].annotation, f"{path}.{key}", fit)
    fit.read(cls, config, path)


def _check_type(name: Any, registrable: type[Registrable], path: str) -> None:
    """`ConfigurationError` for a part's `type` that names no registered implementation (or a missing one where the
    part has no default), with the closest registered name and all of them."""
    available = registrable.list_available()
    if isinstance(name, str) and name in available:
        return
    kind = _base_name(registrable)
    if name is None:
        raise ConfigurationError(f"{path}.type: missing; a {kind} needs one of: {', '.join(sorted(available))}")
    raise ConfigurationError(
        f"{path}.type: {name!r} is not a registered {kind}; {_did_you_mean(str(name), available)}registered: "
        f"{', '.join(sorted(available))} "
        "(a part of your own package: add --include-package YOUR_PACKAGE)"
    )


def _base_name(registrable: type[Registrable]) -> str:
    """The name of the registrable base class `registrable` belongs to (`Optimizer`, `FrameScorer`, ...)."""
    for cls in registrable.__mro__:
        if Registrable in cls.__bases__:
            return cls.__name__
    return registrable.__name__


def _check_keys(config: dict[str, Any], accepted: set[str], prefix: str, owner: str) -> None:
    unknown = sorted(key for key in config if key not in accepted)
    if not unknown:
        return
    key = unknown[0]
    takes = ", ".join(sorted(accepted - {"type"}))
    raise ConfigurationError(f"{prefix}{key}: not a key of {owner}; {_did_you_mean(key, accepted)}it takes: {takes}")


def _did_you_mean(name: str, choices: Any) -> str:
    """`did you mean 'X'? ` for the choice closest to `name`, or "" where none is close."""
    close = difflib.get_close_matches(name, sorted(choices), n=1)
    return f"did you mean '{close[0]}'? " if close else ""


def _alternatives(annotation: Any) -> tuple[Any, ...]:
    if typing.get_origin(annotation) is typing.Union:
        return tuple(a for a in typing.get_args(annotation) if a is not type(None))
    return (annotation,)


def _fits(value: Any, kinds: tuple[Any, ...]) -> bool:
    for kind in kinds:
        if kind is bool and isinstance(value, bool):
            return True
        if kind is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
            return True
        if kind is str and isinstance(value, str):
            return True
        if kind is torch.device:
            continue  # a config's JSON never makes a torch.device: `cuda_device: "cpu"` failed after the data
        if kind not in (int, float, bool, str):
            return True  # another alternative this check does not read
    return False


def _type_name(annotation: Any) -> str:
    names = {
        int: "an integer",
        float: "a number",
        bool: "true or false",
        str: "a string",
        torch.device: "a device number (-1: the CPU)",
    }
    return " or ".join(names.get(kind, getattr(kind, "__name__", str(kind))) for kind in _alternatives(annotation))


def _unwrap_lazy(annotation: Any) -> Any:
    """`T` for `Lazy[T]`, else `annotation`."""
    if typing.get_origin(annotation) is Lazy and typing.get_args(annotation):
        return typing.get_args(annotation)[0]
    return annotation


def _is_part(annotation: Any) -> bool:
    return inspect.isclass(annotation) and issubclass(annotation, FromParams)
