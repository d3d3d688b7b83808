"""The leaderboard's outputs from the finished rows: a Markdown table with the budget on top and one
line per paper's claim under it, a JSON file with every figure, and a plot of dev F1 against speed."""

import dataclasses
import json
import os
import statistics
from typing import Any, Optional

from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.leaderboard.machine import processor_name
from srl_zoo.leaderboard.spec import Spec


def summarize(spec: Spec, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every figure: the budget, each row's seeds and their mean, and each claim's measured gain."""
    rows = []
    for row in spec.rows:
        seeds = [result for result in results if result["row"] == row.name]
        entry: dict[str, Any] = {"name": row.name, "group": row.group, "idea": row.idea, "config": row.config}
        entry["overrides"] = row.overrides
        entry["seeds_planned"] = spec.seeds(row)
        entry["results"] = seeds
        if seeds:
            f1s = [dev_f1(result) for result in seeds]
            entry["dev_f1"] = round(statistics.mean(f1s), 2)
            entry["dev_f1_spread"] = round(max(f1s) - min(f1s), 2) if len(f1s) > 1 else None
            ends = [result["dev_f1_end_to_end"]["srl_zoo"] for result in seeds if result["dev_f1_end_to_end"]]
            entry["dev_f1_end_to_end"] = round(statistics.mean(ends), 2) if ends else None
            for key in ("training_minutes", "tokens_per_s_float32", "tokens_per_s_bfloat16", "peak_rss_mib"):
                values = [result[key] for result in seeds if result.get(key) is not None]
                entry[key] = round(statistics.mean(values), 1) if values else None
            for key in ("epochs", "parameters", "archive_mib"):
                entry[key] = seeds[0][key]
        rows.append(entry)
    by_name = {entry["name"]: entry for entry in rows}
    claims = []
    for claim in spec.claims:
        on, off = by_name[claim.on].get("dev_f1"), by_name[claim.off].get("dev_f1")
        gain = round(on - off, 2) if on is not None and off is not None else None
        claims.append({**dataclasses.asdict(claim), "measured_gain": gain})
    machine = {"processor": processor_name(), "cpus": os.cpu_count()}
    return {
        "title": spec.title,
        "budget": dataclasses.asdict(spec.budget),
        "machine": machine,
        "notes": spec.notes,
        "rows": rows,
        "claims": claims,
    }


def measured_on(rows: list[dict[str, Any]]) -> list[str]:
    """One line per processor with the finished rows (and their seeds) measured on it; results scored before
    the processor was recorded are listed as such."""
    by_processor: dict[str, list[str]] = {}
    for row in rows:
        seeds: dict[str, list[str]] = {}
        for result in row["results"]:
            processor = result.get("processor") or "not recorded (scored before the processor was)"
            seeds.setdefault(processor, []).append(str(result["seed"]))
        for processor, names in seeds.items():
            which = "" if len(names) == len(row["results"]) else f" (seed {', '.join(names)})"
            by_processor.setdefault(processor, []).append(f"`{row['name']}`{which}")
    return [f"- {processor}: {', '.join(names)}" for processor, names in by_processor.items()]


def dev_f1(result: dict[str, Any]) -> float:
    """srl-eval.pl's dev F1 where it ran, else srl_zoo's (the same metric)."""
    scores = result["dev_f1"]
    return scores["srl_eval"] if scores["srl_eval"] is not None else scores["srl_zoo"]


def _cell(value: Optional[float], digits: int = 1) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


def markdown(summary: dict[str, Any], plot_name: Optional[str]) -> str:
    """The table, the budget above it and the claims below it."""
    budget = summary["budget"]
    data = f"the first {budget['train_sentences']:,} sentences of" if budget["train_sentences"] else "all of"
    lines = [
        f"# {summary['title']}",
        "",
        "Made by `python scripts/leaderboard.py` (do not edit by hand: rerun it). **One budget for every row:** "
        f"{budget['epochs']} epochs on {data} `{budget['train']}`, scored on `{budget['dev']}` "
        f"({budget['format']}), seeds {', '.join(map(str, budget['seeds']))} (more where a row lists them), "
        f"{budget['threads']} torch thread(s) for training and for the speed (the processor of each row's speed "
        f"is listed under the table; this table was written on {summary['machine']['processor']}, "
        f"{summary['machine']['cpus']} CPUs).",
        *[f"\n{note}" for note in summary.get("notes", [])],
        "",
        "Dev F1: srl-eval.pl with gold predicates (srl_zoo's metric gives the same), the mean over the row's "
        "seeds; ± the spread (max − min) where it ran with two or more. End to end: srl_zoo's F1 with the "
        "model's own predicates. Train min: training and validation time of the epochs kept (summed over the "
        "runs of a row resumed after a kill). Tokens/s: prediction of the first "
        f"{budget['speed_sentences']} dev sentences at their gold predicates, float32 and bfloat16 autocast "
        "measured alternately in one process (best of two). Peak RSS: the scoring process (loading, "
        "evaluating, measuring).",
        "",
        "| group | row | idea | dev F1 | end to end | train min | epochs | tokens/s fp32 | tokens/s bf16 "
        "| peak RSS MiB | params M | archive MiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    waiting = []
    for row in summary["rows"]:
        if "dev_f1" not in row:
            waiting.append(row["name"])
            continue
        f1 = _cell(row["dev_f1"], 2) + (f" ± {row['dev_f1_spread']:.2f}" if row["dev_f1_spread"] is not None else "")
        lines.append(
            f"| {row['group']} | {row['name']} | {row['idea']} | {f1} | {_cell(row['dev_f1_end_to_end'], 2)} "
            f"| {_cell(row['training_minutes'])} | {row['epochs']} | {_cell(row['tokens_per_s_float32'], 0)} "
            f"| {_cell(row['tokens_per_s_bfloat16'], 0)} | {_cell(row['peak_rss_mib'], 0)} "
            f"| {row['parameters'] / 1e6:.1f} | {_cell(row['archive_mib'])} |"
        )
    failures = [
        f"- `{row['name']}` (seed {result['seed']}) could not predict in {precision} on "
        f"{result.get('processor', 'its machine')}: {error}"
        for row in summary["rows"]
        for result in row["results"]
        for precision, error in result.get("speed_failures", {}).items()
    ]
    if failures:
        lines += ["", "A — in a speed column:", *failures]
    lines += ["", "Speeds measured on:", *measured_on(summary["rows"])]
    if waiting:
        lines += ["", f"Not run yet ({len(waiting)}): {', '.join(waiting)}."]
    if summary["claims"]:
        lines += ["", "## Does each paper's claim hold here?", ""]
        for claim in summary["claims"]:
            gain = claim["measured_gain"]
            measured = f"{gain:+.2f} F1" if gain is not None else "not measured yet"
            lines.append(
                f"- **{claim['paper']}**, {claim['idea']}: reported {claim['reported']}; here "
                f"`{claim['on']}` − `{claim['off']}` = {measured}."
            )
    if plot_name:
        lines += ["", f"![dev F1 against float32 prediction speed]({plot_name})"]
    return "\n".join(lines) + "\n"


def plot(summary: dict[str, Any], path: str) -> bool:
    """Dev F1 against float32 tokens/s, one labeled point per finished row; False if none is finished."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [row for row in summary["rows"] if "dev_f1" in row]
    if not rows:
        return False
    figure, axes = plt.subplots(figsize=(8, 5))
    for row in rows:
        axes.scatter(row["tokens_per_s_float32"], row["dev_f1"], s=30)
        axes.annotate(
            row["name"],
            (row["tokens_per_s_float32"], row["dev_f1"]),
            fontsize=8,
            xytext=(4, 3),
            textcoords="offset points",
        )
    axes.set_xlabel("prediction tokens/s, float32, one thread")
    axes.set_ylabel("dev F1 (gold predicates)")
    axes.set_title(summary["title"])
    axes.grid(alpha=0.3)
    figure.tight_layout()
    with atomic_write(path, "wb") as handle:
        figure.savefig(handle, format="png", dpi=110)
    plt.close(figure)
    return True


def write_outputs(summary: dict[str, Any], prefix: str) -> list[str]:
    """`PREFIX.md`, `PREFIX.json` and (once a row is finished) `PREFIX.png`; the paths written."""
    written = []
    plot_path = prefix + ".png"
    has_plot = plot(summary, plot_path)
    if has_plot:
        written.append(plot_path)
    with atomic_write(prefix + ".json") as handle:
        json.dump(summary, handle, indent=2)
    with atomic_write(prefix + ".md") as handle:
        handle.write(markdown(summary, os.path.basename(plot_path) if has_plot else None))
    return [prefix + ".md", prefix + ".json"] + written
