"""The arguments the benchmarks of an archived model share: the archive and the data it labels."""

import argparse
from typing import Optional


def archive_parser(description: Optional[str]) -> argparse.ArgumentParser:
    """A parser with the benchmark's docstring as its help, `archive` (a model.tar.gz) and `data` (a CoNLL file)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", help="the model (model.tar.gz)")
    parser.add_argument("data", help="the sentences to label (a CoNLL-2005, 2012 or 2009 file)")
    return parser
