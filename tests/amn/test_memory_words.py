"""The associated memory's words under a transformer: a word is the mean of its word pieces' input embeddings
(the first MAX_PIECES_PER_WORD: `antidisestablishment` has 20 here), against a brute-force rebuild from the
tokenizer, with and without allennlp's folding; the same vector whether the word is in the batch or in the
remembered sentences; any other embedder is a one-line error."""

import pytest
import torch
from allennlp.data import Token, Vocabulary
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import Embedding, PretrainedTransformerMismatchedEmbedder

from srl_zoo.amn.memory_words import MAX_PIECES_PER_WORD, ModelWordEmbedding, TransformerPieceEmbedding, memory_words_of
from srl_zoo.parts.frame_features.frame_feature_inputs import FrameFeatureInputs
from tests.tiny_bert import SPLITTING_PIECES, write_tiny_bert

SENTENCES = [
    ["The", "unbelievable", "dog", "barked", "at", "strangers", "yesterday"],
    ["cats", "sleep"],
    ["antidisestablishment", "is", "a", "word", "nobody", "uses", "%", "the", "dog"],
]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    """Most words split into several pieces; `%` is not in the vocabulary ([UNK])."""
    return write_tiny_bert(str(tmp_path_factory.mktemp("tiny_bert_memory")), SPLITTING_PIECES)


def brute_force(tiny_bert, embedding: torch.nn.Embedding, word: str) -> torch.Tensor:
    """The mean input embedding of the word's first MAX_PIECES_PER_WORD pieces, tokenized alone."""
    from transformers import AutoTokenizer

    pieces = AutoTokenizer.from_pretrained(tiny_bert)(word, add_special_tokens=False)["input_ids"]
    return embedding.weight[pieces[:MAX_PIECES_PER_WORD]].mean(0)


def prepared(tiny_bert, max_length=None):
    """The memory's words on a tiny-BERT embedder, and the batch of SENTENCES as the indexer makes it, as the
    Model hands it to a feature source."""
    indexer = PretrainedTransformerMismatchedIndexer(tiny_bert, max_length=max_length)
    transformer = PretrainedTransformerMismatchedEmbedder(tiny_bert, max_length=max_length)
    words = memory_words_of(BasicTextFieldEmbedder({"tokens": transformer}), Vocabulary(), lowercase=False)
    indexed = [indexer.tokens_to_indices([Token(w) for w in sentence], Vocabulary()) for sentence in SENTENCES]
    lengths = {
        key: max(indexer.get_padding_lengths(i)[key] for i in indexed)
        for key in indexer.get_padding_lengths(indexed[0])
    }
    padded = [indexer.as_padded_tensor_dict(i, lengths) for i in indexed]
    tokens = {"tokens": {name: torch.stack([p[name] for p in padded]) for name in padded[0]}}
    mask = tokens["tokens"]["mask"]
    return words, FrameFeatureInputs(torch.zeros(*mask.shape, 8), mask, torch.zeros(len(SENTENCES), 1), tokens=tokens)


@pytest.mark.parametrize("max_length", [None, 6])
def test_a_batch_word_is_the_mean_of_its_pieces(tiny_bert, max_length):
    words, inputs = prepared(tiny_bert, max_length)
    assert isinstance(words, TransformerPieceEmbedding)
    with torch.no_grad():
        vectors = words.embed_targets(inputs)
        for s, sentence in enumerate(SENTENCES):
            for w, word in enumerate(sentence):
                assert torch.allclose(vectors[s, w], brute_force(tiny_bert, words.piece_embedding, word), atol=1e-6)


def test_a_remembered_word_has_the_same_vector(tiny_bert):
    words, inputs = prepared(tiny_bert)
    ids = words.index(SENTENCES)
    assert ids.shape == (3, 9) and ids[1, 2:].eq(0).all()
    with torch.no_grad():
        remembered, batch = words.embed_ids(ids), words.embed_targets(inputs)
    for s, sentence in enumerate(SENTENCES):
        assert torch.allclose(remembered[s, : len(sentence)], batch[s, : len(sentence)], atol=1e-6)


def test_a_single_id_embedder_keeps_the_model_words_and_anything_else_is_an_error(tiny_bert):
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["the", "dog"], "tokens")
    single = BasicTextFieldEmbedder({"tokens": Embedding(embedding_dim=4, num_embeddings=vocab.get_vocab_size())})
    words = memory_words_of(single, vocab, lowercase=True)
    assert isinstance(words, ModelWordEmbedding) and words.index([["The", "dog", "cat"]]).tolist() == [[2, 3, 1]]
    assert words.vocabulary_vectors().shape == (vocab.get_vocab_size(), 4)
    both = BasicTextFieldEmbedder({"tokens": Embedding(embedding_dim=4, num_embeddings=4),
                                   "chars": PretrainedTransformerMismatchedEmbedder(tiny_bert)})  # fmt: skip
    with pytest.raises(ValueError, match="exactly one single-id 'tokens' embedding or one pretrained_transformer"):
        memory_words_of(both, vocab, lowercase=True)
