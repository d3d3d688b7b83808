"""The keys a part's config may hold: the parameters of the constructor allennlp builds it with, followed
through `**kwargs` to the constructors they are handed to. Read by the config check, the generated reference
and the settings that follow the embedder."""

import inspect
import typing
from collections.abc import Callable, Iterator
from typing import Any, Optional

from allennlp.common import FromParams, Registrable

#: classes whose constructor's `**kwargs` end the search for what a part takes (they refuse the rest)
CLOSED = (object, Registrable, FromParams)


def constructor_parameters(cls: type, constructor: Optional[str]) -> dict[str, inspect.Parameter]:
    """The config keys `cls` takes through `constructor` (its `__init__` when None), following `**kwargs` to
    the constructor they are handed to, up to a class that takes no more."""
    found: dict[str, inspect.Parameter] = {}
    for method in _constructor_chain(cls, constructor):
        try:
            hints = typing.get_type_hints(method)
        except Exception:  # an annotation that does not resolve here: keep the signature's own
            hints = {}
        for name, parameter in inspect.signature(method).parameters.items():
            if name == "self" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            found.setdefault(name, parameter.replace(annotation=hints.get(name, parameter.annotation)))
        if not any(p.kind == p.VAR_KEYWORD for p in inspect.signature(method).parameters.values()):
            return found
    return found


def _constructor_chain(cls: type, constructor: Optional[str]) -> Iterator[Callable[..., Any]]:
    """The methods a part's keys may go to: the named constructor (its `**kwargs` go to `__init__`), then
    `__init__` up the classes that define one, to allennlp's and torch's base classes."""
    if constructor is not None:
        yield getattr(cls, constructor)
    for klass in cls.__mro__:
        if "__init__" not in vars(klass):
            continue
        if klass in CLOSED or klass.__module__.startswith("torch"):
            return
        yield vars(klass)["__init__"]
