"""Quiet srl_zoo subcommands: results, progress bars and warnings, not allennlp's INFO log, unless `--verbose`."""

import argparse
import functools
import logging
import sys
from collections.abc import Callable

from tqdm import tqdm

Run = Callable[[argparse.Namespace], None]


def add_verbosity(subparser: argparse.ArgumentParser, run: Run) -> None:
    """Give `subparser` a `--verbose` flag and make it call `run` with INFO logging only when given."""
    subparser.prog = short_prog(subparser.prog)
    subparser.add_argument("--verbose", action="store_true", help="allennlp's INFO log, and the traceback of an error")
    subparser.set_defaults(func=functools.partial(_run_quietly, run))


def short_prog(prog: str) -> str:
    """`srl-zoo label` for `srl-zoo srl-label` (the command as typed); `allennlp srl-label` stays."""
    return prog.replace("srl-zoo srl-", "srl-zoo ", 1)


def _run_quietly(run: Run, args: argparse.Namespace) -> None:
    if not args.verbose:
        logging.getLogger().setLevel(logging.WARNING)
    run(args)


class _AboveTheBar(logging.Handler):
    """Writes each record on a line of its own above a tqdm progress bar, as `%(message)s` alone."""

    def emit(self, record: logging.LogRecord) -> None:
        tqdm.write(self.format(record), file=sys.stderr)


def plain_lines_above_the_bar(logger_name: str) -> None:
    """Make `logger_name`'s records plain lines (`FILE:LINE: reason`) above the progress bar instead of
    log lines glued onto it."""
    handler = _AboveTheBar()
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    logger.propagate = False
