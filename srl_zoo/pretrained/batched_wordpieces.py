"""Word pieces of every word of a sentence in one tokenizer call: allennlp's mismatched indexer asks the
Hugging Face tokenizer once per word (`encode_plus` in a Python loop), which took 11% of the shipped
model's bfloat16 prediction time; one call on the sentence's words as one pre-split sequence (each word
still split on its own, so the pieces are the same) does the work in the tokenizer's Rust code. Installed
over allennlp's `PretrainedTransformerTokenizer._intra_word_tokenize` by `srl_zoo.allennlp_patches`."""

from typing import Optional

from allennlp.data.tokenizers import Token


def batched_intra_word_tokenize(self, string_tokens: list[str]) -> tuple[list[Token], list[Optional[tuple[int, int]]]]:
    """allennlp's `_intra_word_tokenize` (word pieces of each word, without special tokens, and each word's
    inclusive piece offsets, None for a word without pieces), with one tokenizer call for all the words.

    # Parameters

    self : the `PretrainedTransformerTokenizer`.
    string_tokens : the words.
    """
    if not string_tokens:
        return [], []
    split = _pieces_of_pretokenized_words if self.tokenizer.is_fast else _pieces_word_by_word
    all_ids, word_of_piece = split(self.tokenizer, string_tokens)
    texts = self.tokenizer.convert_ids_to_tokens(all_ids)
    tokens = [Token(text=text, text_id=piece) for piece, text in zip(all_ids, texts, strict=True)]
    offsets: list[Optional[tuple[int, int]]] = [None] * len(string_tokens)
    for position, word in enumerate(word_of_piece):
        first = offsets[word]
        offsets[word] = (position, position) if first is None else (first[0], position)
    return tokens, offsets


def _pieces_word_by_word(tokenizer, words: list[str]) -> tuple[list[int], list[int]]:
    """The pieces of `words`, each word its own sequence in one batched call (any tokenizer): piece ids and
    the word of each piece."""
    ids_per_word = tokenizer(words, add_special_tokens=False, return_attention_mask=False, return_token_type_ids=False)[
        "input_ids"
    ]
    return [piece for ids in ids_per_word for piece in ids], [
        word for word, ids in enumerate(ids_per_word) for _ in ids
    ]


def _pieces_of_pretokenized_words(tokenizer, words: list[str]) -> tuple[list[int], list[int]]:
    """The pieces of `words` as one pre-split sequence (a fast tokenizer still splits each word on its own,
    without spawning its thread pool for one sequence per word): piece ids and the word of each piece."""
    encoding = tokenizer(
        words,
        is_split_into_words=True,
        add_special_tokens=False,
        return_attention_mask=False,
        return_token_type_ids=False,
    )
    word_ids = encoding.word_ids()
    return list(encoding["input_ids"]), [word for word in word_ids if word is not None]


batched_intra_word_tokenize.srl_zoo_batched = True  # type: ignore[attr-defined]


def use_batched_wordpieces() -> None:
    """Make allennlp's transformer tokenizer split a sentence's words in one call (once only)."""
    from allennlp.data.tokenizers import PretrainedTransformerTokenizer

    current = PretrainedTransformerTokenizer._intra_word_tokenize
    if not getattr(current, "srl_zoo_batched", False):
        batched_intra_word_tokenize.replaced = current  # type: ignore[attr-defined]  # allennlp's, for tests
        PretrainedTransformerTokenizer._intra_word_tokenize = batched_intra_word_tokenize  # type: ignore[method-assign]
