"""`python -m benchmarks NAME [ARGS]`: run one benchmark (a module or a shell script of this folder) with its
arguments; with no name, list them with the first line of what each measures."""

import ast
import os
import runpy
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
#: files of this folder that are not benchmarks
NOT_BENCHMARKS = {"__init__.py", "__main__.py", "alternating_runs.py", "arguments.py", "timing.py"}


def benchmarks() -> dict[str, str]:
    """Each benchmark's name and its file (`speed` -> `speed.py`, `gpu` -> `gpu.sh`)."""
    found = {}
    for name in sorted(os.listdir(HERE)):
        stem, extension = os.path.splitext(name)
        if extension in (".py", ".sh") and name not in NOT_BENCHMARKS:
            found[stem] = name
    return found


def summary(file: str) -> str:
    """The first line of a benchmark's docstring (Python) or of its header comment (shell)."""
    if file.endswith(".sh"):
        comments = header_comment(file)
        return comments[0] if comments else ""
    with open(os.path.join(HERE, file), encoding="utf-8") as handle:
        docstring = ast.get_docstring(ast.parse(handle.read())) or ""
    return docstring.splitlines()[0] if docstring else ""


def header_comment(file: str) -> list[str]:
    """The comment lines after a shell script's first line, up to its first other line."""
    with open(os.path.join(HERE, file), encoding="utf-8") as handle:
        lines = handle.read().splitlines()[1:]
    comments = []
    for line in lines:
        if not line.startswith("#"):
            break
        comments.append(line[2:] if line.startswith("# ") else line[1:])
    return comments


def main(argv: list[str]) -> int:
    found = benchmarks()
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m benchmarks NAME [ARGS]   (NAME --help: its arguments)\n")
        for name, file in found.items():
            print(f"  {name:<16} {summary(file)}")
        return 0
    name, arguments = argv[0], argv[1:]
    if name not in found:
        print(f"python -m benchmarks: no benchmark {name!r}; there are: {', '.join(found)}", file=sys.stderr)
        return 2
    file = found[name]
    if file.endswith(".sh"):
        if arguments in (["-h"], ["--help"]):  # a script's usage is its header comment
            print("\n".join(header_comment(file)))
            return 0
        return subprocess.call(["bash", os.path.join(HERE, file), *arguments])
    sys.argv = [f"python -m benchmarks {name}", *arguments]
    runpy.run_module(f"benchmarks.{name}", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
