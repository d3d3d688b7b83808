"""A pretrained transformer kept frozen under trained low-rank adapters (LoRA): the token embedder of the
accurate model. The frozen weights come from a hash-checked encoder directory that srl_zoo builds offline
(`frozen_weights: "mpnet"` → `make mpnet`), never from the archive, so an archive holds only what training
changed: the adapters, the rest of the model, and the transformer's config and tokenizer."""

from collections.abc import Callable
from typing import Any, Optional

import torch
from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder, TokenEmbedder

from srl_zoo.nn.low_rank_adapters import add_low_rank_adapters

#: the encoder directories `frozen_weights` may name: their default folder and the check that says how to build it
FROZEN_ENCODERS: dict[str, Callable[[], str]] = {}


def _mpnet_directory() -> str:
    from srl_zoo.pretrained import mpnet

    return mpnet.check_encoder_directory(mpnet.DEFAULT_DIRECTORY)


FROZEN_ENCODERS["mpnet"] = _mpnet_directory
PRECISIONS = {"float32": torch.float32, "bfloat16": torch.bfloat16}


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
        transformer_kwargs: Optional[dict[str, Any]] = None,
        **kwargs: Any,
    ) -> None:
        if frozen_weights not in FROZEN_ENCODERS:
            raise ValueError(f"frozen_weights: unknown encoder {frozen_weights!r}; known: {sorted(FROZEN_ENCODERS)}")
        if frozen_precision not in PRECISIONS:
            raise ValueError(f"frozen_precision: {frozen_precision!r} is not one of {sorted(PRECISIONS)}")
        kwargs.pop("load_weights", None)
        kwargs.pop("train_parameters", None)
        super().__init__(
            model_name, load_weights=False, train_parameters=True, transformer_kwargs=transformer_kwargs, **kwargs
        )
        transformer = self._matched_embedder.transformer_model
        _load_frozen_weights(transformer, FROZEN_ENCODERS[frozen_weights](), transformer_kwargs or {})
        with torch.no_grad():
            for parameter in transformer.parameters():
                if frozen_precision != "float32":
                    parameter.copy_(parameter.to(PRECISIONS[frozen_precision]).float())
                parameter.requires_grad = False
        add_low_rank_adapters(transformer, adapter_rank, adapter_alpha, adapter_dropout, under=adapted_modules)
        prefix = "_matched_embedder.transformer_model."
        self._frozen = sorted(
            f"{prefix}{name}"
            for name, tensor in transformer.state_dict(keep_vars=True).items()
            if not tensor.requires_grad
        )
        self._register_state_dict_hook(_without_frozen)
        self._register_load_state_dict_pre_hook(_with_frozen, with_module=True)

    def frozen_names(self) -> list[str]:
        """The state-dict keys (below this embedder) that archives leave out."""
        return list(self._frozen)


def _load_frozen_weights(transformer: torch.nn.Module, directory: str, transformer_kwargs: dict[str, Any]) -> None:
    """Copy the pretrained weights of `directory` into `transformer` (built from the same config)."""
    from transformers import AutoModel

    pretrained = AutoModel.from_pretrained(directory, **transformer_kwargs)
    missing, unexpected = transformer.load_state_dict(pretrained.state_dict(), strict=False)
    if missing or unexpected:
        raise ValueError(
            f"frozen weights in {directory} do not fit the transformer: "
            f"missing {missing[:3]}, unexpected {unexpected[:3]}"
        )


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
