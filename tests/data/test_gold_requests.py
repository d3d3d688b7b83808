"""A gold file's first sentences as requests at their gold predicates, batched by length."""

from srl_zoo.data.formats import READERS
from srl_zoo.data.gold_requests import gold_predicate_batches, gold_sentence_batches
from tests.conftest import fixture_path

SAMPLE = fixture_path("conll2012", "sample.gold_conll")


def test_the_first_sentences_at_their_gold_predicates_in_batches_by_length():
    sentences = list(READERS["conll2012"](SAMPLE))[:7]
    batches, tokens = gold_predicate_batches(SAMPLE, sentences=7, batch_size=3)  # the format is told from the file
    assert [len(batch) for batch in batches] == [3, 3, 1]
    requests = [request for batch in batches for request in batch]
    lengths = [len(request["tokens"]) for request in requests]
    assert lengths == sorted(lengths) and tokens == sum(len(s.tokens) for s in sentences)
    expected = sorted(((s.tokens, [f.index for f in s.frames], s.pos) for s in sentences), key=lambda e: len(e[0]))
    got = [(r["tokens"], r["predicates"], r["pos"]) for r in requests]
    assert sorted(map(repr, got)) == sorted(map(repr, expected))


def test_the_sentence_batches_are_the_requests_batches():
    sentence_batches, tokens = gold_sentence_batches(SAMPLE, sentences=7, batch_size=3)
    request_batches, request_tokens = gold_predicate_batches(SAMPLE, sentences=7, batch_size=3)
    assert tokens == request_tokens
    assert [[s.tokens for s in batch] for batch in sentence_batches] == [
        [r["tokens"] for r in batch] for batch in request_batches
    ]
