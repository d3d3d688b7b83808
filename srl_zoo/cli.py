"""The `srl-zoo` command: srl_zoo's subcommands from any directory, with the plugin always loaded.

    srl-zoo label MODEL INPUT -o OUTPUT      (= allennlp srl-label ...)
    srl-zoo evaluate MODEL GOLD_FILE         (= allennlp srl-evaluate ...)
    srl-zoo export MODEL OUTPUT              (= allennlp srl-export ...)
    srl-zoo neighbours ...                   (= allennlp srl-neighbours ...)
    srl-zoo train CONFIG -s DIR              (= allennlp train ... --include-package srl_zoo)
    srl-zoo predict MODEL INPUT              (= allennlp predict ... --include-package srl_zoo)
    srl-zoo serve MODEL [--port 8000]        (= allennlp srl-serve ...: HTTP service and page)

`allennlp` lists its subcommands before it reads `--include-package`, so `allennlp srl-label` works
only where a `.allennlp_plugins` file names srl_zoo; `srl-zoo` imports srl_zoo first and then hands
the command line to allennlp. It prints results, progress bars and warnings; `--verbose` brings back
allennlp's INFO log.
"""

import logging
import sys
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


def main(argv: Optional[List[str]] = None) -> None:
    """Run one srl-zoo command (`argv` defaults to the process's arguments)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if argv[0] not in COMMANDS and not argv[0].startswith("-"):
        sys.exit(f"srl-zoo: unknown command {argv[0]!r}; choose one of {', '.join(COMMANDS)}")
    level = logging.INFO if "--verbose" in argv else logging.WARNING
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=level)
    from allennlp.commands import main as allennlp_main

    import srl_zoo  # noqa: F401  (registers the subcommands and every component)

    sys.argv = ["srl-zoo"] + allennlp_arguments(argv)
    allennlp_main(prog="srl-zoo")


if __name__ == "__main__":
    main()
