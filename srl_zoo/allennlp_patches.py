"""Everything srl_zoo changes in allennlp and in the process on its allennlp side, in one table: each change
named, with why it is needed, applied in order by `apply_all()` from one place (`register_and_patch`, which
`srl_zoo.plugin`, `--include-package srl_zoo` and `srl_zoo.api.load` run), each one idempotent. `import srl_zoo`
alone changes nothing.

allennlp 2.10.1 is pinned and no longer changes, so these are small, tested replacements of single
functions or defaults, not forks: `tests/test_allennlp_patches.py` checks that each is in place after
`import srl_zoo.plugin`, that applying them twice changes nothing, and that docs/architecture.md lists them.
"""

from collections.abc import Callable
from dataclasses import dataclass

from srl_zoo import archives, registered_names, training
from srl_zoo.config_defaults import use_config_defaults
from srl_zoo.modules.sentence_encoder import use_sentence_encoder_contract
from srl_zoo.pretrained.batched_wordpieces import use_batched_wordpieces
from srl_zoo.pretrained.fused_attention import use_fused_attention
from srl_zoo.pretrained.special_tokens import use_special_tokens_fallback
from srl_zoo.training.config_check import use_config_check
from srl_zoo.training.transformer_files import use_transformer_files_in_every_archive
from srl_zoo.training.unstarted_runs import use_unstarted_run_cleanup


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
        "safe archive extraction",
        "allennlp's extracted_archive writes members without checking them (paths out of the folder, "
        "links, devices): srl_zoo's checks every member first and names the file in one error",
        archives.use_safe_extraction,
    ),
    Patch(
        "weights-only state dicts",
        "allennlp's read_state_dict unpickles anything; srl_zoo's reads with torch.load(weights_only=True)",
        archives.use_weights_only_loading,
    ),
    Patch(
        "whole weights on Model.load",
        "allennlp lets missing weights through once any module declares authorized_missing_keys: weights "
        "that leave the model part-empty are refused naming the file; a model that declares "
        "read_archive_record (srl_zoo's) gets its archive's F1 per precision and score calibration",
        archives.check_loaded_models,
    ),
    Patch(
        "old names as aliases",
        "archives and configs that say `srl` keep working where allennlp-models does not own that name",
        registered_names.register_aliases,
    ),
    Patch(
        "atomic checkpoints by default",
        "`allennlp train` writes checkpoints through a temporary file and a rename and resumes exactly "
        "when a config names no checkpointer or trainer type",
        training.make_default,
    ),
    Patch(
        "config check before training",
        "allennlp drops unknown trainer keys without a word (its trainer takes **kwargs) and reports other "
        "unknown keys and mistyped values after reading the data, in a traceback: srl_zoo checks every key "
        "and simple value type against the parts the config names first, in one line",
        use_config_check,
    ),
    Patch(
        "no folder from a run that saved nothing",
        "allennlp makes the serialization folder, its config, vocabulary and log before the first batch: a run "
        "that failed there left them, and the corrected command was refused with 'Specify --recover'; srl_zoo "
        "removes a folder the run made and wrote no weights to",
        use_unstarted_run_cleanup,
    ),
    Patch(
        "transformer files in every archive",
        "an archive of a model on a local transformer stored the folder's absolute path unless its config named "
        "both the transformer_files callback and include_in_archive: every training run now copies the "
        "transformer's config and tokenizer files and archives them, so the model travels",
        use_transformer_files_in_every_archive,
    ),
    Patch(
        "sentence encoder contract",
        "the frame scorers ask their encoder for its layers, one pass with side inputs and a syntax head's "
        "lever; allennlp's Seq2SeqEncoder gets the contract's defaults (one layer, no side inputs, no syntax "
        "head), so a scorer calls the contract instead of asking what its encoder is",
        use_sentence_encoder_contract,
    ),
    Patch(
        "batched word pieces",
        "allennlp's transformer tokenizer asks for each word's pieces in a Python loop, one tokenizer call "
        "per word (11% of the shipped model's bfloat16 prediction time); one batched call gives the same pieces",
        use_batched_wordpieces,
    ),
    Patch(
        "fused BERT attention",
        "transformers 4.25.1 computes BERT's self-attention in five steps that each write a (batch, heads, "
        "length, length) tensor; torch's scaled_dot_product_attention computes the same in one fused kernel "
        "(cross-attention, cached keys, head masks and returned weights keep transformers' own code)",
        use_fused_attention,
    ),
    Patch(
        "special tokens around folded segments",
        "allennlp's transformer indexer adds [CLS]/[SEP] around each segment of a long sentence with the "
        "tokenizer's build_inputs_with_special_tokens, which transformers 5 (the GPU image's) removed; where "
        "it is missing, the indexer's tokenizer gets one that adds the start and end tokens allennlp found",
        use_special_tokens_fallback,
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

    apply_all()
