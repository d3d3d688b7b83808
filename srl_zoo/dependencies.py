"""What srl_zoo needs installed beside it, checked first when it is imported: its dependencies are installed
from the pinned lock file with `--no-deps` (allennlp 2.10.1's own metadata pins a torch that Python 3.11
cannot install), so a plain `pip install` of srl_zoo brings none of them."""

import importlib.util

#: the modules srl_zoo cannot import without, each with the distribution that provides it
REQUIRED = {"torch": "torch", "allennlp": "allennlp", "transformers": "transformers", "_jsonnet": "jsonnet"}
#: what to run, in the one-line error
INSTALL = "pip install --no-deps -r requirements.lock (in the srl_zoo checkout; docs/install.md)"


class MissingDependency(ImportError):
    """A distribution srl_zoo's allennlp side needs is not installed: the message names it and what to run."""


def check_dependencies() -> None:
    """`MissingDependency` in one line naming the missing distributions and the command that installs them."""
    missing = [distribution for module, distribution in REQUIRED.items() if _absent(module)]
    if missing:
        raise MissingDependency(
            f"srl_zoo needs {', '.join(missing)}, not installed here: run {INSTALL} "
            "(srl-zoo label and srl_zoo.runtime run without them)"
        )


def _absent(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):  # a module set to None in sys.modules, or a broken install
        return True


def require(module: str, purpose: str) -> None:
    """`MissingDependency` in one line when `module`, needed only for `purpose`, is not installed."""
    if _absent(module):
        raise MissingDependency(f"{purpose} needs {module.replace('_', '-')}, not installed here: run {INSTALL}")
