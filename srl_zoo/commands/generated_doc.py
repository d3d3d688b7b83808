"""The command line of a generated Markdown page (`docs/commands.md`, `docs/configuration.md`): write it, or with
`--check` exit 1 when the file is not what would be written."""

import argparse
import sys
from collections.abc import Callable
from typing import Optional

from srl_zoo.data.formats.io_utils import atomic_write


def generated_doc_main(description: str, module: str, generate: Callable[[], str], argv: Optional[list[str]]) -> None:
    """Parse `argv` (`PATH [--check]`) and write `generate()` to PATH atomically, or check PATH against it.

    # Parameters

    description : the generator module's docstring (its help).
    module : the module to run again, named in the out-of-date message.
    generate : makes the page.
    argv : the arguments (default: the command line's).
    """
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", help="the Markdown file")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not what would be written")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        with open(args.path, encoding="utf-8") as handle:
            if handle.read() != text:
                sys.exit(f"{args.path} is out of date: run python -m {module} {args.path}")
        return
    with atomic_write(args.path) as handle:
        handle.write(text)
