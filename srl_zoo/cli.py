"""The `srl-zoo` console script (`main`; also `python -m srl_zoo` and `python -m srl_zoo.cli`): help, version,
unknown commands and missing files are answered without loading torch (`srl_zoo.command_line`); then `label`,
`serve` and `fetch` run without allennlp (the table's `without_allennlp` modules), every other command with the
plugin loaded and the command line handed to allennlp; expected failures are told in one line
(`srl_zoo.commands.expected_errors`).

`allennlp` lists its subcommands before it reads `--include-package`, so `allennlp srl-label` works
only where a `.allennlp_plugins` file names srl_zoo; `srl-zoo` imports srl_zoo first and then hands
the command line to allennlp. It prints results, progress bars and warnings; `--verbose` brings back
allennlp's INFO log and the traceback of an error.
"""

import logging
import os
import sys
import warnings
from typing import Optional

from srl_zoo.command_line import Invocation, answer_without_loading
from srl_zoo.command_list import COMMANDS

#: what allennlp says on every run that needs no action from an srl_zoo user
NOISE = (
    "You provided a validation dataset but patience was set to None",
    "Encountered the loss key in the model's return dictionary which couldn't be split",  # predicting
)


def quiet_allennlp() -> None:
    """srl-zoo without --verbose: allennlp's train sets up its own logging at ALLENNLP_LOG_LEVEL
    (WARNING here, so its INFO lines stay away), and warnings every run repeats are dropped: early
    stopping being off, a loss it cannot split by sentence while predicting, and allennlp's use of the
    deprecated `torch.cuda.amp.autocast`."""
    os.environ.setdefault("ALLENNLP_LOG_LEVEL", "WARNING")
    for name in ("allennlp.training.gradient_descent_trainer", "allennlp.models.model"):
        logging.getLogger(name).addFilter(lambda record: not record.getMessage().startswith(NOISE))
    warnings.filterwarnings("ignore", message=r".*torch\.cuda\.amp\.autocast", category=FutureWarning)


def cuda_problem(command: str, value: Optional[str]) -> Optional[str]:
    """The one-line error for `--cuda-device N` (`value`, N >= 0) of `command` on a machine without a usable
    GPU, else None."""
    if value is not None and value.lstrip("-").isdigit() and int(value) >= 0:
        import torch

        if not torch.cuda.is_available():
            return f"srl-zoo {command}: --cuda-device {value} asked for a GPU, but torch sees none here: leave it out"
        if int(value) >= torch.cuda.device_count():
            return f"srl-zoo {command}: --cuda-device {value}: this machine has {torch.cuda.device_count()} GPU(s)"
    return None


def main(argv: Optional[list[str]] = None) -> None:
    """The `srl-zoo` console script (`argv` defaults to the process's arguments)."""
    argv = sys.argv[1:] if argv is None else argv
    status = answer_without_loading(argv)
    if status is not None:
        sys.exit(status)
    run(Invocation.read(argv))


def run(invocation: Invocation) -> None:
    """Run one srl-zoo command, read from the command line (`srl_zoo.command_line.Invocation`)."""
    command = invocation.command
    level = logging.INFO if invocation.verbose else logging.WARNING
    if not invocation.verbose:
        quiet_allennlp()
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=level)
    problem = cuda_problem(command, invocation.cuda_device)
    if problem:
        print(problem, file=sys.stderr)
        sys.exit(2)
    from srl_zoo.commands.expected_errors import one_line

    output = invocation.output_file
    new_output = output is not None and not os.path.exists(output)
    try:
        if COMMANDS[command].without_allennlp is not None:
            run_without_allennlp(command, invocation.allennlp_argv[1:])
        elif not (command == "predict" and predicted_without_allennlp(invocation.allennlp_argv)):
            run_through_allennlp(invocation.allennlp_argv)
    except KeyboardInterrupt:
        print(
            f"srl-zoo {command}: interrupted (a label or train run resumes when the same command is run again)",
            file=sys.stderr,
        )
        sys.exit(130)
    except Exception as error:
        message = one_line(error)
        if message is None or invocation.verbose:
            raise
        if new_output and output is not None and os.path.exists(output):
            os.remove(output)  # predict writes as it goes: a failed run leaves no partial output
        print(f"srl-zoo {command}: {message}", file=sys.stderr)
        sys.exit(1)


def run_without_allennlp(command: str, arguments: list[str]) -> None:
    """`srl-zoo COMMAND ARGUMENTS` for a command the table runs without allennlp: parsed and run by its module,
    which imports allennlp only for an archive the runtime does not build (the allennlp subcommands `srl-label`,
    `srl-serve` and `srl-fetch` wrap the same module)."""
    import importlib

    from srl_zoo.commands.command_modules import OneLineParser, command_parser

    module = importlib.import_module(f"srl_zoo.commands.{COMMANDS[command].without_allennlp}")
    parser = command_parser(OneLineParser(prog=f"srl-zoo {command}"), module)
    args = parser.parse_args(arguments)
    args.func(args)


def predicted_without_allennlp(allennlp_argv: list[str]) -> bool:
    """`srl-zoo predict` run by the runtime's labeler (`srl_zoo.commands.runtime_prediction`) where it serves the
    command line and builds the archive; False where allennlp is to run it."""
    from srl_zoo.commands.runtime_prediction import predict, predict_arguments

    args = predict_arguments(allennlp_argv)
    return args is not None and predict(args)


def run_through_allennlp(allennlp_argv: list[str]) -> None:
    """Any other command: the plugin loaded and the command line handed to allennlp's `main`."""
    from srl_zoo.dependencies import check_dependencies

    check_dependencies()  # a runtime-only install (`pip install .`) has no allennlp: say so in one line
    from allennlp.commands import main as allennlp_main

    import srl_zoo.plugin  # noqa: F401  (registers the subcommands and every component)

    sys.argv = ["srl-zoo"] + allennlp_argv
    allennlp_main(prog="srl-zoo")


if __name__ == "__main__":  # `python -m srl_zoo.cli COMMAND ...`: the console script's path
    main()
