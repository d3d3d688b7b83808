"""The `word_pieces` indexer gives what allennlp's `pretrained_transformer_mismatched` indexer gives (piece ids,
type ids, offsets, masks, segments folded with `max_length`, padded tensors) for any words (hypothesis), and a
config builds it by name."""

import pickle

import pytest
import torch
from allennlp.common import Params
from allennlp.data import Token, Vocabulary
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer, TokenIndexer
from hypothesis import given, settings
from hypothesis import strategies as st

import srl_zoo.plugin  # noqa: F401  (registers the indexer)
from srl_zoo.archive_files import ArchiveError
from srl_zoo.pretrained.word_piece_indexer import WordPieceIndexer, word_offsets
from tests.tiny_bert import SPLITTING_PIECES, write_tiny_bert

WORDS = ["the", "company", "sold", "its", "shares", "to", "a", "bank", ".", "日"]
WORD = st.one_of(
    st.sampled_from(["running", "unlike", "Shares", "É", "’", "\u200b", "\x00", "a b", "日本", "the"]),
    st.text(min_size=1, max_size=8),
)
#: no folding, folding that never cuts the fixture's sentences, and segments of 4 pieces + [CLS] and [SEP]
MAX_LENGTHS = [None, 512, 6]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    return write_tiny_bert(str(tmp_path_factory.mktemp("bert")), WORDS + SPLITTING_PIECES, hidden=8, layers=1)


@pytest.fixture(scope="module")
def indexers(tiny_bert):
    """(srl_zoo's, allennlp's) indexer for each max_length."""
    return {n: (WordPieceIndexer(tiny_bert, n), PretrainedTransformerMismatchedIndexer(tiny_bert, max_length=n))
            for n in MAX_LENGTHS}  # fmt: skip


def indexed(indexer: TokenIndexer, words: list[str]) -> dict:
    return indexer.tokens_to_indices([Token(word) for word in words], Vocabulary())


@settings(max_examples=100, deadline=None)
@given(words=st.lists(WORD, min_size=1, max_size=14), max_length=st.sampled_from(MAX_LENGTHS))
def test_the_same_indices_as_allennlp_s_indexer(indexers, words, max_length):
    ours, allennlp = indexers[max_length]
    mine, theirs = indexed(ours, words), indexed(allennlp, words)
    if max_length is not None and not theirs["token_ids"]:  # no word has a piece: allennlp folds it into no segment
        start, end = ours.pieces.start, ours.pieces.end
        specials = len(start + end)  # ours: one segment of special tokens alone
        theirs.update(token_ids=start + end, type_ids=[0] * specials, segment_concat_mask=[True] * specials)
    assert mine == theirs


def test_a_sentence_without_pieces_is_one_segment_of_special_tokens(indexers):
    ours, allennlp = indexers[6]
    assert indexed(allennlp, ["\u200b"])["token_ids"] == []  # an empty row for allennlp's embedder
    assert indexed(ours, ["\u200b"]) == indexed(indexers[None][0], ["\u200b"]) | {"segment_concat_mask": [True] * 2}
    assert indexed(ours, ["\u200b"])["offsets"] == [(-1, -1)]


@pytest.mark.parametrize("max_length", MAX_LENGTHS)
def test_the_same_padded_tensors_as_allennlp_s_indexer(indexers, max_length):
    ours, allennlp = indexers[max_length]
    sentences = [["the", "company", "unsold", "\u200b", "shares", "."] * 2, ["the", "bank"]]
    tensors = []
    for indexer in (ours, allennlp):
        lists = [indexed(indexer, words) for words in sentences]
        lengths = {key: max(len(one[key]) for one in lists) for key in lists[0]}
        tensors.append([indexer.as_padded_tensor_dict(one, lengths) for one in lists])
    assert [sorted(one) for one in tensors[0]] == [sorted(one) for one in tensors[1]]
    for mine, theirs in zip(tensors[0], tensors[1], strict=True):
        for key in theirs:
            assert mine[key].dtype == theirs[key].dtype and torch.equal(mine[key], theirs[key]), key
    empty = ours.get_empty_token_list()
    assert sorted(empty) == sorted(allennlp.get_empty_token_list()) and not any(empty.values())


def test_a_config_names_it_and_it_travels_to_data_workers(tiny_bert):
    indexer = TokenIndexer.from_params(Params({"type": "word_pieces", "model_name": tiny_bert, "max_length": 6}))
    assert isinstance(indexer, WordPieceIndexer)
    copy = pickle.loads(pickle.dumps(indexer))  # allennlp's data loader workers get pickled readers
    assert copy == indexer and indexed(copy, WORDS) == indexed(indexer, WORDS)
    assert indexed(indexer, WORDS)["token_ids"].count(copy.pieces.start[0]) > 1  # folded into segments


def test_a_folder_without_tokenizer_json_is_one_error_naming_it(tmp_path):
    with pytest.raises(ArchiveError, match=f"{tmp_path}.*no tokenizer.json"):
        WordPieceIndexer(str(tmp_path))


def test_offsets_number_the_pieces_after_the_start_tokens():
    assert word_offsets([0, 0, 2, None, 2], 4, 1) == [(1, 2), (-1, -1), (3, 5), (-1, -1)]
