"""The special-tokens fallback for tokenizers without `build_inputs_with_special_tokens` (transformers 5):
the start and end tokens it adds are the tokenizer's own, and a long sentence folded into segments is
indexed exactly as with the tokenizer's method."""

import pickle

import pytest
from allennlp.data import Token, Vocabulary
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer
from transformers import BertTokenizerFast

import srl_zoo.plugin  # noqa: F401  (applies the patch)
from srl_zoo.pretrained.special_tokens import SpecialTokensAround, builds_special_tokens
from tests.tiny_bert import SPLITTING_PIECES, write_tiny_bert

WORDS = ["the", "company", "sold", "its", "shares", "to", "a", "bank", "."]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    return write_tiny_bert(str(tmp_path_factory.mktemp("bert")), WORDS + SPLITTING_PIECES, hidden=8, layers=1)


def indexed(tiny_bert: str, words: list[str]) -> dict:
    indexer = PretrainedTransformerMismatchedIndexer(tiny_bert, max_length=8)  # segments of 6 pieces + 2
    return indexer.tokens_to_indices([Token(word) for word in words], Vocabulary())


def test_the_wrapper_adds_what_the_tokenizer_adds(tiny_bert):
    tokenizer = BertTokenizerFast.from_pretrained(tiny_bert)
    wrapped = SpecialTokensAround(tokenizer, [tokenizer.cls_token_id], [tokenizer.sep_token_id])
    for text in ("the", "the company sold its shares", "unsold"):
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
        assert wrapped.build_inputs_with_special_tokens(ids) == tokenizer(text)["input_ids"]  # as the tokenizer adds
    assert wrapped.pad_token_id == tokenizer.pad_token_id  # everything else is the tokenizer's
    copy = pickle.loads(pickle.dumps(wrapped))  # data loader workers get pickled indexers
    assert copy.build_inputs_with_special_tokens([7]) == wrapped.build_inputs_with_special_tokens([7])
    with pytest.raises(ValueError, match="single sequences"):
        wrapped.build_inputs_with_special_tokens([7], [8])


def test_a_long_sentence_is_indexed_the_same_without_the_tokenizers_method(tiny_bert, monkeypatch):
    words = WORDS * 3 + ["unsold", "zebras"]
    expected = indexed(tiny_bert, words)
    assert expected["token_ids"].count(BertTokenizerFast.from_pretrained(tiny_bert).cls_token_id) > 2  # folded
    for klass in BertTokenizerFast.__mro__:  # as in transformers 5: no class defines it
        if "build_inputs_with_special_tokens" in vars(klass):
            monkeypatch.delattr(klass, "build_inputs_with_special_tokens")
    assert not builds_special_tokens(BertTokenizerFast.from_pretrained(tiny_bert))
    assert indexed(tiny_bert, words) == expected
