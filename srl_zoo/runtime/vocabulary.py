"""An archive's vocabulary folder read without allennlp: one file per namespace, one token per line; a padded
namespace (any not named in `non_padded_namespaces.txt`) has padding at index 0 and its file starts at 1."""

import fnmatch
import os

from srl_zoo.archive_files import ArchiveError

#: allennlp's spelling of a newline inside a token in its vocabulary files
NEWLINE = "@@NEWLINE@@"
PADDING = "@@PADDING@@"


def read_vocabulary(directory: str) -> dict[str, dict[int, str]]:
    """`{namespace: {index: token}}` of the vocabulary folder `directory` (an archive's `vocabulary/`)."""
    listed = os.path.join(directory, "non_padded_namespaces.txt")
    if not os.path.isfile(listed):
        raise ArchiveError(directory, "no vocabulary here (non_padded_namespaces.txt is missing)")
    with open(listed, encoding="utf-8") as handle:
        non_padded = [line.strip() for line in handle if line.strip()]
    namespaces: dict[str, dict[int, str]] = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".txt") or name == "non_padded_namespaces.txt":
            continue
        namespace = name[: -len(".txt")]
        with open(os.path.join(directory, name), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        padded = not any(fnmatch.fnmatchcase(namespace, pattern) for pattern in non_padded)
        tokens = ([PADDING] if padded else []) + [line.replace(NEWLINE, "\n") for line in lines]
        namespaces[namespace] = dict(enumerate(tokens))
    return namespaces
