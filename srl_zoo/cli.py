"""The `srl-zoo` command: srl_zoo's subcommands from any directory, with the plugin always loaded.

    srl-zoo label MODEL INPUT -o OUTPUT      (= allennlp srl-label ...)
    srl-zoo evaluate MODEL GOLD_FILE         (= allennlp srl-evaluate ...)
    srl-zoo export MODEL OUTPUT              (= allennlp srl-export ...)
    srl-zoo neighbours ...                   (= allennlp srl-neighbours ...)
    srl-zoo train CONFIG -s DIR              (= allennlp train ... --include-package srl_zoo)
    srl-zoo predict MODEL INPUT              (= allennlp predict ... --include-package srl_zoo)
    srl-zoo serve MODEL [--port 8000]        (= allennlp srl-serve ...: HTTP service and page)
    srl-zoo --version                        (srl_zoo's version)

`allennlp` lists its subcommands before it reads `--include-package`, so `allennlp srl-label` works
only where a `.allennlp_plugins` file names srl_zoo; `srl-zoo` imports srl_zoo first and then hands
the command line to allennlp. It prints results, progress bars and warnings; `--verbose` brings back
allennlp's INFO log.
"""

import importlib.metadata
import logging
import os
import sys
import warnings
from typing import List, Optional

#: srl-zoo's names for allennlp's subcommands
COMMANDS = {
    "label": "srl-label",
    "evaluate": "srl-evaluate",
    "export": "srl-export",
    "neighbours": "srl-neighbours",
    "train": "train",
    "predict": "predict",
    "serve": "srl-serve",
}


def allennlp_arguments(argv: List[str]) -> List[str]:
    """The allennlp command line for srl-zoo's `argv` (without the program name; `--verbose` is kept
    for srl_zoo's own subcommands, which take it, and dropped for allennlp's)."""
    arguments = list(argv)
    if arguments and arguments[0] in COMMANDS:
        arguments[0] = COMMANDS[arguments[0]]
    if not arguments or not arguments[0].startswith("srl-"):
        arguments = [argument for argument in arguments if argument != "--verbose"]
    return arguments


#: the files each command reads, as its first positional arguments (checked before anything loads)
INPUTS = {
    "label": ("MODEL", "INPUT"),
    "evaluate": ("MODEL", "GOLD_FILE"),
    "predict": ("MODEL", "INPUT"),
    "export": ("MODEL",),
    "serve": ("MODEL",),
}


def missing_input(argv: List[str]) -> Optional[str]:
    """The one-line error for a command whose model or input file does not exist, else None. Only the
    leading positional arguments are checked (options first: allennlp checks them later)."""
    names = INPUTS.get(argv[0], ())
    given = argv[1 : 1 + len(names)]
    if len(given) < len(names) or any(value.startswith("-") for value in given):
        return None
    for name, path in zip(names, given):
        if not os.path.exists(path):
            return f"srl-zoo {argv[0]}: {name} {path!r} does not exist (nothing was written)"
    return None


#: what allennlp says on every run that needs no action from an srl_zoo user
NOISE = ("You provided a validation dataset but patience was set to None",)


def quiet_allennlp() -> None:
    """srl-zoo without --verbose: allennlp's train sets up its own logging at ALLENNLP_LOG_LEVEL
    (WARNING here, so its INFO lines stay away), and two warnings every run repeats are dropped:
    early stopping being off, and allennlp's use of the deprecated `torch.cuda.amp.autocast`."""
    os.environ.setdefault("ALLENNLP_LOG_LEVEL", "WARNING")
    logging.getLogger("allennlp.training.gradient_descent_trainer").addFilter(
        lambda record: not record.getMessage().startswith(NOISE)
    )
    warnings.filterwarnings("ignore", message=r".*torch\.cuda\.amp\.autocast", category=FutureWarning)


def version() -> str:
    """srl_zoo's installed version."""
    try:
        return importlib.metadata.version("srl_zoo")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def main(argv: Optional[List[str]] = None) -> None:
    """Run one srl-zoo command (`argv` defaults to the process's arguments)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if argv[0] == "--version":
        print(f"srl-zoo {version()}")
        return
    if argv[0] not in COMMANDS and not argv[0].startswith("-"):
        sys.exit(f"srl-zoo: unknown command {argv[0]!r}; choose one of {', '.join(COMMANDS)}")
    problem = missing_input(argv)
    if problem:
        print(problem, file=sys.stderr)
        sys.exit(2)
    verbose = "--verbose" in argv
    level = logging.INFO if verbose else logging.WARNING
    if not verbose:
        quiet_allennlp()
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=level)
    from allennlp.commands import main as allennlp_main

    import srl_zoo  # noqa: F401  (registers the subcommands and every component)

    sys.argv = ["srl-zoo"] + allennlp_arguments(argv)
    allennlp_main(prog="srl-zoo")


if __name__ == "__main__":
    main()
