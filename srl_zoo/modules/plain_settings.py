"""A registered part's settings from the plain part it wraps: the plain constructor's parameters with a default (their
names, types and defaults) are the one record of a part's settings, and the registered wrapper declares only what
allennlp gives it (the vocabulary, parts built lazily, widths) and the keys of its own (a loss weight)."""

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

Constructor = TypeVar("Constructor", bound=Callable[..., None])


def settings_of(plain: type) -> list[inspect.Parameter]:
    """The settings of a plain part: its constructor's parameters with a default, in order, annotations resolved.

    # Parameters

    plain : the plain part's class (under `srl_zoo.parts`).
    """
    parameters = inspect.signature(plain, eval_str=True).parameters.values()
    return [parameter for parameter in parameters if parameter.default is not inspect.Parameter.empty]


def takes_settings_of(plain: type) -> Callable[[Constructor], Constructor]:
    """Give a registered wrapper's `__init__(self, <its own parameters>, **settings)` the settings of `plain` as
    keyword parameters: its signature (what allennlp builds it from, what the config check and the generated
    reference read) lists them with `plain`'s types and defaults, and `settings` arrives holding every one of them,
    defaults filled in (a setting the wrapper names itself is its own).

    # Parameters

    plain : the plain part the wrapper's class derives from.
    """

    def decorate(constructor: Constructor) -> Constructor:
        own = inspect.signature(constructor)
        kept = [p for p in own.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        if len(kept) == len(own.parameters):
            raise TypeError(f"{constructor.__qualname__} takes no **settings for {plain.__name__}'s settings")
        settings = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in settings_of(plain) if p.name not in own.parameters
        ]
        signature = own.replace(parameters=kept + settings)

        @functools.wraps(constructor)
        def with_settings(*args: Any, **kwargs: Any) -> None:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            given = dict(bound.arguments)
            constructor(**{name: given.pop(name) for name in [p.name for p in kept]}, **given)

        with_settings.__signature__ = signature  # type: ignore[attr-defined]  # what inspect.signature reads
        return typing.cast(Constructor, with_settings)

    return decorate
