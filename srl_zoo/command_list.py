"""srl-zoo's commands, listed once: each command's name, what it reads, the allennlp subcommand that runs it and
the modules that define it. The usage text, the launcher's checks, the plugin's imports and the command reference
(`docs/commands.md`) are derived from this table. Standard library only: `srl-zoo --help` reads it before torch."""

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Command:
    """One srl-zoo command.

    # Parameters

    name : what is typed after `srl-zoo`.
    arguments : its arguments as the usage text shows them.
    summary : what it does, in one line.
    allennlp_name : the allennlp subcommand that runs it (`srl-label`; `train` and `predict` are allennlp's own).
    inputs : the names of the files it reads as its first positional arguments (checked before anything loads).
    subcommand : the module of `srl_zoo.commands` that registers `allennlp_name` (None: allennlp's own command).
    without_allennlp : the module of `srl_zoo.commands` that runs it without allennlp (`DESCRIPTION`,
        `add_arguments(parser)`, `run(args)`), or None where allennlp runs it.
    """

    name: str
    arguments: str
    summary: str
    allennlp_name: str
    inputs: tuple[str, ...] = ()
    subcommand: Optional[str] = None
    without_allennlp: Optional[str] = None


#: every command, in the order the usage text lists them
COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        Command(
            "label",
            "MODEL INPUT -o OUTPUT",
            "label plain text, JSONL or a CoNLL file, resumably",
            "srl-label",
            ("MODEL", "INPUT"),
            "srl_label",
            "corpus_labeling",
        ),
        Command(
            "evaluate",
            "MODEL GOLD_FILE",
            "score a model on a CoNLL-2005, 2012 or 2009 file (srl-eval.pl / eval09)",
            "srl-evaluate",
            ("MODEL", "GOLD_FILE"),
            "srl_evaluate",
        ),
        Command(
            "predict",
            "MODEL INPUT",
            "allennlp's predict: JSON lines in and out (no allennlp needed)",
            "predict",
            ("MODEL", "INPUT"),
        ),
        Command("train", "CONFIG -s DIR", "allennlp's train with srl_zoo loaded", "train", ("CONFIG",)),
        Command(
            "export", "MODEL OUTPUT", "a smaller archive for prediction only", "srl-export", ("MODEL",), "srl_export"
        ),
        Command(
            "neighbours",
            "TRAIN_FILE ...",
            "AMN's associated-sentence cache",
            "srl-neighbours",
            ("TRAIN_FILE",),
            "srl_neighbours",
        ),
        Command(
            "teach",
            "MODEL DATA_FILE -o OUT",
            "a teacher model's tag distributions, to distil it into another",
            "srl-teach",
            ("MODEL", "DATA_FILE"),
            "srl_teach",
        ),
        Command(
            "serve",
            "MODEL [--port 8000]",
            "an HTTP service and a page to label text in the browser",
            "srl-serve",
            ("MODEL",),
            "srl_serve",
            "serving_command",
        ),
        Command(
            "fetch",
            "mpnet",
            "download and build the accurate model's frozen encoder (404 MB, hash-checked)",
            "srl-fetch",
            (),
            "srl_fetch",
            "encoder_fetch",
        ),
    )
}

#: the width of a command's name and arguments in the usage text
_COLUMN = 31


def usage() -> str:
    """The usage text of `srl-zoo --help`."""
    listed = "\n".join(f"  {f'{c.name} {c.arguments}':{_COLUMN}}{c.summary}" for c in COMMANDS.values())
    return f"""\
usage: srl-zoo COMMAND [ARGUMENTS] [--verbose]

Semantic role labeling with srl_zoo models (an AllenNLP plugin).

commands:
{listed}

options:
  -h, --help       this list (`srl-zoo COMMAND --help` for a command's flags)
  --version        srl_zoo's version
  --verbose        (after COMMAND) allennlp's INFO log and the traceback of an error

Every flag of every command: docs/commands.md."""


def subcommand_modules() -> list[str]:
    """The modules that register srl_zoo's allennlp subcommands (`srl_zoo.plugin` imports them)."""
    return [f"srl_zoo.commands.{c.subcommand}" for c in COMMANDS.values() if c.subcommand is not None]
