"""`marked_predicate_transformer`: the token-type ids mark exactly the predicate's word pieces (against a
brute-force rebuild of allennlp's word pieces, folded or not), each frame gets its own encoding, and the
training signal reaches the transformer's token-type embeddings."""

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Token, Vocabulary
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import Embedding, PretrainedTransformerMismatchedEmbedder

from srl_zoo.modules.marked_predicate_transformer import MarkedPredicateTransformer, predicate_type_ids
from srl_zoo.parts.frame_features.frame_feature_inputs import FrameFeatureInputs
from tests.tiny_bert import SPLITTING_PIECES, write_tiny_bert

SENTENCES = [
    ["the", "unbelievable", "dog", "barked", "at", "strangers", "yesterday"],
    ["cats", "sleep"],
    ["antidisestablishment", "is", "a", "word", "that", "nobody", "uses", "unless", "joking"],
]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    """A 1-layer BERT (hidden 8) whose vocabulary splits most words into several pieces."""
    return write_tiny_bert(str(tmp_path_factory.mktemp("tiny_bert_types")), SPLITTING_PIECES)


def word_pieces(directory: str, word: str) -> list[int]:
    """The ids of one word's pieces, tokenized alone."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(directory)(word, add_special_tokens=False)["input_ids"]


def brute_force_marks(directory: str, words: list[str], predicate: int, max_length) -> list[int]:
    """allennlp's word-piece layout rebuilt word by word: [CLS] pieces [SEP], or with `max_length` the pieces
    cut into segments of max_length - 2, each in [CLS] ... [SEP]; 1 on the predicate's pieces."""
    pieces = [(piece, index == predicate) for index, word in enumerate(words) for piece in word_pieces(directory, word)]
    size = len(pieces) if max_length is None else max_length - 2
    marks: list[int] = []
    for start in range(0, len(pieces), size):
        marks += [0] + [int(marked) for _, marked in pieces[start : start + size]] + [0]
    return marks


@pytest.mark.parametrize("max_length", [None, 5, 8])
def test_the_marks_are_the_predicate_word_pieces(tiny_bert, max_length):
    indexer = PretrainedTransformerMismatchedIndexer(tiny_bert, max_length=max_length)
    vocab = Vocabulary()
    folding = None if max_length is None else (max_length, 1, 1)
    for words in SENTENCES:
        indexed = indexer.tokens_to_indices([Token(w) for w in words], vocab)
        token_ids, offsets = torch.tensor(indexed["token_ids"]), torch.tensor(indexed["offsets"])
        for predicate in range(len(words)):
            marks = predicate_type_ids(offsets[None], torch.tensor([predicate]), len(token_ids), folding)[0]
            assert marks.tolist() == brute_force_marks(tiny_bert, words, predicate, max_length)
            assert token_ids[marks.bool()].tolist() == word_pieces(tiny_bert, words[predicate])


def features_of(tiny_bert, words: list[str], predicates: list[int]):
    """The feature source prepared on a tiny-BERT embedder, and its features for one sentence."""
    indexer = PretrainedTransformerMismatchedIndexer(tiny_bert)
    vocab = Vocabulary()
    indices = indexer.tokens_to_indices([Token(w) for w in words], vocab)
    indexed = indexer.as_padded_tensor_dict(indices, indexer.get_padding_lengths(indices))
    tokens = {"tokens": {name: tensor[None] for name, tensor in indexed.items()}}
    embedder = BasicTextFieldEmbedder({"tokens": PretrainedTransformerMismatchedEmbedder(tiny_bert)})
    source = MarkedPredicateTransformer(vocab, embedder.get_output_dim(), dropout=0.0)
    source.prepare(embedder, predicts_pos=False)
    mask = torch.ones(1, len(words), dtype=torch.bool)
    inputs = FrameFeatureInputs(embedder(tokens), mask, torch.tensor([predicates]), tokens=tokens)
    return embedder, source, source(inputs)


def test_each_frame_is_encoded_with_its_own_predicate_and_learns_the_token_types(tiny_bert):
    embedder, source, features = features_of(tiny_bert, SENTENCES[0], [1, 3, -1])
    assert features.shape == (1, 3, len(SENTENCES[0]), 8)
    assert not torch.allclose(features[0, 0], features[0, 1])
    assert torch.equal(features[0, 2], torch.zeros_like(features[0, 2]))  # a padded frame
    assert not any(name.startswith("_transformer") for name, _ in source.named_parameters())  # shared, once
    features.pow(2).sum().backward()
    bert = embedder._token_embedders["tokens"]._matched_embedder.transformer_model
    assert bert.embeddings.token_type_embeddings.weight.grad[1].abs().sum() > 0


def test_a_batch_without_predicates_gets_zeros(tiny_bert):
    _, _, features = features_of(tiny_bert, SENTENCES[1], [-1])
    assert features.shape == (1, 1, 2, 8) and not features.any()


def test_an_embedder_without_a_transformer_is_refused():
    embedder = BasicTextFieldEmbedder({"tokens": Embedding(embedding_dim=4, num_embeddings=10)})
    with pytest.raises(ConfigurationError, match="needs a `pretrained_transformer_mismatched` embedder"):
        MarkedPredicateTransformer(Vocabulary(), 4).prepare(embedder, predicts_pos=False)
