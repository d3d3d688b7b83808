"""The input pipeline: chunks prepared in worker processes come in input order, and the output does
not depend on how many workers prepared them."""

import pytest

from srl_zoo.commands.srl_label import label_corpus
from srl_zoo.labeling.chunks import BadLine, read_chunks
from srl_zoo.labeling.prepared_chunks import PreparedChunks, prepare_chunk, prepared_chunks
from tests.commands.conftest import write_corpus

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

DOCUMENTS = [f"Dog number {i} barks. The cat sleeps." if i % 3 else "Birds sing and fly." for i in range(23)]


def test_workers_deliver_every_chunk_in_order(labeler, tmp_path):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    for workers in (0, 1, 3):
        dataset = PreparedChunks(labeler, source, "text", 4, 2, 2, 4)
        chunks = list(prepared_chunks(dataset, workers, pin_memory=False))
        # from line 5 (2 chunks done): 10 chunks of 2 lines, the last (at the end) of 1
        assert [c.chunk.number for c in chunks] == list(range(2, 12))
        assert chunks[0].chunk.lines == [(5, DOCUMENTS[4]), (6, DOCUMENTS[5])]
        assert chunks[-1].chunk.at_end and chunks[-1].chunk.lines == [(23, DOCUMENTS[22])]


@pytest.mark.parametrize("workers", [1, 2])
def test_output_is_the_same_with_any_number_of_workers(labeler, tmp_path, workers):
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    outputs = []
    for count in (0, workers):
        out = tmp_path / f"out{count}.jsonl"
        label_corpus(labeler, source, str(out), chunk_lines=4, progress=False, workers=count)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and outputs[0].count(b"\n") == len(DOCUMENTS)


def test_a_line_that_fails_before_the_model_fails_alone(labeler, tmp_path):
    from srl_zoo.labeling.chunks import Chunk

    chunk = Chunk([(1, "Dogs bark."), (2, BadLine("f:2: invalid UTF-8")), (3, '{"text": 3}')], 3, "", False)
    prepared = prepare_chunk(labeler, chunk, "jsonl", "f", 8)
    assert sorted(prepared.failed) == [1, 2, 3]  # line 1 is not JSON; line 3's text is not a string
    prepared = prepare_chunk(labeler, chunk, "text", "f", 8)
    assert sorted(prepared.failed) == [2] and sorted(prepared.texts) == [1, 3]
    assert [key for batch in prepared.batches for key in batch.keys] == [(1, 0), (3, 0)]


def test_pretokenized_lines_in_the_batches_label_as_the_predictor_does(labeler, tmp_path):
    import json

    requests = [
        {"tokens": ["The", "dog", "barked", "at", "the", "mailman", "."]},
        {"tokens": ["Cats", "sleep"], "predicates": [1]},
        {"tokens": ["Birds", "sing", "and", "fly"], "heads": [2, 0, 2, 2]},  # heads: labeled as given
        {"tokens": ["Bush", "nominated", "two", "judges"], "predicates": []},
    ]
    source = write_corpus(tmp_path / "in.jsonl", [json.dumps(request) for request in requests])
    (chunk,) = list(read_chunks(source, 0, 9))
    prepared = prepare_chunk(labeler, chunk, "jsonl", source, 8)
    assert sorted(prepared.batched_tokens) == [1, 2, 4] and [n for n, _ in prepared.tokenized] == [3]
    out = tmp_path / "out.jsonl"
    label_corpus(labeler, source, str(out), progress=False)
    labeled = [json.loads(line)["sentences"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert labeled == [[output] for output in labeler.label_tokenized(requests)]


def test_corpus_batches_follow_the_apis_budget(labeler):
    """`srl-zoo label` cuts its batches by the labeler's one budget, the character bound included (before, by
    words and cells only: a line of long URL-like words shared a 64-sentence batch with short ones)."""
    from srl_zoo.labeling.chunks import Chunk

    long_line = " ".join(["="] * 88 + ["x" * 48])
    lines = [(number, "Dogs bark.") for number in range(1, 40)] + [(40, long_line)]
    prepared = prepare_chunk(labeler, Chunk(lines, 40, "", False), "text", "f", 64)
    batches = [[number for number, _ in batch.keys] for batch in prepared.batches]
    assert batches == [list(range(1, 40)), [40]]
    sentences = [words for number, _ in lines for words, _ in labeler.split(prepared.texts[number][0])]
    assert [[i + 1 for i in call] for call in labeler.budget.with_sentences(64).calls(sentences)] == batches
