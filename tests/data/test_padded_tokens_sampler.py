"""`max_padded_tokens_sampler` measures a sentence by its word pieces: no batch holds more padded pieces
than `max_tokens`, a short sentence of many pieces is not batched with many other short ones, and over
words read one id each it makes the batches `max_tokens_sampler` makes."""

import random

import pytest
from allennlp.common import Params
from allennlp.data import Instance, Token, Vocabulary
from allennlp.data.fields import TextField
from allennlp.data.samplers import BatchSampler, MaxTokensBatchSampler
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer, SingleIdTokenIndexer
from hypothesis import given, settings
from hypothesis import strategies as st

import srl_zoo.plugin  # noqa: F401  (registers the sampler)
from srl_zoo.data.padded_tokens_sampler import MaxPaddedTokensBatchSampler, padded_length

LETTERS = "abcdefghij"


@pytest.fixture(scope="module")
def transformer_directory(tmp_path_factory) -> str:
    """A tiny uncased BERT tokenizer whose words are split into one piece per letter (`abc` → a ##b ##c)."""
    from transformers import BertTokenizerFast

    directory = tmp_path_factory.mktemp("bert")
    vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *LETTERS, *("##" + c for c in LETTERS)]
    (directory / "vocab.txt").write_text("\n".join(vocabulary) + "\n")
    BertTokenizerFast(str(directory / "vocab.txt"), do_lower_case=True).save_pretrained(str(directory))
    return str(directory)


def sentences_of(lengths: list[list[int]], indexers: dict) -> list[Instance]:
    """One indexed instance per sentence; a sentence is its words' lengths in letters."""
    vocabulary = Vocabulary()
    instances = []
    for sentence in lengths:
        words = [Token(LETTERS[:length]) for length in sentence]
        instance = Instance({"tokens": TextField(words, indexers)})
        instance.index_fields(vocabulary)
        instances.append(instance)
    return instances


def test_registered_under_its_name():
    sampler = BatchSampler.from_params(
        Params({"type": "max_padded_tokens_sampler", "max_tokens": 50, "sorting_keys": ["tokens"]})
    )
    assert isinstance(sampler, MaxPaddedTokensBatchSampler)


def test_a_short_sentence_of_many_pieces_counts_its_pieces(transformer_directory):
    indexers = {"tokens": PretrainedTransformerMismatchedIndexer(transformer_directory)}
    # forty 2-word sentences of 1-letter words, and one 2-word sentence of 10-letter words (20 pieces)
    instances = sentences_of([[1, 1]] * 40 + [[10, 10]], indexers)
    assert padded_length(instances[0], "tokens") == 4  # [CLS] a a [SEP]
    assert padded_length(instances[-1], "tokens") == 22
    batches = list(MaxPaddedTokensBatchSampler(max_tokens=44, sorting_keys=["tokens"]).get_batch_indices(instances))
    (alone,) = [batch for batch in batches if 40 in batch]
    assert len(alone) <= 2  # 44 // 22: with words as the measure it would share a batch with 21 others
    words_batches = MaxTokensBatchSampler(max_tokens=44, sorting_keys=["tokens"]).get_batch_indices(instances)
    assert max(len(batch) for batch in words_batches if 40 in batch) > 2


@settings(max_examples=25, deadline=None)
@given(
    lengths=st.lists(st.lists(st.integers(1, 10), min_size=1, max_size=8), min_size=1, max_size=30),
    max_tokens=st.integers(30, 120),
)
def test_no_batch_holds_more_padded_pieces_than_max_tokens(transformer_directory, lengths, max_tokens):
    indexers = {"tokens": PretrainedTransformerMismatchedIndexer(transformer_directory)}
    instances = sentences_of(lengths, indexers)
    sampler = MaxPaddedTokensBatchSampler(max_tokens=max_tokens, sorting_keys=["tokens"])
    batches = list(sampler.get_batch_indices(instances))
    assert sorted(index for batch in batches for index in batch) == list(range(len(instances)))
    for batch in batches:
        pieces = [2 + sum(lengths[index]) for index in batch]  # [CLS] and [SEP] around one piece per letter
        assert len(batch) == 1 or len(batch) * max(pieces) <= max_tokens


def test_over_words_of_one_id_the_batches_of_max_tokens_sampler():
    indexers = {"tokens": SingleIdTokenIndexer()}
    lengths = [[1] * random.Random(seed).randint(1, 30) for seed in range(60)]
    instances = sentences_of(lengths, indexers)
    made = []
    for sampler_type in (MaxTokensBatchSampler, MaxPaddedTokensBatchSampler):
        random.seed(7)  # the batches' order is shuffled; the sizes have no noise
        sampler = sampler_type(max_tokens=60, sorting_keys=["tokens"], padding_noise=0.0)
        made.append(list(sampler.get_batch_indices(instances)))
    assert made[0] == made[1]


def test_a_sorting_key_that_is_no_field_is_named():
    instances = sentences_of([[1, 2]], {"tokens": SingleIdTokenIndexer()})
    sampler = MaxPaddedTokensBatchSampler(max_tokens=60, sorting_keys=["words"])
    with pytest.raises(ValueError, match="sorting key 'words' is not a field"):
        list(sampler.get_batch_indices(instances))
