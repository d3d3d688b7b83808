"""`srl-zoo label` runs without allennlp: with importing allennlp made to fail, a shipped archive labels a text file
as `srl_zoo.load`'s allennlp predictor does, and an archive with a part the runtime does not build (an allennlp
encoder) is refused in one line that names the part and the allennlp command, with nothing written."""

import json
import os
import subprocess
import sys

import srl_zoo.api
from tests.archive_rewriting import rewritten_archive
from tests.conftest import REPO_ROOT

#: `srl-zoo ARGUMENTS` in a process where `import allennlp` raises ImportError
SRL_ZOO_WITHOUT_ALLENNLP = """
import sys
sys.modules["allennlp"] = None
from srl_zoo.cli import main
try:
    main(sys.argv[1:])
finally:
    print("allennlp imported:", any(m.startswith("allennlp.") for m in sys.modules if sys.modules[m]), file=sys.stderr)
"""

TEXTS = [
    "Bush nominated two judges on Monday.",
    "The Senate confirmed them a week later, and the president thanked it.",
    "",
    "Rain fell.",
]


def srl_zoo_without_allennlp(*arguments: str, cwd) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": REPO_ROOT, "OMP_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "-c", SRL_ZOO_WITHOUT_ALLENNLP, *arguments],
        capture_output=True, text=True, cwd=cwd, env=environment, timeout=900,
    )  # fmt: skip


def test_label_labels_a_text_file_without_allennlp_as_the_allennlp_predictor_does(tmp_path):
    archive = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
    (tmp_path / "texts.txt").write_text("\n".join(TEXTS) + "\n")
    done = srl_zoo_without_allennlp(
        "label", archive, "texts.txt", "-o", "out.jsonl", "--no-progress", "--precision", "float32", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "allennlp imported: False" in done.stderr
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [record["line"] for record in records] == [1, 2, 4]  # a blank line has no record
    expected = srl_zoo.api.load(archive, precision="float32")
    for record, text in zip(records, [TEXTS[0], TEXTS[1], TEXTS[3]], strict=True):
        theirs = expected(text)
        assert [s["words"] for s in record["sentences"]] == [s["words"] for s in theirs]
        for mine, other in zip(record["sentences"], theirs, strict=True):
            assert [f["tags"] for f in mine["frames"]] == [f["tags"] for f in other["frames"]]
            assert [f["predicate"]["start_char"] for f in mine["frames"]] == [
                f["predicate"]["start_char"] for f in other["frames"]
            ]
    assert sum(len(s["frames"]) for record in records for s in record["sentences"]) >= 4


def test_label_refuses_an_archive_the_runtime_does_not_build_in_one_line_without_allennlp(
    tmp_path, predicate_model_archive
):
    def lstm_encoder(config):
        config["model"]["frame_scorer"]["encoder"]["type"] = "lstm"

    archive = rewritten_archive(predicate_model_archive, str(tmp_path / "lstm.tar.gz"), lstm_encoder)
    (tmp_path / "texts.txt").write_text("Bush nominated two judges.\n")
    done = srl_zoo_without_allennlp("label", archive, "texts.txt", "-o", "out.jsonl", cwd=tmp_path)
    assert done.returncode == 1
    message = done.stderr.replace("allennlp imported: False", "").strip()
    assert len(message.splitlines()) == 1, message
    assert message.startswith(f"srl-zoo label: {archive}: model.frame_scorer.encoder.type 'lstm' ")
    assert "is not in the allennlp-free runtime yet; label with allennlp: `allennlp predict" in message
    assert not (tmp_path / "out.jsonl").exists()
