"""The `srl-zoo` command line read before anything heavy loads: the usage text, `--version`, an unknown command, a
missing model or input file, a `predict` input line that is not JSON are answered here in milliseconds, without
importing torch; the rest becomes an `Invocation` that `srl_zoo.cli.run` runs (standard library only)."""

import importlib.metadata
import json
import os
import sys
from dataclasses import dataclass
from typing import Optional

from srl_zoo.command_list import COMMANDS, usage

#: what `--precision auto` chooses, printed by `--version` (decided in srl_zoo.nn.precision.precision_choice)
AUTO_PRECISION = (
    "--precision auto: the fastest precision the machine runs natively that the model's archive records within "
    "0.1 F1 of float32 (on a CPU int8 with srl_zoo's openvino or onnx extra, then bfloat16 with AVX-512 BF16 or AMX; "
    "on a GPU "
    "bfloat16), else float32"
)


def version() -> str:
    """srl_zoo's installed version."""
    try:
        return importlib.metadata.version("srl_zoo")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def missing_input(argv: list[str]) -> Optional[str]:
    """The one-line error for a command whose model or input file does not exist (or is a directory
    where a file is read), else None. Only the leading positional arguments are checked (options
    first: allennlp checks them later); `label --ray` reads a folder or a URI too, which its run checks."""
    names = COMMANDS[argv[0]].inputs if argv[0] in COMMANDS else ()
    given = argv[1 : 1 + len(names)]
    if len(given) < len(names) or any(value.startswith("-") for value in given):
        return None
    on_ray = argv[0] == "label" and option_given(argv, "--ray")
    for name, path in zip(names, given, strict=False):
        if on_ray and name == "INPUT":  # a file, a folder or a URI: the run on Ray plans it and says what is wrong
            continue
        if not os.path.exists(path):
            return f"srl-zoo {argv[0]}: {name} {path!r} does not exist (nothing was written)"
        if os.path.isdir(path) and not (name == "MODEL" and os.path.exists(os.path.join(path, "config.json"))):
            return f"srl-zoo {argv[0]}: {name} {path!r} is a directory, not a file (nothing was written)"
    return None


def option_given(argv: list[str], name: str) -> bool:
    """Whether the option `name` is in `argv`, with or without a value (`--ray`, `--ray ADDRESS`, `--ray=ADDRESS`)."""
    return any(argument == name or argument.startswith(name + "=") for argument in argv)


def option_value(argv: list[str], *names: str) -> Optional[str]:
    """The value of the first of `names` given in `argv` (`--name VALUE` or `--name=VALUE`), else None."""
    for position, argument in enumerate(argv):
        for name in names:
            if argument == name and position + 1 < len(argv):
                return argv[position + 1]
            if argument.startswith(name + "="):
                return argument.split("=", 1)[1]
    return None


def bad_jsonl_line(argv: list[str]) -> Optional[str]:
    """For `predict` on JSON lines (not `--use-dataset-reader`): the one-line error for the first line of
    INPUT that is not a JSON object, else None; checked before the model loads and anything is written."""
    if argv[0] != "predict" or "--use-dataset-reader" in argv or len(argv) < 3 or argv[2].startswith("-"):
        return None
    path = argv[2]
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line.rstrip("\r\n"))
                except json.JSONDecodeError as error:
                    where = f"{error.msg} at column {error.colno}"
                    return f"srl-zoo predict: {path}:{number}: not valid JSON: {where} (nothing was written)"
                if not isinstance(value, dict):
                    return f"srl-zoo predict: {path}:{number}: expected a JSON object (nothing was written)"
    except UnicodeDecodeError as error:
        return f"srl-zoo predict: {path}: not UTF-8 text ({error.reason}) (nothing was written)"
    return None


def allennlp_arguments(argv: list[str]) -> list[str]:
    """The allennlp command line for srl-zoo's `argv` (without the program name): the subcommand's
    allennlp name; `--verbose` kept for srl_zoo's own subcommands, which take it, and dropped for
    allennlp's; `predict --precision P` passed to the predictor as its `precision` argument; `train` with
    `--include-package srl_zoo`, so that a distributed run's worker processes have srl_zoo's parts too."""
    arguments = list(argv)
    if arguments and arguments[0] in COMMANDS:
        arguments[0] = COMMANDS[arguments[0]].allennlp_name
    if not arguments or not arguments[0].startswith("srl-"):
        arguments = [argument for argument in arguments if argument != "--verbose"]
    if arguments and arguments[0] == "predict":
        arguments = _predictor_precision(arguments)
    if arguments and arguments[0] == "train" and option_value(arguments, "--include-package") != "srl_zoo":
        # the workers of a distributed run start afresh and import only what --include-package names
        arguments += ["--include-package", "srl_zoo"]
    return arguments


def _predictor_precision(arguments: list[str]) -> list[str]:
    """`--precision P` (or `--precision=P`) of `srl-zoo predict` as `--predictor-args '{"precision": P}'`,
    merged into predictor arguments given already."""
    precision = None
    kept: list[str] = []
    rest = iter(arguments)
    for argument in rest:
        if argument == "--precision":
            precision = next(rest, None)
        elif argument.startswith("--precision="):
            precision = argument.split("=", 1)[1]
        else:
            kept.append(argument)
    if precision is None:
        return kept
    if "--predictor-args" in kept:
        position = kept.index("--predictor-args") + 1
        given = json.loads(kept[position]) if position < len(kept) else {}
        kept[position] = json.dumps({**given, "precision": precision})
        return kept
    return kept + ["--predictor-args", json.dumps({"precision": precision})]


@dataclass(frozen=True)
class Invocation:
    """One srl-zoo command as `srl_zoo.cli.run` needs it, read from the command line here.

    # Parameters

    command : srl-zoo's name of the command (`label`, `train`, ...).
    allennlp_argv : the allennlp command line that runs it (`allennlp_arguments`).
    verbose : `--verbose`: allennlp's INFO log and the traceback of an error.
    cuda_device : `--cuda-device`'s value, if given.
    output_file : `predict`'s `--output-file`, removed again if a new one is left partial by a failure.
    """

    command: str
    allennlp_argv: list[str]
    verbose: bool
    cuda_device: Optional[str]
    output_file: Optional[str]

    @classmethod
    def read(cls, argv: list[str]) -> "Invocation":
        """The invocation of `argv` (without the program name, its command checked by `answer_without_loading`)."""
        command = argv[0]
        return cls(
            command=command,
            allennlp_argv=allennlp_arguments(argv),
            verbose="--verbose" in argv,
            cuda_device=option_value(argv, "--cuda-device"),
            output_file=option_value(argv, "--output-file") if command == "predict" else None,
        )


def answer_without_loading(argv: list[str]) -> Optional[int]:
    """Answer `argv` here if it needs no model: the exit status, or None to go on to `srl_zoo.cli`."""
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    if argv[0] == "--version":
        print(f"srl-zoo {version()}\n{AUTO_PRECISION}")
        return 0
    if argv[0] not in COMMANDS:
        print(f"srl-zoo: unknown command {argv[0]!r}; choose one of {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    problem = missing_input(argv) or bad_jsonl_line(argv)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    return None
