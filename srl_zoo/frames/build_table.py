"""Build the compact rolesets table from PropBank's frame files (`propbank/propbank-frames`, CC BY-SA 4.0).

    python -m srl_zoo.frames.build_table FRAMES_DIR OUT.json.gz --commit SHA

`FRAMES_DIR` is the repository's `frames/` folder (one `LEMMA.xml` per predicate lemma). `OUT` holds, as
gzipped JSON: `rolesets` (`approve.01` → `{"name": "assent to", "roles": {"ARG0": "approver", ...}}`),
`aliases` (a word → the rolesets it names, `approval` → `["approve.01"]`, the predicate lemma first) and
`source` (repository, commit, licence). Roles numbered `m` become `ARGM-<function tag>`.
"""

import argparse
import gzip
import json
import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

from srl_zoo.data.formats.io_utils import atomic_write

SOURCE = {
    "repository": "https://github.com/propbank/propbank-frames",
    "version": "frames 3.4",
    "licence": "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/)",
}


class FrameFileError(ValueError):
    """A frame file that cannot be read, naming the file."""


def role_name(role: ElementTree.Element) -> str:
    """`ARG0`.. for a numbered role, `ARGA` for `n="a"`, `ARGM-LOC` for `n="m" f="LOC"`."""
    number = role.get("n", "").strip()
    if number.lower() == "m":
        return f"ARGM-{role.get('f', '').strip().upper()}"
    return f"ARG{number.upper()}"


#: the annotated examples, which the table does not keep (a few upstream have mismatched tags)
EXAMPLE = re.compile(r"<example\b.*?</example>", re.DOTALL)


def read_frame_file(path: Path) -> tuple[dict[str, dict[str, Any]], list[tuple[str, str]]]:
    """The rolesets of one frame file and its (word, roleset) aliases; `FrameFileError` naming the file."""
    try:
        text = EXAMPLE.sub("", path.read_text(encoding="utf-8"))
        text = re.sub(r"<!DOCTYPE[^>]*>", "", text)  # its DTD lies online: never fetched
        root = ElementTree.fromstring(text.encode())
    except (ElementTree.ParseError, OSError, UnicodeDecodeError) as error:
        raise FrameFileError(f"{path}: {error}") from None
    rolesets: dict[str, dict[str, Any]] = {}
    aliases: list[tuple[str, str]] = []
    for predicate in root.iter("predicate"):
        lemma = predicate.get("lemma", "").strip()
        for roleset in predicate.iter("roleset"):
            roleset_id = roleset.get("id", "").strip()
            if not roleset_id:
                raise FrameFileError(f"{path}: a roleset of {lemma!r} has no id")
            roles = {
                role_name(role): " ".join(role.get("descr", "").split())
                for role in roleset.iter("role")
                if role.get("n") is not None
            }
            rolesets[roleset_id] = {"name": " ".join(roleset.get("name", "").split()), "roles": roles}
            if lemma:
                aliases.append((lemma.lower(), roleset_id))
            for alias in roleset.iter("alias"):
                word = " ".join((alias.text or "").split()).lower()
                if word:
                    aliases.append((word.replace(" ", "_"), roleset_id))
    return rolesets, aliases


def build_table(frames_dir: Path, commit: str) -> dict[str, Any]:
    """The table of every `*.xml` in `frames_dir` (files in name order, so the output is reproducible)."""
    files = sorted(frames_dir.glob("*.xml"))
    if not files:
        raise FrameFileError(f"{frames_dir}: no frame files (*.xml) here")
    rolesets: dict[str, dict[str, Any]] = {}
    aliases: dict[str, list[str]] = {}
    for path in files:
        file_rolesets, file_aliases = read_frame_file(path)
        rolesets.update(file_rolesets)
        for word, roleset_id in file_aliases:
            named = aliases.setdefault(word, [])
            if roleset_id not in named:
                named.append(roleset_id)
    return {"source": {**SOURCE, "commit": commit}, "rolesets": rolesets, "aliases": aliases}


def write_table(table: dict[str, Any], out: Path) -> None:
    """Gzipped compact JSON, written to a temporary file beside `out` and renamed."""
    payload = json.dumps(table, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    with atomic_write(str(out), "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as zipped:
        zipped.write(payload)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("frames_dir", type=Path, help="propbank-frames' frames/ folder")
    parser.add_argument("out", type=Path, help="the table to write (.json.gz)")
    parser.add_argument("--commit", required=True, help="the propbank-frames commit the files come from")
    args = parser.parse_args(argv)
    try:
        table = build_table(args.frames_dir, args.commit)
    except FrameFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    write_table(table, args.out)
    print(f"{args.out}: {len(table['rolesets'])} rolesets, {len(table['aliases'])} aliases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
