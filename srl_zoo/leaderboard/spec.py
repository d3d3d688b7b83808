"""A leaderboard's spec: the budget every row shares, the rows (a config each), and the papers' claims
to check (a row with the idea on against one with it off)."""

import json
from dataclasses import dataclass, field
from typing import Any, Optional


class SpecError(ValueError):
    """A spec that cannot be run: the message names the file and the field."""


@dataclass(frozen=True)
class Budget:
    """What every row gets: epochs, seeds, torch threads, data (train, dev, their format and an optional
    first-N-sentences cut of train), and how many dev sentences the speed is measured on."""

    epochs: int
    train: str
    dev: str
    format: str = "conll2012"
    seeds: list[int] = field(default_factory=lambda: [13370])
    threads: int = 1
    train_sentences: Optional[int] = None
    speed_sentences: int = 500


@dataclass(frozen=True)
class Row:
    """One entry: a training config (and overrides) under a name, in a group of comparable rows; `seeds`
    (default: the budget's) lets the top rows run with a second seed. `peer` makes it another package's
    model (`srl_zoo.leaderboard.peers`): `{package: the module its config needs, path: the directory
    beside the venv that holds it}`."""

    name: str
    config: str
    group: str = ""
    idea: str = ""
    overrides: dict[str, Any] = field(default_factory=dict)
    seeds: Optional[list[int]] = None
    peer: Optional[dict[str, str]] = None


@dataclass(frozen=True)
class Claim:
    """A paper's reported gain for an idea, checked as row `on` minus row `off` here."""

    paper: str
    idea: str
    reported: str
    on: str
    off: str


@dataclass(frozen=True)
class Spec:
    title: str
    budget: Budget
    rows: list[Row]
    claims: list[Claim]
    notes: list[str] = field(default_factory=list)  # printed under the budget, e.g. how the machine was used

    def row(self, name: str) -> Row:
        for row in self.rows:
            if row.name == name:
                return row
        raise SpecError(f"no row named {name!r}; the rows are {[r.name for r in self.rows]}")

    def seeds(self, row: Row) -> list[int]:
        return row.seeds or self.budget.seeds


def load_spec(path: str) -> Spec:
    """The spec in `path` (JSON or jsonnet); `SpecError` naming the file and the field that is wrong."""
    try:
        if path.endswith(".jsonnet"):
            import _jsonnet

            value = json.loads(_jsonnet.evaluate_file(path))
        else:
            with open(path, encoding="utf-8") as handle:
                value = json.load(handle)
    except (OSError, RuntimeError, json.JSONDecodeError) as error:
        raise SpecError(f"{path}: cannot read the spec: {error}") from None
    try:
        budget = Budget(**value["budget"])
        rows = [Row(**row) for row in value["rows"]]
        claims = [Claim(**claim) for claim in value.get("claims", [])]
    except KeyError as error:
        raise SpecError(f"{path}: missing field {error}") from None
    except TypeError as error:
        raise SpecError(f"{path}: {error}") from None
    if budget.epochs < 1:
        raise SpecError(f"{path}: budget.epochs must be at least 1, got {budget.epochs}")
    names = [row.name for row in rows]
    if len(set(names)) != len(names) or not all(names):
        raise SpecError(f"{path}: row names must be unique and non-empty: {names}")
    for row in rows:
        if row.peer is not None and set(row.peer) != {"package", "path"}:
            raise SpecError(f"{path}: row {row.name!r}: peer needs exactly the fields package and path, got {row.peer}")
    for claim in claims:
        for name in (claim.on, claim.off):
            if name not in names:
                raise SpecError(f"{path}: claim {claim.idea!r} names row {name!r}, which the spec does not have")
    return Spec(value.get("title", "Leaderboard"), budget, rows, claims, list(value.get("notes", [])))
