"""The batched word-piece split gives what allennlp's per-word loop gives (pieces, ids, offsets, words
without pieces), for any words (hypothesis), and an indexed sentence is the same through the indexer."""

import pytest
from allennlp.data import Token as DataToken
from allennlp.data import Vocabulary
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer
from allennlp.data.tokenizers import PretrainedTransformerTokenizer
from hypothesis import given, settings
from hypothesis import strategies as st

import srl_zoo.plugin  # noqa: F401  (applies the patch)
from srl_zoo.pretrained.batched_wordpieces import batched_intra_word_tokenize

allennlp_intra_word_tokenize = batched_intra_word_tokenize.replaced  # type: ignore[attr-defined]
WORDS = ["the", "company", "sold", "its", "shares", "run", "##ning", "##s", "un", "##like", "."]


@pytest.fixture(scope="module", params=["fast", "slow"])
def tokenizer(tmp_path_factory, request):
    """allennlp's tokenizer over a tiny uncased BERT vocabulary: words, pieces and single characters; the
    Rust (fast) tokenizer, whose words are split as one pre-split sequence, or the Python one, word by word."""
    from transformers import BertTokenizerFast

    directory = tmp_path_factory.mktemp("bert")
    characters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + list("0123456789,.!?'-é")
    vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, *characters, *("##" + c for c in characters)]
    (directory / "vocab.txt").write_text("\n".join(dict.fromkeys(vocabulary)) + "\n")
    BertTokenizerFast(str(directory / "vocab.txt"), do_lower_case=True).save_pretrained(str(directory))
    tokenizer = PretrainedTransformerTokenizer(str(directory), tokenizer_kwargs={"use_fast": request.param == "fast"})
    assert tokenizer.tokenizer.is_fast == (request.param == "fast")
    return tokenizer


def split(function, tokenizer, words):
    tokens, offsets = function(tokenizer, words)
    return [(t.text, t.text_id, t.type_id) for t in tokens], offsets


WORD = st.one_of(
    st.sampled_from(["running", "unlike", "shares", "Company", "É", "’", "\u200b", "\x00", "", " ", "a b", "日本"]),
    st.text(min_size=0, max_size=8),
)


@settings(max_examples=150, deadline=None)
@given(words=st.lists(WORD, max_size=12))
def test_the_same_pieces_and_offsets_as_allennlp_s_loop(tokenizer, words):
    assert split(batched_intra_word_tokenize, tokenizer, words) == split(allennlp_intra_word_tokenize, tokenizer, words)


def test_the_patch_is_what_the_mismatched_indexer_uses(tokenizer):
    assert PretrainedTransformerTokenizer._intra_word_tokenize is batched_intra_word_tokenize
    indexer = PretrainedTransformerMismatchedIndexer(tokenizer.tokenizer.name_or_path)
    indexed = indexer.tokens_to_indices([DataToken(w) for w in ["Running", "\u200b", "shares", "."]], Vocabulary())
    assert indexed["offsets"] == [(1, 2), (-1, -1), (3, 3), (4, 4)]
    assert len(indexed["token_ids"]) == 6  # [CLS] run ##ning shares . [SEP]
