"""The table of srl-zoo's commands and flags in `docs/commands.md`, generated from the commands' own
argument parsers (so it cannot drift from them: `tests/commands/test_command_table.py` regenerates it).

    python -m srl_zoo.commands.command_table docs/commands.md      # rewrite it
    python -m srl_zoo.commands.command_table --check docs/commands.md
"""

import argparse
import importlib
from typing import Optional

from allennlp.commands import ArgumentParserWithDefaults
from allennlp.commands.subcommand import Subcommand

from srl_zoo.command_list import COMMANDS, subcommand_modules
from srl_zoo.commands.generated_doc import generated_doc_main

#: one name for one thing across the commands: the argparse destination → the flag every command uses
VOCABULARY = {
    "precision": "--precision",
    "batch_size": "--batch-size",
    "cuda_device": "--cuda-device",
    "input_format": "--format",
    "format": "--format",
    "verbose": "--verbose",
    "output_file": "--output",
    "output": "--output",
}


#: flags srl-zoo adds to allennlp's commands (`srl_zoo.command_line.allennlp_arguments` translates them)
ADDED_FLAGS = {
    "predict": [
        "| `--precision` | `auto` | srl-zoo's, passed to the predictor: auto, float32 or bfloat16 (auto: bfloat16 "
        "autocast where the archive records that it keeps the F1 and the GPU or CPU runs it natively, else float32) |",
        "| `--verbose` |  | allennlp's INFO log, and the traceback of an error |",
    ],
    "train": ["| `--verbose` |  | allennlp's INFO log (without it: a progress bar and one line per epoch) |"],
}

HEADER = """# srl-zoo's commands and flags

Generated from the commands' parsers by `python -m srl_zoo.commands.command_table docs/commands.md`
(a test fails when it is out of date). `srl-zoo COMMAND --help` says the same. Every command takes
`--verbose` (allennlp's INFO log and, on an error, the traceback); `train` and `predict` are allennlp's
own, with allennlp's flags. The same thing has the same flag everywhere: `--precision`,
`--batch-size`, `--cuda-device`, `--format` (an input's format), `--output`.

`srl-zoo` works from any directory once installed (`make install` puts it in `.venv/bin`: activate the
environment with `source .venv/bin/activate`, or call `.venv/bin/srl-zoo`). `allennlp srl-label` and
the other `allennlp srl-*` names run the same commands, but only in a directory holding a
`.allennlp_plugins` file that names `srl_zoo` (the repository root has one): allennlp lists its
subcommands before it reads `--include-package`.
"""


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """srl-zoo's subcommand name → its parser, built as `srl-zoo` builds it."""
    for module in subcommand_modules():
        importlib.import_module(module)  # registers the subcommand
    root = ArgumentParserWithDefaults(prog="srl-zoo")
    subparsers = root.add_subparsers()
    parsers = {}
    for name, command in COMMANDS.items():
        parser = Subcommand.by_name(command.allennlp_name)().add_subparser(subparsers)
        parser.prog = f"srl-zoo {name}"
        if command.subcommand is None:  # allennlp's own (train, predict): its main adds this to their parsers
            parser.add_argument(
                "--include-package", action="append", default=[], help="another package whose parts to register"
            )
        parsers[name] = parser
    return parsers


def _cell(text: Optional[str]) -> str:
    return (text or "").replace("|", "\\|").replace("\n", " ").strip()


def _default(action: argparse.Action) -> str:
    if action.default in (None, False, argparse.SUPPRESS, "") or isinstance(action, argparse._StoreConstAction):
        return ""
    return f"`{action.default}`"


def _help(action: argparse.Action) -> str:
    text = action.help or ""
    # ArgumentParserWithDefaults appends " (default = X)", shown in its own column here
    text = text.split(" (default = ")[0]
    if action.choices:
        text = f"{text} (one of {', '.join(map(str, action.choices))})".strip()
    return _cell(text)


def command_section(name: str, parser: argparse.ArgumentParser) -> list[str]:
    """One command's usage, inputs and flags in Markdown."""
    usage = " ".join(parser.format_usage().split())[len("usage: ") :]
    lines = [f"## `srl-zoo {name}`", "", _cell(parser.description), "", f"    {usage}", ""]
    lines += ["| argument | default | what |", "|---|---|---|"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue  # help, and old spellings kept for scripts (e.g. --bf16 for --precision bfloat16)
        flag = ", ".join(f"`{option}`" for option in action.option_strings) or f"`{action.metavar or action.dest}`"
        lines.append(f"| {flag} | {_default(action)} | {_help(action)} |")
    return lines + ADDED_FLAGS.get(name, []) + [""]


def command_table() -> str:
    """The whole of `docs/commands.md`."""
    lines = [HEADER]
    for name, parser in command_parsers().items():
        lines += command_section(name, parser)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: Optional[list[str]] = None) -> None:
    generated_doc_main(__doc__ or "", "srl_zoo.commands.command_table", command_table, argv)


if __name__ == "__main__":
    main()
