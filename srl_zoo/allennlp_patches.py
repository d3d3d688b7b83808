"""Everything srl_zoo changes in allennlp and in the process on its allennlp side, in one table: each change
named, with why it is needed, applied in order by `apply_all()` from one place (`register_and_patch`, which
`srl_zoo.plugin`, `--include-package srl_zoo` and `srl_zoo.api.load` run), each one idempotent. `import srl_zoo`
alone changes nothing.

allennlp 2.10.1 is pinned and does not change, so these are small, tested replacements of single
functions or defaults, not forks: `tests/test_allennlp_patches.py` checks that each is in place after
`import srl_zoo.plugin`, that applying them twice changes nothing, and that docs/architecture.md lists them.
"""

from collections.abc import Callable
from dataclasses import dataclass

from srl_zoo import archives, registered_names, training
from srl_zoo.config_defaults import use_config_defaults
from srl_zoo.pretrained.fused_attention import use_fused_attention
from srl_zoo.training.transformer_files import use_transformer_files_in_every_archive
from srl_zoo.training.unstarted_runs import use_checked_training


@dataclass(frozen=True)
class Patch:
    """One change: its `name` (as docs/architecture.md lists it), `why` it exists, and `apply`."""

    name: str
    why: str
    apply: Callable[[], None]


PATCHES: tuple[Patch, ...] = (
    Patch(
        "optional config variables",
        "jsonnet has no optional external variables: allennlp hands jsonnet every SRL_* variable the bundled "
        "configs read, '' (its default) when unset, so `allennlp train CONFIG` runs as written; os.environ "
        "is left as it is",
        use_config_defaults,
    ),
    Patch(
        "safe archive reading",
        "allennlp's extracted_archive writes an archive's members without checking them (paths out of the "
        "folder, links, devices), and its read_state_dict unpickles anything: srl_zoo's checks every member "
        "first and names the file in one error, and reads weights with torch.load(weights_only=True), so a "
        "pickled payload is refused, not run. Every allennlp path that loads an archive (load_archive, "
        "Model.load, the predictors, `allennlp predict` and `evaluate`) calls these two functions",
        archives.use_safe_archive_reading,
    ),
    Patch(
        "whole weights on Model.load",
        "allennlp lets missing weights through once any module declares authorized_missing_keys: weights "
        "that leave the model part-empty are refused naming the file; a model that declares "
        "read_archive_record (srl_zoo's) gets its archive's F1 per precision and score calibration",
        archives.check_loaded_models,
    ),
    Patch(
        "atomic checkpoints by default",
        "`allennlp train` writes checkpoints through a temporary file and a rename and resumes exactly "
        "when a config names no checkpointer or trainer type",
        training.make_default,
    ),
    Patch(
        "checked training",
        "allennlp drops unknown trainer keys without a word (its trainer takes **kwargs) and reports other unknown "
        "keys and mistyped values after reading the data, in a traceback; and it makes the serialization folder "
        "before the first batch, so a run that failed there left it and the corrected command was refused with "
        "'Specify --recover'. Its train_model is the one function every entry calls (`allennlp train`, `srl-zoo "
        "train`, `train_model_from_file`): wrapped once, it checks every key and simple value type against the "
        "parts the config names first, in one line, and removes a folder the run made and wrote no weights to",
        use_checked_training,
    ),
    Patch(
        "transformer files in every archive",
        "an archive of a model on a local transformer stored the folder's absolute path unless its config named "
        "both the transformer_files callback and include_in_archive: every training run now copies the "
        "transformer's config and tokenizer files and archives them, so the model travels",
        use_transformer_files_in_every_archive,
    ),
    Patch(
        "fused BERT attention",
        "transformers 4.25.1 (pinned with allennlp 2.10.1) computes BERT's self-attention in five steps that each "
        "write a (batch, heads, length, length) tensor, where torch's scaled_dot_product_attention computes the same "
        "in one fused kernel (`srl_zoo.pretrained.fused_attention`; transformers 5 already calls it and is left "
        "alone). BertSelfAttention is built by name inside transformers' BertModel, which allennlp's embedders load "
        "from a config or an archive, so no config, subclass or adapter reaches it",
        use_fused_attention,
    ),
)


def apply_all() -> None:
    """Apply every patch, in the table's order."""
    for patch in PATCHES:
        patch.apply()


def register_and_patch() -> None:
    """What every allennlp-based path needs (`srl_zoo.api.load`'s `Labeler`, the commands, `--include-package`):
    every srl_zoo part registered with allennlp and every patch applied; idempotent (`srl_zoo.plugin` adds the
    commands and the spaCy factory)."""
    from srl_zoo import amn, models, modules, predictors  # noqa: F401  (registered on import)
    from srl_zoo.data import dataset_readers, fields, padded_tokens_sampler  # noqa: F401
    from srl_zoo.nn import initializers  # noqa: F401
    from srl_zoo.pretrained import word_piece_indexer  # noqa: F401

    registered_names.register_aliases()  # the Predictor's old names, where allennlp-models does not own them
    apply_all()
