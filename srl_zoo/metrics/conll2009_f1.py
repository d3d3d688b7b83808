"""CoNLL-2009 semantic scoring with the semantics of the shared task's eval09.pl (Hajič et al. 2009).

Semantic dependencies of a sentence:
- each predicate is a dependency from a virtual root to the predicate, labeled with its sense (only
  the part after the last dot is compared, and numeric senses compare as numbers: `come.01` =
  `come.1` = `01`);
- each argument is a dependency (predicate position, argument head position, role); a cell with
  several labels (`A0|A1`) gives one dependency per label.
Labeled precision/recall count both kinds, so a missed or spurious predicate brings its sense and
all its arguments into the denominators. Unlabeled scores drop the labels (a found predicate is a
correct unlabeled sense dependency). A proposition (a predicate with its sense and all its
arguments) is exactly right or not: proposition precision/recall over predicted/gold predicates.
"""

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from allennlp.training.metrics import Metric

from srl_zoo.config_fit import ConfigNeed, reads_head_words
from srl_zoo.data.formats import SrlFrame
from srl_zoo.metrics.distributed import sum_over_workers
from srl_zoo.metrics.srl_span_f1 import precision_recall_f1

SENSE = "sense"  # the label under which per-label figures report the predicate senses


def normalized_sense(sense: str) -> str:
    """The compared part of a sense: after the last dot, numbers as numbers (`come.01` -> `1`)."""
    suffix = sense.rsplit(".", 1)[-1] if sense else ""
    return str(int(suffix)) if suffix.isdigit() else suffix


def argument_labels(label: str) -> Iterable[str]:
    """The labels of one argument cell (`A0|A1` holds two)."""
    return [part for part in label.split("|") if part]


def semantic_dependencies(frames: Iterable[SrlFrame]) -> Counter:
    """The labeled semantic dependencies of one sentence, as a multiset of
    `("sense", predicate, sense)` and `("arg", predicate, argument head, role)`."""
    dependencies: Counter = Counter()
    for frame in frames:
        dependencies[(SENSE, frame.index, normalized_sense(frame.sense or ""))] += 1
        for argument in frame.arguments:
            if argument.label == "V":
                continue
            for label in argument_labels(argument.label):
                dependencies[("arg", frame.index, argument.start, label)] += 1
    return dependencies


def proposition(frame: SrlFrame) -> tuple[Hashable, ...]:
    """A predicate's sense and sorted labeled arguments: what must match for a correct proposition."""
    arguments = sorted(
        (argument.start, label)
        for argument in frame.arguments
        if argument.label != "V"
        for label in argument_labels(argument.label)
    )
    return (normalized_sense(frame.sense or ""), tuple(arguments))


@Metric.register("conll2009_f1")
class Conll2009F1(Metric):
    """Labeled and unlabeled semantic P/R/F1, proposition P/R/F1 and per-label figures, as eval09.pl
    computes them (see the module docstring); counts are summed over distributed workers.

    Keys (fractions): `precision-overall`, `recall-overall`, `f1-measure-overall` (labeled, senses
    included), `unlabeled-precision/recall/f1`, `proposition-precision/recall/f1`,
    `argument-precision/recall/f1` (labeled arguments only, senses left out), and with
    `reset=True` `precision-X`/`recall-X`/`f1-measure-X` for each role X and for `sense`.
    """

    @classmethod
    def config_needs(cls, config: dict[str, Any]) -> list[ConfigNeed]:
        """CoNLL-2009 data (`srl_zoo.config_fit`): checked before it is read."""
        instead = "leave srl_metric out (srl_span_f1, srl-eval.pl's)"
        return [reads_head_words("", "conll2009_f1 (eval09.pl's) scores", instead)]

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._counts: Counter = Counter()

    def __call__(  # type: ignore[override]
        self, gold_sentences: Sequence[Sequence[SrlFrame]], predicted_sentences: Sequence[Sequence[SrlFrame]]
    ) -> None:
        """Per sentence, its gold and its predicted frames (arguments as one-token spans on head words)."""
        if len(gold_sentences) != len(predicted_sentences):
            raise ValueError(f"{len(gold_sentences)} gold sentences but {len(predicted_sentences)} predicted")
        for gold_frames, predicted_frames in zip(gold_sentences, predicted_sentences, strict=False):
            gold, predicted = semantic_dependencies(gold_frames), semantic_dependencies(predicted_frames)
            correct = gold & predicted
            self._add("labeled", gold, predicted, correct)
            unlabeled_gold, unlabeled_predicted = _unlabeled(gold), _unlabeled(predicted)
            self._add("unlabeled", unlabeled_gold, unlabeled_predicted, unlabeled_gold & unlabeled_predicted)
            for name, counter in (("gold", gold), ("predicted", predicted), ("correct", correct)):
                for dependency, count in counter.items():
                    label = SENSE if dependency[0] == SENSE else dependency[3]
                    self._counts[f"label\t{label}\t{name}"] += count
            gold_propositions = {frame.index: proposition(frame) for frame in gold_frames}
            predicted_propositions = {frame.index: proposition(frame) for frame in predicted_frames}
            self._counts["propositions\tgold"] += len(gold_propositions)
            self._counts["propositions\tpredicted"] += len(predicted_propositions)
            self._counts["propositions\tcorrect"] += sum(
                predicted_propositions.get(index) == value for index, value in gold_propositions.items()
            )

    def score_sentences(
        self, gold: Sequence[Mapping[int, SrlFrame]], predicted: Sequence[Mapping[int, SrlFrame]]
    ) -> None:
        """Per sentence, gold and predicted frames by predicate position (the Model's interface)."""
        self([list(g.values()) for g in gold], [list(p.values()) for p in predicted])

    def _add(self, kind: str, gold: Counter, predicted: Counter, correct: Counter) -> None:
        self._counts[f"{kind}\tgold"] += sum(gold.values())
        self._counts[f"{kind}\tpredicted"] += sum(predicted.values())
        self._counts[f"{kind}\tcorrect"] += sum(correct.values())

    def get_metric(self, reset: bool = False) -> dict[str, float]:
        counts = sum_over_workers(self._counts)

        def scores(prefix: str) -> tuple[float, float, float]:
            correct = counts.get(f"{prefix}\tcorrect", 0)
            return precision_recall_f1(
                correct,
                counts.get(f"{prefix}\tpredicted", 0) - correct,
                counts.get(f"{prefix}\tgold", 0) - correct,
            )

        for name in ("gold", "predicted", "correct"):  # the labeled counts without the senses
            counts[f"arguments\t{name}"] = counts.get(f"labeled\t{name}", 0) - counts.get(f"label\t{SENSE}\t{name}", 0)
        metrics: dict[str, float] = {}
        for prefix, names in (
            ("labeled", ("precision-overall", "recall-overall", "f1-measure-overall")),
            ("unlabeled", ("unlabeled-precision", "unlabeled-recall", "unlabeled-f1")),
            ("propositions", ("proposition-precision", "proposition-recall", "proposition-f1")),
            ("arguments", ("argument-precision", "argument-recall", "argument-f1")),
        ):
            metrics.update(zip(names, scores(prefix), strict=False))
        if reset:
            labels = sorted({key.split("\t")[1] for key in counts if key.startswith("label\t")})
            for label in labels:
                p, r, f = scores(f"label\t{label}")
                metrics[f"precision-{label}"], metrics[f"recall-{label}"], metrics[f"f1-measure-{label}"] = p, r, f
            self.reset()
        return metrics


def _unlabeled(dependencies: Counter) -> Counter:
    """The dependencies without labels: `("sense", predicate)`, `("arg", predicate, head)`."""
    unlabeled: Counter = Counter()
    for dependency, count in dependencies.items():
        unlabeled[dependency[:2] if dependency[0] == SENSE else dependency[:3]] += count
    return unlabeled
