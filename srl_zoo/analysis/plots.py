"""The error-analysis plots, drawn with matplotlib's Agg backend (no screen) and written atomically as PNG."""

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from srl_zoo.data.formats.io_utils import atomic_write  # noqa: E402

if TYPE_CHECKING:
    from srl_zoo.analysis.calibration import CalibrationBin

Scores = Mapping[str, float]


def _save(figure: "plt.Figure", path: str) -> None:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    with atomic_write(path, "wb") as handle:
        handle.write(buffer.getvalue())


def plot_label_scores(scores: Mapping[str, Scores], path: str) -> None:
    """Grouped bars of precision, recall and F1 per label (labels in the given order).

    # Parameters

    scores : `{label: {"precision", "recall", "f1", "gold"}}` in percent.
    """
    labels = list(scores)
    figure, axes = plt.subplots(figsize=(max(6.0, 0.55 * len(labels) + 1.5), 4.0))
    width = 0.27
    for offset, (key, color) in enumerate((("precision", "#9ecae1"), ("recall", "#fdae6b"), ("f1", "#31a354"))):
        axes.bar(
            [i + (offset - 1) * width for i in range(len(labels))],
            [scores[label][key] for label in labels],
            width,
            label=key,
            color=color,
        )
    axes.set_xticks(range(len(labels)))
    axes.set_xticklabels([f"{label}\n({int(scores[label]['gold'])})" for label in labels], fontsize=7)
    axes.set_ylim(0, 112)  # room for the legend above the bars
    axes.set_ylabel("%")
    axes.set_title("Scores per label (gold arguments in parentheses)")
    axes.legend(fontsize=8, ncol=3, loc="upper right")
    _save(figure, path)


def plot_confusion(matrix: Sequence[Sequence[int]], labels: Sequence[str], path: str) -> None:
    """Heatmap of role confusions on matching spans, each row (gold label) normalised to 1.

    # Parameters

    matrix : `(len(labels), len(labels))` counts, rows gold, columns predicted.
    """
    size = len(labels)
    normalised = [[count / max(1, sum(row)) for count in row] for row in matrix]
    figure, axes = plt.subplots(figsize=(0.5 * size + 2.5, 0.5 * size + 2.0))
    image = axes.imshow(normalised, cmap="Blues", vmin=0.0, vmax=1.0)
    axes.set_xticks(range(size))
    axes.set_yticks(range(size))
    axes.set_xticklabels(labels, rotation=90, fontsize=7)
    axes.set_yticklabels(labels, fontsize=7)
    axes.set_xlabel("predicted label")
    axes.set_ylabel("gold label")
    for row in range(size):
        for column in range(size):
            if matrix[row][column]:
                color = "white" if normalised[row][column] > 0.5 else "black"
                axes.text(column, row, str(matrix[row][column]), ha="center", va="center", fontsize=6, color=color)
    axes.set_title("Labels of arguments with gold boundaries")
    figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
    _save(figure, path)


def plot_bucket_scores(scores: Mapping[str, Scores], path: str, xlabel: str, title: str) -> None:
    """Precision, recall and F1 per bucket as lines, with the number of gold arguments under each tick."""
    buckets = list(scores)
    figure, axes = plt.subplots(figsize=(6.0, 3.8))
    for key, marker in (("precision", "^"), ("recall", "v"), ("f1", "o")):
        axes.plot(range(len(buckets)), [scores[b][key] for b in buckets], marker=marker, label=key)
    axes.set_xticks(range(len(buckets)))
    axes.set_xticklabels([f"{b}\n({int(scores[b]['gold'])})" for b in buckets], fontsize=8)
    axes.set_xlabel(xlabel + " (gold arguments in parentheses)")
    axes.set_ylabel("%")
    axes.set_ylim(0, 100)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8)
    axes.set_title(title)
    _save(figure, path)


def plot_oracle_steps(names: list[str], f1: list[float], path: str) -> None:
    """F1 after each cumulative oracle transformation."""
    figure, axes = plt.subplots(figsize=(7.0, 3.8))
    axes.plot(range(len(names)), f1, marker="o", color="#31a354")
    for position, value in enumerate(f1):
        axes.annotate(
            f"{value:.1f}", (position, value), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8
        )
    axes.set_xticks(range(len(names)))
    axes.set_xticklabels(names, rotation=25, ha="right", fontsize=8)
    axes.set_ylabel("F1 (%)")
    axes.set_ylim(min(f1) - 5, 102)
    axes.grid(alpha=0.3)
    axes.set_title("F1 after each oracle transformation (He et al., 2017), applied in sequence")
    _save(figure, path)


def plot_reliability(bins: Sequence["CalibrationBin"], path: str, title: str) -> None:
    """The reliability diagram: accuracy against mean score per bin, with the diagonal of perfect calibration."""
    figure, axes = plt.subplots(figsize=(4.6, 4.4))
    axes.plot([0, 1], [0, 1], linestyle="--", color="#888888", label="perfect calibration")
    filled = [b for b in bins if b.predictions]
    axes.bar(
        [(b.low + b.high) / 2 for b in filled],
        [b.accuracy for b in filled],
        width=[(b.high - b.low) * 0.9 for b in filled],
        color="#6baed6",
        edgecolor="#08519c",
        label="share right",
    )
    axes.plot([b.mean_score for b in filled], [b.accuracy for b in filled], "o", color="#08519c", markersize=3)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("argument score")
    axes.set_ylabel("share of arguments that are right")
    axes.set_title(title, fontsize=9)
    axes.legend(loc="upper left", fontsize=8)
    _save(figure, path)
