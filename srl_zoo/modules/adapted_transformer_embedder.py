"""A pretrained transformer kept frozen under trained low-rank adapters (LoRA): the token embedder of the
accurate model. The frozen weights come from a hash-checked encoder directory that srl_zoo builds offline
(`frozen_weights: "mpnet"` → `make mpnet`), never from the archive, so an archive holds only what training
changed: the adapters, the rest of the model, and the transformer's config and tokenizer."""

from collections.abc import Sequence
from typing import Any, Optional

from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder, TokenEmbedder

from srl_zoo.parts.embedders.adapted_transformer import check_adapted_settings, freeze_and_adapt


@TokenEmbedder.register("pretrained_transformer_adapted")
class AdaptedTransformerMismatchedEmbedder(PretrainedTransformerMismatchedEmbedder):
    """allennlp's `pretrained_transformer_mismatched` embedder (word pieces in, one vector per word out) whose
    transformer is frozen and every linear layer of its layers carries a trained low-rank adapter.

    # Parameters

    model_name : the transformer's config and tokenizer folder (an archive points it at its own copy).
    frozen_weights : the encoder whose weights stay frozen, by name (`mpnet`: `make mpnet`'s .cache/mpnet).
    frozen_precision : `float32`, or `bfloat16` to round the frozen weights (as the GPU recipe carried them).
    adapter_rank, adapter_alpha, adapter_dropout : each adapter's width, scale (alpha / rank) and input dropout.
    adapted_modules : the transformer's sub-module whose linear layers are adapted.
    trained_modules : sub-modules whose own weights train too (for example the top layers,
        `["encoder.layer.10", "encoder.layer.11"]`); archives hold them, the rest stays frozen.
    **kwargs : the rest of `pretrained_transformer_mismatched`'s settings (max_length, last_layer_only,
        transformer_kwargs, ...); its `load_weights` and `train_parameters` are set here.
    """

    def __init__(
        self,
        model_name: str,
        frozen_weights: str,
        frozen_precision: str = "float32",
        adapter_rank: int = 16,
        adapter_alpha: float = 32.0,
        adapter_dropout: float = 0.1,
        adapted_modules: str = "encoder.layer",
        trained_modules: Sequence[str] = (),
        transformer_kwargs: Optional[dict[str, Any]] = None,
        **kwargs: Any,
    ) -> None:
        check_adapted_settings(frozen_weights, frozen_precision)
        kwargs.pop("load_weights", None)
        kwargs.pop("train_parameters", None)
        super().__init__(
            model_name, load_weights=False, train_parameters=True, transformer_kwargs=transformer_kwargs, **kwargs
        )
        transformer = self._matched_embedder.transformer_model
        adapter = (adapter_rank, adapter_alpha, adapter_dropout)
        frozen = freeze_and_adapt(
            transformer,
            frozen_weights,
            frozen_precision,
            adapter,
            adapted_modules,
            trained_modules,
        )
        self._frozen = [f"_matched_embedder.transformer_model.{name}" for name in frozen]
        self._register_state_dict_hook(_without_frozen)
        self._register_load_state_dict_pre_hook(_with_frozen, with_module=True)

    def frozen_names(self) -> list[str]:
        """The state-dict keys (below this embedder) that archives leave out."""
        return list(self._frozen)


def _without_frozen(module: AdaptedTransformerMismatchedEmbedder, state: dict, prefix: str, _: Any) -> None:
    """A state-dict hook: `state` without the frozen weights (archives and checkpoints leave them out)."""
    for name in module._frozen:
        state.pop(prefix + name, None)


def _with_frozen(module: AdaptedTransformerMismatchedEmbedder, state: dict, prefix: str, *_: Any) -> None:
    """A load pre-hook: the frozen weights (read from their encoder directory) into `state` where it lacks them."""
    for name in module._frozen:
        if prefix + name not in state:
            owner, _dot, leaf = name.rpartition(".")
            state[prefix + name] = getattr(module.get_submodule(owner), leaf)
