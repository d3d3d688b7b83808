"""Where srl_zoo finds what `make scorer`, `make glove` and `make minilm` build (the scorer, GloVe vectors, the
MiniLM encoder): one place, the one environment variable that moves it read here."""

import os
from collections.abc import Mapping

#: the checkout that holds this package when it runs from one (an editable install, the Makefile's)
_CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cache_directory(environment: Mapping[str, str] = os.environ) -> str:
    """`$SRL_ZOO_CACHE` if set; else the checkout's `.cache` when srl_zoo runs from its checkout; else the
    user's cache folder (`$XDG_CACHE_HOME/srl_zoo`, by default `~/.cache/srl_zoo`) for an installed package,
    whose own folder is site-packages.

    # Parameters

    environment : the variables to read (`os.environ` by default).
    """
    if environment.get("SRL_ZOO_CACHE"):
        return environment["SRL_ZOO_CACHE"]
    if os.path.isfile(os.path.join(_CHECKOUT, "setup.py")):
        return os.path.join(_CHECKOUT, ".cache")
    user_cache = environment.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(user_cache, "srl_zoo")
