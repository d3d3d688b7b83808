"""The allennlp-free runtime gives the allennlp predictor's labels: every shipped archive labels the same sentences
in a subprocess where importing allennlp raises ImportError, and its predicates, tags and scores are the
predictor's (scores within 1e-4, float32)."""

import json
import os
import subprocess
import sys

import pytest

import srl_zoo.api
from tests.conftest import REPO_ROOT, fixture_path

ARCHIVES = ["ewt-english.tar.gz", "ewt-english-glove.tar.gz", "ewt-english-accurate.tar.gz"]

LABEL_WITHOUT_ALLENNLP = """
import json, sys
sys.modules["allennlp"] = None  # importing allennlp (or any of its modules) raises ImportError
import torch
torch.set_num_threads(1)
from srl_zoo.runtime.labeler import load
requests = json.load(open(sys.argv[2]))
labeler = load(sys.argv[1], precision="float32")
print(json.dumps(labeler.label_tokenized(requests)))
print("no allennlp:", not any(m == "allennlp" or m.startswith("allennlp.") for m in sys.modules if sys.modules[m]))
print("transformers:", "transformers" in sys.modules)
"""


def dev_requests(count: int) -> list[dict]:
    """The first `count` sentences of the EWT fixture, half with their gold predicates given."""
    from srl_zoo.data.formats import read_conll2012

    sentences = list(read_conll2012(fixture_path("conll2012", "sample.gold_conll")))[:count]
    return [
        {"tokens": s.tokens} if i % 2 else {"tokens": s.tokens, "predicates": [f.index for f in s.frames]}
        for i, s in enumerate(sentences)
    ]


@pytest.mark.parametrize("archive", ARCHIVES)
def test_the_runtime_labels_as_the_allennlp_predictor_without_importing_allennlp(archive, tmp_path):
    path = os.path.join(REPO_ROOT, "models", archive)
    if "accurate" in archive:
        from srl_zoo.pretrained import mpnet

        mpnet.check_encoder_directory(mpnet.DEFAULT_DIRECTORY)  # `make test` builds it; an error says how
    requests = dev_requests(20)
    (tmp_path / "requests.json").write_text(json.dumps(requests))
    done = subprocess.run(
        [sys.executable, "-c", LABEL_WITHOUT_ALLENNLP, path, str(tmp_path / "requests.json")],
        capture_output=True, text=True, cwd=tmp_path, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines[-2] == "no allennlp: True"
    # MiniLM is a BERT: computed by srl_zoo's own, without importing transformers; MPNet needs it
    assert lines[-1] == f"transformers: {'accurate' in archive}"
    runtime = json.loads(lines[-3])
    expected = srl_zoo.api.load(path, batch_size=64, precision="float32").label_tokenized(requests)
    assert sum(len(s["frames"]) for s in expected) > 10
    for mine, theirs in zip(runtime, expected, strict=True):
        assert mine["words"] == theirs["words"]
        assert [f["predicate"]["index"] for f in mine["frames"]] == [f["predicate"]["index"] for f in theirs["frames"]]
        for frame, other in zip(mine["frames"], theirs["frames"], strict=True):
            assert frame["tags"] == other["tags"]
            assert frame["predicate"].get("sense") == other["predicate"].get("sense")
            assert frame["predicate"]["score"] == pytest.approx(other["predicate"]["score"], abs=1e-4)
            assert [a["role"] for a in frame["arguments"]] == [a["role"] for a in other["arguments"]]
            assert [a["score"] for a in frame["arguments"]] == pytest.approx(
                [a["score"] for a in other["arguments"]], abs=1e-4
            )
            assert frame["description"] == other["description"]


def test_an_archive_whose_encoder_needs_transformers_says_so_in_one_line_where_it_is_not_installed(tmp_path):
    path = os.path.join(REPO_ROOT, "models", "ewt-english-accurate.tar.gz")
    script = (
        "import sys\nsys.modules['transformers'] = None\nfrom srl_zoo.runtime.labeler import load\n"
        "try:\n    load(sys.argv[1])\nexcept ValueError as error:\n    print(type(error).__name__, error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, path], capture_output=True, text=True, cwd=tmp_path, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == (
        f"ArchiveError {path}: its encoder (mpnet) needs transformers, not installed here: "
        "pip install 'transformers>=4.25.1' (or srl_zoo with its extra: pip install '.[transformers]')"
    )


def test_a_word_table_missing_from_the_weights_is_one_archive_error(tmp_path):
    from srl_zoo.archive_files import ArchiveError
    from srl_zoo.runtime.labeler import load
    from tests.archive_rewriting import rewritten_archive

    table = "text_field_embedder.token_embedder_tokens.weight"
    broken = rewritten_archive(
        os.path.join(REPO_ROOT, "models", "ewt-english-glove.tar.gz"),
        str(tmp_path / "broken.tar.gz"),
        lambda config: None,
        lambda name: "renamed." + name if name == table else name,
    )
    with pytest.raises(ArchiveError) as raised:
        load(broken)
    assert str(raised.value) == (
        f"{broken}: weights.th: the weights do not fit the model: 1 missing (first: {table}); "
        f"1 unexpected (first: renamed.{table})"
    )
