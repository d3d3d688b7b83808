"""What can be checked cheaply of the GPU device call (scripts/device/prove_gpu.py): its jobs cover every paper
family of training_configs/, each of their configs builds, the plans adapt a config as they say, and what
travels leaves the shipped archives behind. The call itself is rehearsed by `make gpu-rehearsal`."""

import importlib.util
import json
import os
import re
import subprocess
import sys
import tarfile

import pytest
from allennlp.common import Params
from allennlp.data import DataLoader, DatasetReader, Vocabulary
from allennlp.models import Model

from tests.conftest import FIXTURES, REPO_ROOT
from tests.tiny_bert import write_tiny_bert

pytestmark = pytest.mark.slow  # builds models: not in `make test-fast`

FAMILIES_DIR = os.path.join(REPO_ROOT, "training_configs")


def load_script(name: str):
    """A module of scripts/device/ by its file name."""
    path = os.path.join(REPO_ROOT, "scripts", "device", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"device_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def load_call_module(name: str):
    """A module of the device call's package, scripts/device/gpu_call/ (prove_gpu.py imports it as `gpu_call`)."""
    directory = os.path.join(REPO_ROOT, "scripts", "device", "gpu_call")
    if "gpu_call" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "gpu_call", os.path.join(directory, "__init__.py"), submodule_search_locations=[directory]
        )
        assert spec and spec.loader
        package = importlib.util.module_from_spec(spec)
        sys.modules["gpu_call"] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"gpu_call.{name}")


plans = load_call_module("plans")
configs = load_call_module("configs")
files = load_call_module("files")
JOBS = [*plans.PAPER_JOBS, plans.SIX_LAYERS]


def imported_files(config: str, seen: frozenset = frozenset()) -> set[str]:
    """Every file `config` imports, directly or through the files it imports."""
    with open(config, encoding="utf-8") as handle:
        text = handle.read()
    direct = {os.path.normpath(os.path.join(os.path.dirname(config), p)) for p in re.findall(r"import '([^']+)'", text)}
    found = set(direct)
    for path in direct - seen - {config}:
        found |= imported_files(path, seen | {config})
    return found


def paper_families() -> set[str]:
    """The folders of training_configs/ that define a family in a libsonnet of their own name."""
    return {
        name
        for name in os.listdir(FAMILIES_DIR)
        if os.path.exists(os.path.join(FAMILIES_DIR, name, f"{name}.libsonnet"))
    }


def test_the_call_trains_every_paper_family():
    families = paper_families()
    assert {"deepatt", "selective_connection", "lisa", "amn", "crf", "minilm"} <= families
    covered = set()
    for job in JOBS:
        imported = imported_files(os.path.join(REPO_ROOT, job.config))
        covered |= {
            family for family in families if os.path.join(FAMILIES_DIR, family, f"{family}.libsonnet") in imported
        }
    assert covered == families


def test_every_job_runs_a_gpu_config_in_bfloat16():
    for job in JOBS:
        imported = imported_files(os.path.join(REPO_ROOT, job.config))
        assert os.path.join(FAMILIES_DIR, "common", "gpu.libsonnet") in imported, job.config


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    return write_tiny_bert(str(tmp_path_factory.mktemp("bert")), list("abcdefghijklmnopqrstuvwxyz"), hidden=16)


DATA = {
    "conll2005": "conll2005/sample.txt",
    "conll2012": "conll2012/sample.gold_conll",
    "conll2009": "conll2009/sample.txt",
}


@pytest.mark.parametrize("job", JOBS, ids=lambda job: job.name)
def test_each_job_config_builds_and_runs_a_batch(job, tiny_bert, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("SRL_TRANSFORMER", tiny_bert)
    monkeypatch.setenv("SRL_GLOVE", "")
    first_reading = Params.from_file(job.config)
    data = os.path.join(FIXTURES, DATA[first_reading["dataset_reader"]["type"]])
    monkeypatch.setenv("SRL_TRAIN_DATA", data)  # AMN's memory reads the training file
    monkeypatch.setenv("SRL_DEV_DATA", data)
    monkeypatch.setenv("SRL_TRAIN_TREES", os.path.join(FIXTURES, "conll2009", "sample.txt"))
    monkeypatch.setenv("SRL_DEV_TREES", os.path.join(FIXTURES, "conll2009", "sample.txt"))
    plan = plans.PLANS["rehearsal"]
    params = Params(configs.with_steps(Params.from_file(job.config).as_dict(quiet=True), plan, job, None))
    assert params["trainer"]["cuda_device"] == -1
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    instances = list(reader.read(data))
    vocab = Vocabulary.from_instances(instances)
    model = Model.from_params(vocab=vocab, params=params.pop("model"))
    loader = DataLoader.from_params(params.pop("data_loader"), reader=reader, data_path=data)
    loader.index_with(vocab)
    model.eval()
    assert model(**next(iter(loader)))["class_probabilities"].dim() == 4


def test_the_plans_fix_steps_devices_and_budgets():
    config = {
        "dataset_reader": {"type": "conll2005"},
        "data_loader": {"batch_sampler": {"type": "bucket", "batch_size": 8}},
        "trainer": {
            "num_epochs": 30,
            "patience": 5,
            "cuda_device": 0,
            "callbacks": [{"type": "time_budget", "minutes": 60}, {"type": "mixed_precision"}, {"type": "throughput"}],
        },
    }
    gpu, rehearsal = plans.PLANS["gpu"], plans.PLANS["rehearsal"]
    fixed = configs.with_steps(config, gpu, plans.PAPER_JOBS[0], None)
    assert fixed["trainer"]["num_epochs"] == 2 and "patience" not in fixed["trainer"]
    assert fixed["data_loader"]["batches_per_epoch"] == gpu.batches_per_epoch
    assert "batches_per_epoch" not in fixed["validation_data_loader"]  # the whole dev file
    assert fixed["validation_dataset_reader"]["max_instances"] is None
    assert [c["type"] for c in fixed["trainer"]["callbacks"]] == ["mixed_precision", "throughput"]
    six = configs.with_steps(config, gpu, plans.SIX_LAYERS, 5.0)
    assert six["trainer"]["num_epochs"] == 30 and "batches_per_epoch" not in six["data_loader"]
    assert {"type": "time_budget", "minutes": 5.0} in six["trainer"]["callbacks"]
    on_cpu = configs.with_steps(config, rehearsal, plans.SIX_LAYERS, None)
    assert on_cpu["trainer"]["cuda_device"] == -1
    assert [c["type"] for c in on_cpu["trainer"]["callbacks"]] == ["throughput"]
    assert on_cpu["dataset_reader"]["max_instances"] == rehearsal.max_train_sentences
    assert config["trainer"]["num_epochs"] == 30  # the evaluated config itself is left as it was


def test_the_labeling_plan_trains_the_measured_recipe_for_fixed_steps_not_a_whole_epoch():
    config = {
        "dataset_reader": {"type": "conll2012"},
        "data_loader": {"batch_sampler": {"type": "bucket", "batch_size": 8}},
        "trainer": {"num_epochs": 15, "cuda_device": 0, "callbacks": [{"type": "mixed_precision"}]},
    }
    plan = plans.PLANS["labeling"]
    (recipe,) = (job for job in plans.PAPER_JOBS if job.name == plans.THROUGHPUT_MODEL)
    assert recipe.full_epoch and plan.only_jobs == (recipe.name,) and plan.peer and not plan.six_layers
    fixed = configs.with_steps(config, plan, recipe, None)
    assert fixed["trainer"]["num_epochs"] == 2 and fixed["data_loader"]["batches_per_epoch"] == plan.batches_per_epoch
    assert fixed["dataset_reader"]["max_instances"] == plan.max_train_sentences
    assert fixed["validation_dataset_reader"]["max_instances"] == plan.max_dev_sentences
    whole = configs.with_steps(config, plans.PLANS["gpu"], recipe, None)
    assert whole["trainer"]["num_epochs"] == 1 and "batches_per_epoch" not in whole["data_loader"]
    assert plan.label_sentences >= 10000 and len(plan.label_batch_sizes) >= 3
    assert set(plan.label_allennlp_batch_sizes) < set(plan.label_batch_sizes)


def labeling_results(plan_name: str, runs: list[tuple[str, int]]) -> dict:
    """A call's results.json as prove_gpu.py writes it: its plan, one trained job, these labeling runs."""
    import dataclasses

    return {
        "plan": plan_name,
        "plan_settings": dataclasses.asdict(plans.PLANS[plan_name]),
        "jobs": {"minilm_l3_sc_crf": {"status": "trained", "archive_loads": True, "epochs": []}},
        "labeling": [{"run": run, "batch_size": size} for run, size in runs],
    }


def test_the_returned_call_is_checked_for_every_labeling_run_its_plan_asked_for():
    problems_of = load_script("returned").problems_of
    plan = plans.PLANS["labeling"]
    runtime = [(f"srl_zoo runtime {p}", size) for size in plan.label_batch_sizes for p in ("float32", "bfloat16")]
    compared = [
        (f"{who} {p}", size)
        for size in plan.label_allennlp_batch_sizes
        for who in ("srl_zoo", "srl_bert")
        for p in ("float32", "bfloat16")
    ]
    assert problems_of(labeling_results("labeling", runtime + compared)) == []
    assert problems_of(labeling_results("labeling", runtime[:-1] + compared)) == [
        "labeling: no srl_zoo runtime bfloat16 run at batch size 512"
    ]
    without_peer = [run for run in compared if not run[0].startswith("srl_bert")]
    assert problems_of(labeling_results("labeling", runtime + without_peer)) == [
        "labeling: no srl_bert float32 run at batch size 128",
        "labeling: no srl_bert bfloat16 run at batch size 128",
    ]
    whole = labeling_results("gpu", runtime + compared)
    assert problems_of(whole) == ["the 6-layer archive did not come back"]


def test_the_archive_check_labels_two_dev_sentences_through_srl_zoo_load(predicate_model_archive, monkeypatch, capsys):
    """What the call records of each job's archive: the labeler srl_zoo.load gives, and the frames it found at the
    gold predicates of the first two dev sentences of the archive's format."""
    check_archive = load_script("check_archive")
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setattr(sys, "argv", ["check_archive.py", predicate_model_archive])
    check_archive.main()
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["labeler"] == "RuntimeLabeler" and not record["on_gpu"]
    with tarfile.open(predicate_model_archive) as archive:
        config = json.load(archive.extractfile("config.json"))
    assert record["format"] == config["dataset_reader"]["type"]
    assert record["frames"] >= 2


def test_a_file_is_cut_into_parts_that_join_back(tmp_path, monkeypatch):
    data = os.urandom(2 * 1024 + 17)
    (tmp_path / "archive").write_bytes(data)
    monkeypatch.setattr(files, "PART_BYTES", 1024)
    names = files.split_file(str(tmp_path / "archive"), str(tmp_path), "archive.part")
    assert names == ["archive.part0", "archive.part1", "archive.part2"]
    assert b"".join((tmp_path / name).read_bytes() for name in names) == data


def test_the_call_runs_as_a_script_from_any_directory(tmp_path):
    """prove_gpu.py finds its package beside it, wherever it is started from (the device starts it at the root)."""
    done = subprocess.run(
        [sys.executable, os.path.join(REPO_ROOT, "scripts", "device", "prove_gpu.py"), "--help"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "--plan" in done.stdout and "labeling-rehearsal" in done.stdout


def test_what_travels_leaves_the_archives_docs_and_tests_behind():
    travel = load_script("travel")
    assert travel.left_behind("models/ewt-english.tar.gz") and travel.left_behind("docs/gpu.md")
    assert travel.left_behind("models/ewt-english-accurate.tar.gz")
    assert travel.left_behind("tests/test_device_call.py")
    assert not travel.left_behind("models/README.md") and not travel.left_behind("srl_zoo/api.py")
    assert not travel.left_behind("data/ewt/conll2012/train.gold_conll.gz")
