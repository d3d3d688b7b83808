"""The service through real HTTP on loopback: answers equal the Python API's, every bad request gets a
4xx JSON error, and the server keeps answering."""

import http.client
import json
import threading

import pytest

from tests.serving.conftest import spans_of

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

TEXT = "President Bush nominated two individuals.  The Senate\tconfirmed them on Tuesday."


def test_health_names_the_model_its_roles_and_precision(server, predicate_model_archive):
    status, health, _ = server.get("/health")
    assert status == 200
    assert health["status"] == "ok" and health["model"] == "model.tar.gz" and health["precision"] == "float32"
    assert "ARG0" in health["labels"] and "V" not in health["labels"] and "O" not in health["labels"]
    assert health["limits"]["max_request_tokens"] == 3000 and health["limits"]["max_sentence_words"] == 250
    assert health["precision_reason"] == "float32 as asked"
    measured = health["measured"]  # at start-up: requests that would outlast max_request_seconds are refused (413)
    assert measured["row_words_per_second"] > 0
    assert measured["row_words_within_max_request_seconds"] == pytest.approx(
        measured["row_words_per_second"] * health["limits"]["max_request_seconds"], rel=0.01
    )


def test_text_is_labeled_as_the_python_api_labels_it(server, labeler):
    status, answer, _ = server.post({"text": TEXT})
    assert status == 200
    expected = labeler(TEXT)
    assert [s["words"] for s in answer["sentences"]] == [s["words"] for s in expected]
    assert spans_of(answer["sentences"]) == spans_of(expected)
    for sentence, reference in zip(answer["sentences"], expected, strict=False):
        assert (sentence["start_char"], sentence["end_char"], sentence["text"]) == (
            reference["start_char"],
            reference["end_char"],
            reference["text"],
        )
        assert [(t["text"], TEXT[t["start_char"] : t["end_char"]]) for t in sentence["tokens"]] == [
            (word, word) for word in sentence["words"]
        ]
        for frame in sentence["frames"]:
            predicate = frame["predicate"]
            assert TEXT[predicate["start_char"] : predicate["end_char"]] == predicate["word"]
            assert {"lemma", "roleset", "roleset_name", "score"} <= set(predicate)
            assert all({"description", "score"} <= set(argument) for argument in frame["arguments"])
            for argument in frame["arguments"]:
                assert TEXT[argument["start_char"] : argument["end_char"]] == argument["text"]


def test_tokens_with_given_predicates(server, labeler):
    sentences = [["The", "Senate", "confirmed", "them", "."], ["Dogs", "bark", "."]]
    status, answer, _ = server.post({"sentences": sentences, "predicates": [[2], None]})
    assert status == 200
    first, second = answer["sentences"]
    assert [frame["predicate"]["index"] for frame in first["frames"]] == [2]
    assert first["text"] == "The Senate confirmed them ." and first["tokens"][2] == {
        "text": "confirmed",
        "start_char": 11,
        "end_char": 20,
    }
    expected = labeler.label_tokenized([{"tokens": sentences[0], "predicates": [2]}, {"tokens": sentences[1]}])
    assert spans_of(answer["sentences"]) == spans_of(expected)


BAD_REQUESTS = [
    (b'{"text": "unterminated', 400, "the body is not valid JSON: Unterminated string"),
    (b"\xff\xfe not utf-8", 400, "the body is not valid UTF-8 (byte 0)"),
    (b'["a list"]', 422, "expected a JSON object"),
    (b"{}", 422, "give 'text' (a string) or 'sentences' (a list of token lists)"),
    (b'{"text": 3}', 422, "'text' must be a string, got int"),
    (b'{"text": "a", "sentences": [["a"]]}', 422, "give either 'text'"),
    (b'{"txt": "a"}', 422, "unknown fields ['txt']: expected 'text', or 'sentences' and 'predicates'"),
    (b'{"text": ' + b"9" * 5000 + b"}", 400, "the body's JSON holds a value Python cannot read: Exceeds the limit"),
    (b'{"sentences": [["Dogs", "\\u200b"]]}', 422, "sentence 0: 'tokens': token 1 ('\\u200b') is only control or zero"),
    (b'{"sentences": [["\\u0007", "bark"]]}', 422, "sentence 0: 'tokens': token 0 ('\\x07') is only control or zero"),
    (b'{"text": "a", "extra": 1}', 422, "unknown fields ['extra']"),
    (b'{"sentences": "Dogs bark"}', 422, "'sentences' must be a list of token lists, got str"),
    (b'{"sentences": [[]]}', 422, "sentence 0 must be a non-empty list of tokens"),
    (b'{"sentences": [["Dogs", "b ark"]]}', 422, "sentence 0: 'tokens': token 1 ('b ark'): tokens are non-empty"),
    (b'{"sentences": [["Dogs", 3]]}', 422, "sentence 0: 'tokens': token 1 (3): tokens are non-empty strings"),
    (b'{"sentences": [["Dogs"]], "predicates": [[1]]}', 422, "sentence 0: 'predicates' must be a list of token"),
    (b'{"sentences": [["Dogs"]], "predicates": [true]}', 422, "sentence 0: 'predicates' must be a list"),
    (b'{"sentences": [["Dogs"]], "predicates": []}', 422, "'predicates' must be a list with one entry per sentence"),
    (b'{"text": "a", "predicates": [[0]]}', 422, "'predicates' goes with 'sentences'"),
    (b'{"text": "She left \\ud800 early."}', 422, "'text': character 9 ('\\ud800') is a lone surrogate"),
    (b'{"sentences": [["He", "\\udfff"]]}', 422, "sentence 0: 'tokens': token 1: character 0 ('\\udfff') cannot be"),
    (b"[" * 100_000 + b"]" * 100, 413, "the body is"),
]


@pytest.mark.parametrize("body, status, message", BAD_REQUESTS, ids=[str(i) for i in range(len(BAD_REQUESTS))])
def test_a_bad_request_is_a_json_error_and_the_server_stays_up(server, body, status, message):
    answered, answer, _ = server.post(raw=body)
    assert answered == status
    assert message in answer["error"]
    assert server.post({"text": "Dogs bark."})[0] == 200


@pytest.mark.parametrize("megabytes", [10, 100])
def test_a_body_over_the_limit_is_413_to_urllib_while_it_is_still_sending(server, megabytes):
    """A body far over the limit (more than the socket buffers hold) is read and dropped before the 413, so
    urllib, which sends the whole body before it reads, gets the answer, not a reset connection."""
    body = b'{"text": "' + b"a" * (megabytes * 1_000_000) + b'"}'
    status, answer, _ = server.post(raw=body)
    assert status == 413
    assert answer["error"] == f"the body is {len(body)} bytes; the limit is 100000 (max_body_bytes)"
    assert server.post({"text": "Dogs bark."})[0] == 200


def test_a_body_past_the_discarded_bound_closes_at_once(predicate_model_archive):
    from tests.serving.conftest import Server

    server = Server(predicate_model_archive, "--max-body-bytes", "1000", "--max-discarded-body-bytes", "10000")
    try:
        with pytest.raises(OSError):  # answered 413 unread and closed: urllib, still sending, sees the reset
            server.post(raw=b"a" * 20_000_000)
        assert server.post({"text": "Dogs bark."})[0] == 200
    finally:
        server.stop()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""])
def test_a_host_header_the_service_is_not_reached_by_is_400(server, host):
    """DNS rebinding: a page on another site reaches loopback with its own name in `Host`."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("GET", "/health", skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 400
        assert json.loads(response.read())["error"].startswith(f"Host {host!r} is not a name this service answers")
    finally:
        connection.close()
    for allowed in (f"localhost:{server.port}", "127.0.0.1", f"[::1]:{server.port}"):
        assert server.request("GET", "/health", headers={"Host": allowed})[0] == 200


def test_too_many_predicate_rows_names_the_limit(server):
    words = [f"w{i}" for i in range(250)]
    status, answer, _ = server.post({"sentences": [words] * 11, "predicates": [list(range(250))] * 11})
    assert status == 413
    assert answer["error"].startswith("the request costs 687500 predicate rows x words")
    assert answer["error"].endswith("the limit is 630000 (max_request_row_words)")


def test_too_many_tokens_names_the_limit(server):
    status, answer, _ = server.post({"sentences": [["word"] * 1000] * 4})
    assert status == 413
    assert answer["error"] == "the request has 4000 tokens; the limit is 3000 (max_request_tokens)"


@pytest.mark.parametrize(
    "headers",
    [{}, {"Content-Type": "text/plain"}, {"Content-Type": "application/x-www-form-urlencoded"}],
    ids=["none", "text", "form"],
)
def test_a_body_not_declared_json_is_415(server, headers):
    status, answer, _ = server.request("POST", "/api/label", b'{"text": "Dogs bark."}', headers)
    assert status == 415 and "Content-Type: application/json" in answer["error"]
    with_charset = {"Content-Type": "application/json; charset=utf-8"}
    assert server.request("POST", "/api/label", b'{"text": "Dogs bark."}', with_charset)[0] == 200


def test_a_sentence_longer_than_the_limit_is_413_and_one_at_the_limit_is_answered(server):
    words = (["the", "old", "man", "saw", "a", "dog", "near", "the", "river", "and"] * 30)[:251]
    status, answer, _ = server.post({"sentences": [["Dogs", "bark"], words]})
    assert status == 413
    assert answer["error"].startswith("sentence 1 has 251 words; the limit is 250 (max_sentence_words")
    status, answer, _ = server.post({"sentences": [words[:250]]})
    assert status == 200 and len(answer["sentences"][0]["words"]) == 250


def test_unknown_paths_and_methods_are_json_errors(server):
    status, answer, _ = server.get("/nope")
    assert status == 404 and answer["error"] == "Not Found: GET /nope"
    status, answer, _ = server.get("/api/label")
    assert status == 405 and "GET /api/label" in answer["error"]


def test_64_concurrent_clients_each_get_their_own_answer(server, labeler):
    texts = [f"Dogs number {i} barked at cats." if i % 2 else f"The Senate confirmed judge {i}." for i in range(64)]
    answers = [None] * len(texts)

    def client(i):
        answers[i] = server.post({"text": texts[i]})

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = list(labeler.pipe(texts))
    for text, (status, answer, _), reference in zip(texts, answers, expected, strict=False):
        assert status == 200
        assert answer["sentences"][0]["text"] == text
        assert spans_of(answer["sentences"]) == spans_of(reference)
    _, metrics, _ = server.get("/metrics")
    batches = dict(line.rsplit(" ", 1) for line in metrics.splitlines() if line.startswith("srl_zoo_batch_sentences"))
    model_calls = int(batches["srl_zoo_batch_sentences_count"])
    labeled = float(batches["srl_zoo_batch_sentences_sum"])
    assert labeled / model_calls > 1, "concurrent requests share model calls"


def test_metrics_are_prometheus_text(server):
    server.post({"text": "Dogs bark."})
    status, text, headers = server.get("/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain")
    lines = text.splitlines()
    assert "# TYPE srl_zoo_requests_total counter" in lines
    assert any(line.startswith('srl_zoo_requests_total{status="200"} ') for line in lines)
    assert any(line.startswith('srl_zoo_request_seconds_bucket{le="+Inf"} ') for line in lines)
    assert "# TYPE srl_zoo_queue_sentences gauge" in lines
    json.dumps(text)  # plain text, nothing binary
