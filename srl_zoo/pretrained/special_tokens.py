"""Special tokens around each folded segment for tokenizers that no longer build them: allennlp's
`PretrainedTransformerIndexer` (with `max_length`, as srl_zoo's transformer configs set) puts `[CLS]`/`[SEP]`
around every 512-piece segment with the Hugging Face tokenizer's `build_inputs_with_special_tokens`, which
transformers 5 removed (the GPU image has 5.17). Where it is missing, the indexer's tokenizer is wrapped so
that the method exists and adds the start and end tokens allennlp's own tokenizer found for this model
(`single_sequence_start_tokens`/`end_tokens`); with transformers 4 nothing changes. Installed over
`PretrainedTransformerIndexer.__init__` by `srl_zoo.allennlp_patches`."""

from typing import Any, Optional

from allennlp.data.token_indexers import PretrainedTransformerIndexer


class SpecialTokensAround:
    """A Hugging Face tokenizer plus `build_inputs_with_special_tokens` for one sequence; every other
    attribute is the tokenizer's own.

    # Parameters

    tokenizer : the Hugging Face tokenizer.
    start_ids, end_ids : the ids of the special tokens before and after a single sequence.
    """

    def __init__(self, tokenizer: Any, start_ids: list[int], end_ids: list[int]) -> None:
        self.__dict__.update(wrapped=tokenizer, start_ids=list(start_ids), end_ids=list(end_ids))

    def build_inputs_with_special_tokens(self, ids: list[int], pair: Optional[list[int]] = None) -> list[int]:
        """`ids` between the model's start and end tokens (pairs are not what the indexer folds)."""
        if pair is not None:
            raise ValueError("SpecialTokensAround builds single sequences only")
        return self.start_ids + list(ids) + self.end_ids

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or "wrapped" not in self.__dict__:  # copy/pickle probe before __init__
            raise AttributeError(name)
        return getattr(self.__dict__["wrapped"], name)

    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def builds_special_tokens(tokenizer: Any) -> bool:
    """Whether the tokenizer has `build_inputs_with_special_tokens` (transformers 4) or not (5)."""
    try:
        return callable(tokenizer.build_inputs_with_special_tokens)
    except AttributeError:
        return False


def use_special_tokens_fallback() -> None:
    """Wrap `PretrainedTransformerIndexer.__init__` so that its tokenizer can always build special tokens."""
    original = PretrainedTransformerIndexer.__init__
    if getattr(original, "srl_zoo_special_tokens", False):
        return

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if not builds_special_tokens(self._tokenizer):
            allennlp_tokenizer = self._allennlp_tokenizer
            self._tokenizer = SpecialTokensAround(
                self._tokenizer,
                [token.text_id for token in allennlp_tokenizer.single_sequence_start_tokens],
                [token.text_id for token in allennlp_tokenizer.single_sequence_end_tokens],
            )

    __init__.srl_zoo_special_tokens = True  # type: ignore[attr-defined]
    PretrainedTransformerIndexer.__init__ = __init__  # type: ignore[method-assign]
