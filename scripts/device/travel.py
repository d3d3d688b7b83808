"""What travels to a lent GPU machine, and the staging that makes it fit (docs/gpu.md).

The device tool copies the checkout's tracked and untracked-not-ignored files plus the carried folders,
at most 64 MiB. The call needs the carried `.whl` (allennlp's wheelhouse), `.gpu` (MiniLM in bfloat16,
its commit) and AMN's training neighbours, not the three shipped archives (51 MB), the docs or the tests, which it
never reads.

    python scripts/device/travel.py size [PATH ...]   # what would travel (carrying PATHs, default the MiniLM call's)
    python scripts/device/travel.py copy DEST [PATH ...]  # a copy of exactly that (the rehearsal runs in it)
    python scripts/device/travel.py stage         # untrack and ignore the archives for the call (git index only)
    python scripts/device/travel.py unstage       # track them again, as before
"""

import os
import shutil
import subprocess
import sys

CARRIED = (".whl", ".gpu", "data/ewt/conll2009/train.txt.gz.amn-neighbours.json")
LEFT_BEHIND = (
    "models/ewt-english.tar.gz",
    "models/ewt-english-glove.tar.gz",
    "models/ewt-english-accurate.tar.gz",
    "docs/",
    "tests/",
)
LIMIT_MIB = 60
EXCLUDE = ".git/info/exclude"


def git(*arguments: str) -> str:
    return subprocess.run(["git", *arguments], capture_output=True, text=True, check=True).stdout


def travelling_files(carried_paths: tuple[str, ...] = CARRIED) -> list[str]:
    """The files the device tool would copy once the archives are left behind, carried folders included."""
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    files = [path for path in listed if path and not left_behind(path) and os.path.isfile(path)]
    for carried in carried_paths:
        if os.path.isfile(carried):
            files.append(carried)
        for directory, _, names in os.walk(carried):
            files.extend(os.path.join(directory, name) for name in names)
    return sorted(set(files))


def left_behind(path: str) -> bool:
    return any(path == kept or (kept.endswith("/") and path.startswith(kept)) for kept in LEFT_BEHIND)


def size_mib(files: list[str]) -> float:
    return sum(os.path.getsize(path) for path in files) / 2**20


def check_size(carried_paths: tuple[str, ...] = CARRIED) -> list[str]:
    files = travelling_files(carried_paths)
    mib = size_mib(files)
    print(f"{len(files)} files, {mib:.1f} MiB would travel (limit {LIMIT_MIB} MiB here, 64 MiB for the tool)")
    for carried in carried_paths:
        if not os.path.exists(carried):
            sys.exit(f"travel: {carried} is missing: run `make gpu-call-files` first")
    if mib > LIMIT_MIB:
        sys.exit(f"travel: {mib:.1f} MiB is above {LIMIT_MIB} MiB")
    return files


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else "size"
    if command == "size":
        check_size(tuple(sys.argv[2:]) or CARRIED)
    elif command == "copy":
        destination = sys.argv[2]
        for path in check_size(tuple(sys.argv[3:]) or CARRIED):
            target = os.path.join(destination, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(path, target)
    elif command == "stage":
        with open(EXCLUDE, "a", encoding="utf-8") as handle:
            handle.writelines(f"/{path}\n" for path in LEFT_BEHIND)
        git("rm", "-r", "--cached", "--quiet", *LEFT_BEHIND)
        os.makedirs(".gpu", exist_ok=True)  # the accurate call's staging comes before any MiniLM call files
        with open(os.path.join(".gpu", "commit.txt"), "w", encoding="utf-8") as handle:
            handle.write(git("rev-parse", "HEAD").strip() + "\n")
        check_size()
    elif command == "unstage":
        with open(EXCLUDE, encoding="utf-8") as handle:
            kept = [line for line in handle if line.strip()[1:] not in LEFT_BEHIND]
        with open(EXCLUDE, "w", encoding="utf-8") as handle:
            handle.writelines(kept)
        git("add", *LEFT_BEHIND)
        print(git("status", "--short", "models", "docs", "tests"), end="")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
