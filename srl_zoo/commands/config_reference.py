"""`docs/configuration.md`, the reference of every part a config can name: each registered srl_zoo name, every key
its constructor takes, with its type, default and meaning, generated from the parts' own signatures and
docstrings (so it cannot drift from them: `tests/commands/test_config_reference.py` regenerates it).

    python -m srl_zoo.commands.config_reference docs/configuration.md      # rewrite it
    python -m srl_zoo.commands.config_reference --check docs/configuration.md
"""

import inspect
import re
import typing
from typing import Any, Optional

from allennlp.common import Lazy, Registrable
from allennlp.data import DatasetReader
from allennlp.data.samplers import BatchSampler
from allennlp.data.token_indexers import TokenIndexer
from allennlp.models import Model
from allennlp.modules import Seq2SeqEncoder
from allennlp.nn import Initializer
from allennlp.training import Checkpointer, Trainer
from allennlp.training.callbacks import TrainerCallback
from allennlp.training.learning_rate_schedulers import LearningRateScheduler
from allennlp.training.metrics import Metric
from allennlp.training.optimizers import Optimizer

from srl_zoo.allennlp_patches import register_and_patch
from srl_zoo.amn.selectors.selector import NeighbourSelector
from srl_zoo.commands.generated_doc import generated_doc_main
from srl_zoo.models.heads.auxiliary_task import AuxiliaryTask
from srl_zoo.models.heads.predicate_head import PredicateHead
from srl_zoo.modules.frame_features import FrameFeatures
from srl_zoo.modules.frame_scorers.frame_scorer import FrameScorer
from srl_zoo.modules.frame_scorers.tag_output import TagOutput
from srl_zoo.training.constructor_keys import constructor_parameters
from srl_zoo.training.given_keys import following_keys, given_keys

#: each kind of part, where a config names it, in the order a reader meets them
KINDS: tuple[tuple[type, str], ...] = (
    (Model, "`model`"),
    (FrameScorer, "`model.frame_scorer`"),
    (Seq2SeqEncoder, "`model.frame_scorer.encoder` (and other encoders)"),
    (TagOutput, "`model.frame_scorer.output`"),
    (PredicateHead, "`model.predicate_head`"),
    (AuxiliaryTask, "`model.auxiliary_tasks.NAME`"),
    (FrameFeatures, "`model.frame_features`"),
    (NeighbourSelector, "`model.frame_features.selector`"),
    (Metric, "`model.srl_metric`"),
    (DatasetReader, "`dataset_reader`"),
    (TokenIndexer, "`dataset_reader.token_indexers.NAME`"),
    (BatchSampler, "`data_loader.batch_sampler`"),
    (Trainer, "`trainer`"),
    (TrainerCallback, "`trainer.callbacks[]`"),
    (Optimizer, "`trainer.optimizer`"),
    (LearningRateScheduler, "`trainer.learning_rate_scheduler`"),
    (Initializer, "`model.initializer.regexes[][1]`"),
    (Checkpointer, "`trainer.checkpointer`"),
)

HEADER = """# Configuration reference

Every part an srl_zoo config can name by `type`, and every key it takes: its type, its default (none: the key
is required) and what it means, generated from the parts' constructors and docstrings by
`python -m srl_zoo.commands.config_reference docs/configuration.md` (a test regenerates it and compares). Keys a
part is given by the part that builds it (`vocab`, the input width a scorer is built with, ...) are marked
*given*; an encoder's input width, filled in by the part that feeds it but still accepted if it fits, is marked
*from the parts*. A key not listed is refused before training, in one line naming it
(`srl_zoo/training/config_check.py`).
allennlp's own parts (its optimizers, schedulers, data loaders) are documented by allennlp; srl_zoo's are here.
"""


def srl_zoo_parts(base: type) -> list[tuple[list[str], type, Optional[str]]]:
    """(registered names, class, constructor) of every srl_zoo part registered under `base` (a part registered
    under several names, the old ones kept as aliases, appears once), by its first name."""
    names: dict[tuple[type, Optional[str]], list[str]] = {}
    for name, (cls, constructor) in Registrable._registry.get(base, {}).items():
        if cls.__module__.startswith("srl_zoo"):
            names.setdefault((cls, constructor), []).append(name)
    found = [
        (sorted(given, key=lambda n: (not n.startswith("srl_zoo"), n)), cls, c) for (cls, c), given in names.items()
    ]
    return sorted(found, key=lambda entry: entry[0][0])


def meanings(cls: type) -> dict[str, str]:
    """The `# Parameters` section of `cls`'s docstring (and its ancestors'): key → meaning, one line each."""
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        text = inspect.getdoc(klass) if klass.__doc__ else None
        if not text or "# Parameters" not in text:
            continue
        section = text.split("# Parameters", 1)[1]
        current = None
        for line in section.splitlines():
            if line.startswith("#"):
                break
            entry = re.match(r"^(\w+(?:, \w+)*)\s*:\s*(.*)$", line)
            if entry and not line.startswith(" "):
                keys = entry.group(1).split(", ")
                current = keys[-1]
                for key in keys:
                    found[key] = entry.group(2).strip()
            elif current and line.strip():
                for key in [k for k, v in found.items() if v == found[current]]:
                    found[key] += " " + line.strip()
            elif not line.strip() and current:
                current = None
    return found


def type_name(annotation: Any) -> str:
    """A readable type: `int`, `FrameScorer`, `dict[str, AuxiliaryTask]`, `int or None`."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return ""
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is Lazy or origin is Lazy:
        return type_name(arguments[0]) if arguments else ""
    if origin is typing.Union:
        names = [type_name(a) for a in arguments if a is not type(None)]
        return " or ".join(names) + (" or None" if type(None) in arguments else "")
    if origin is not None:
        inner = ", ".join(type_name(a) for a in arguments)
        return f"{getattr(origin, '__name__', str(origin))}[{inner}]"
    return getattr(annotation, "__name__", str(annotation).replace("typing.", ""))


#: a markdown link whose target is not a web address (allennlp's docstrings link into allennlp's own docs site)
_LOCAL_LINK = re.compile(r"\[([^\]]*)\]\((?!https?://)[^)]*\)")


def _cell(text: str) -> str:
    """`text` as one table cell: one line, `|` escaped, links into other sites' pages kept as their text."""
    return _LOCAL_LINK.sub(r"\1", text).replace("|", "\\|").replace("\n", " ").strip()


def _default(parameter: inspect.Parameter) -> str:
    if parameter.default is inspect.Parameter.empty:
        return ""
    value = parameter.default
    shown = type(value).__name__ + "()" if type(value).__module__ not in ("builtins",) else repr(value)
    return f"`{_cell(shown)}`"


def part_section(
    names: list[str], cls: type, constructor: Optional[str], given: set[str], following: frozenset[str] = frozenset()
) -> list[str]:
    """The heading, summary and key table of one registered part (`given`: the keys it is given; `following`: the keys
    filled in that a config may still give)."""
    summary = (inspect.getdoc(cls) or "").split("\n\n", 1)[0].replace("\n", " ")
    aliases = f" (also {', '.join(f'`{n}`' for n in names[1:])})" if names[1:] else ""
    lines = [f"### `{names[0]}`{aliases}", "", f"`{cls.__module__}.{cls.__name__}`: {_cell(summary)}", ""]
    parameters = constructor_parameters(cls, constructor)
    meaning = meanings(cls)
    marks = {**{key: "*from the parts*" for key in following}, **{key: "*given*" for key in given}}
    rows = [
        f"| `{key}` | {_cell(type_name(p.annotation))} | {marks.get(key) or _default(p)} "
        f"| {_cell(meaning.get(key, ''))} |"
        for key, p in parameters.items()
    ]
    if rows:
        lines += ["| key | type | default | meaning |", "|---|---|---|---|", *rows, ""]
    return lines


def config_reference() -> str:
    """The whole of `docs/configuration.md`."""
    register_and_patch()  # every part and its old names, as `--include-package srl_zoo` registers them
    lines = [HEADER]
    for base, where in KINDS:
        parts = srl_zoo_parts(base)
        if not parts:
            continue
        lines += [f"## {base.__name__}: {where}", ""]
        for names, cls, constructor in parts:
            lines += part_section(names, cls, constructor, set(given_keys(base)), following_keys(base))
    return "\n".join(lines).rstrip() + "\n"


def main(argv: Optional[list[str]] = None) -> None:
    generated_doc_main(__doc__ or "", "srl_zoo.commands.config_reference", config_reference, argv)


if __name__ == "__main__":
    main()
