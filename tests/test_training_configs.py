"""Every config in training_configs/ parses, and its reader, model and data loader build on fixtures."""

import glob
import json
import os
import re

import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DataLoader, DatasetReader, Vocabulary
from allennlp.models import Model

from srl_zoo.config_defaults import CONFIG_VARIABLES
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

# training_configs/peers/ are allennlp-models' models (the leaderboard's peers), never srl_zoo's:
# tests/leaderboard/test_peers.py checks them beside allennlp-models
ALL_CONFIGS = sorted(
    config
    for config in glob.glob(os.path.join(REPO_ROOT, "training_configs", "**", "*.jsonnet"), recursive=True)
    if os.sep + "peers" + os.sep not in config
)
# the transformer configs need a local model: test_transformer_configs.py and
# tests/pretrained/test_minilm_model.py write a tiny one and train them
TRANSFORMER_FOLDERS = ("transformer", "minilm")


def mentions(config: str, needle: str, seen: frozenset = frozenset()) -> bool:
    """Whether `needle` is in the config or in a file it imports (directly or not)."""
    with open(config, encoding="utf-8") as handle:
        text = handle.read()
    imported = {
        os.path.normpath(os.path.join(os.path.dirname(config), p)) for p in re.findall(r"import '([^']+)'", text)
    }
    return needle in text or any(
        mentions(path, needle, seen | {config}) for path in imported - seen - {config} if os.path.exists(path)
    )


def reads_a_transformer(config: str) -> bool:
    """In a transformer folder, or built on the MiniLM recipe (directly or through the files it imports)."""
    return any(os.sep + folder + os.sep in config for folder in TRANSFORMER_FOLDERS) or mentions(
        config, "minilm.libsonnet"
    )


#: what a config that needs a local transformer says when it is not there (the accurate model's: MPNet)
MISSING_TRANSFORMER = "SRL_TRANSFORMER is unset and .cache/minilm does not exist: run `make mini"
MISSING_MPNET = "SRL_MPNET is unset and .cache/mpnet does not exist: run `make mpnet`"


CONFIGS = [c for c in ALL_CONFIGS if not reads_a_transformer(c)]
DATA = {
    "conll2005": "conll2005/sample.txt",
    "conll2012": "conll2012/sample.gold_conll",
    "conll2009": "conll2009/sample.txt",
}


def test_there_are_configs_for_each_sublayer_and_dataset():
    names = {os.path.relpath(c, os.path.join(REPO_ROOT, "training_configs")) for c in ALL_CONFIGS}
    for sublayer in ("ffn", "glu", "bilstm"):
        for dataset in ("conll2005", "conll2012"):
            assert f"deepatt/{sublayer}_{dataset}.jsonnet" in names
    for dataset in ("conll2005", "conll2012"):
        assert {
            f"selective_connection/sc_{dataset}.jsonnet",
            f"selective_connection/sc_bilstm_{dataset}.jsonnet",
        } <= names
    for dataset in ("conll2005", "conll2012", "conll2009"):
        assert f"lisa/lisa_{dataset}.jsonnet" in names
    assert {
        "lisa/lisa_small_conll2012.jsonnet",
        "lisa/lisa_cpu_budget_conll2012.jsonnet",
        "lisa/sa_baseline_conll2012.jsonnet",
    } <= names
    for family in ("deepatt_glu", "sc_bilstm", "lisa", "bilstm"):
        assert f"transformer/{family}_conll2012.jsonnet" in names
    assert {
        "amn/bilstm_base_conll2009.jsonnet",
        "amn/bilstm_memory_conll2009.jsonnet",
        "amn/bilstm_memory_small_conll2009.jsonnet",
        "amn/bilstm_memory_small_conll2012.jsonnet",
    } <= names


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: os.path.relpath(c, REPO_ROOT))
def test_config_builds(config, monkeypatch):
    monkeypatch.setenv("SRL_BUDGET_MINUTES", "1")
    monkeypatch.setenv("SRL_TRAIN_DATA", "unused")
    monkeypatch.setenv("SRL_DEV_DATA", "unused")
    monkeypatch.setenv("SRL_GLOVE", os.path.join(FIXTURES, "glove", "sample.50d.txt.gz"))
    monkeypatch.setenv("SRL_TRAIN_TREES", "unused-trees")
    monkeypatch.setenv("SRL_DEV_TREES", "unused-trees")
    monkeypatch.setenv("SRL_CUDA_DEVICES", "-1,-1")
    first_reading = Params.from_file(config)
    data = os.path.join(FIXTURES, DATA[first_reading["dataset_reader"]["type"]])
    if "frame_features" in first_reading["model"]:  # AMN's memory reads the training file
        monkeypatch.setenv("SRL_TRAIN_DATA", data)
    params = Params.from_file(config)
    reader_params = params.pop("dataset_reader")
    reader = DatasetReader.from_params(reader_params)
    instances = list(reader.read(data))
    vocab = Vocabulary.from_instances(instances)
    model = Model.from_params(vocab=vocab, params=params.pop("model"))
    loader = DataLoader.from_params(params.pop("data_loader"), reader=reader, data_path=data)
    loader.index_with(vocab)
    batch = next(iter(loader))
    model.eval()
    assert model(**batch)["class_probabilities"].dim() == 4
    assert params["trainer"]["validation_metric"] == "+f1-measure-overall"


CONFIG_PER_FORMAT = {
    "conll2005": ("deepatt", "ffn_conll2005.jsonnet"),
    "conll2012": ("selective_connection", "sc_conll2012.jsonnet"),
    "conll2009": ("amn", "bilstm_base_conll2009.jsonnet"),
}


@pytest.mark.parametrize("data_format", sorted(CONFIG_PER_FORMAT))
def test_empty_data_paths_mean_the_bundled_ewt_files_from_any_directory(data_format, monkeypatch, tmp_path):
    monkeypatch.setenv("SRL_TRAIN_DATA", "")  # what importing srl_zoo defines for an unset variable
    monkeypatch.setenv("SRL_DEV_DATA", "")
    folder, name = CONFIG_PER_FORMAT[data_format]
    bundled = os.path.join(REPO_ROOT, "data", "ewt", data_format)
    expected = {split: glob.glob(os.path.join(bundled, split + ".*gz")) for split in ("train", "dev")}
    assert all(len(paths) == 1 for paths in expected.values())
    # the paths are relative to the directory the config is read from: try three of them
    for cwd, config in (
        (REPO_ROOT, os.path.join("training_configs", folder, name)),
        (os.path.join(REPO_ROOT, "training_configs", folder), name),
        (str(tmp_path), os.path.join(REPO_ROOT, "training_configs", folder, name)),
    ):
        monkeypatch.chdir(cwd)
        params = Params.from_file(config)
        assert os.path.samefile(params["train_data_path"], expected["train"][0])
        assert os.path.samefile(params["validation_data_path"], expected["dev"][0])


def test_data_path_variables_override_the_bundled_files(monkeypatch):
    monkeypatch.setenv("SRL_TRAIN_DATA", "/data/conll05/train.txt")
    monkeypatch.setenv("SRL_DEV_DATA", "/data/conll05/dev.txt")
    params = Params.from_file(os.path.join(REPO_ROOT, "training_configs", "deepatt", "ffn_conll2005.jsonnet"))
    assert (params["train_data_path"], params["validation_data_path"]) == (
        "/data/conll05/train.txt",
        "/data/conll05/dev.txt",
    )


def test_undefined_data_path_names_the_variable():
    """jsonnet without the srl_zoo plugin (no ext vars) names the variable it lacks."""
    import _jsonnet

    with pytest.raises(RuntimeError, match="SRL_TRAIN_DATA"):
        _jsonnet.evaluate_file(os.path.join(REPO_ROOT, "training_configs", "deepatt", "ffn_conll2005.jsonnet"))


GPU_DISTRIBUTED = os.path.join("gpu", "lisa_glove_conll2005_distributed.jsonnet")
#: what test_every_config_runs_as_written did with each config (tests/conftest.py prints the counts)
CONFIG_RUNS: dict = {}


def as_a_new_user_would(monkeypatch, data_format=None) -> None:
    """The environment of a fresh clone: no SRL_* variable set (srl_zoo reads each unset one as ''),
    no `make glove` file, and, given a format, only the data shrunk to the fixture sample (with its
    dependency trees, the same sentences, for LISA)."""
    for name in CONFIG_VARIABLES:
        monkeypatch.setenv(name, "")
    if data_format is not None:
        sample = os.path.join(FIXTURES, DATA[data_format])
        for name in ("SRL_TRAIN_DATA", "SRL_DEV_DATA"):
            monkeypatch.setenv(name, sample)
        for name in ("SRL_TRAIN_TREES", "SRL_DEV_TREES"):
            monkeypatch.setenv(name, os.path.join(FIXTURES, DATA["conll2009"]))


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=lambda c: os.path.relpath(c, REPO_ROOT))
def test_every_config_runs_as_written(config, monkeypatch, tmp_path):
    """Each config trains for an epoch on the fixture sample (a few batches) and validates, with no
    variable set but the data; GPU configs on the CPU. Without `make minilm` (the 83 MB encoder is never
    needed by the tests) the transformer configs say which command makes it; test_transformer_configs.py
    trains them with a tiny local model."""
    as_a_new_user_would(monkeypatch)
    monkeypatch.chdir(tmp_path)  # from outside the repository
    if reads_a_transformer(config):
        missing = MISSING_MPNET if mentions(config, "SRL_MPNET") else MISSING_TRANSFORMER
        with pytest.raises(Exception, match=re.escape(missing)):
            Params.from_file(config)
        CONFIG_RUNS[config] = "needs a local transformer (says so)"
        return
    data_format = Params.from_file(config)["dataset_reader"]["type"]
    if config.endswith(GPU_DISTRIBUTED):  # two GPU processes by default: checked to build, not started
        assert Params.from_file(config)["distributed"]["cuda_devices"] == [0, 1]
        CONFIG_RUNS[config] = "built (two GPU processes)"
        return
    as_a_new_user_would(monkeypatch, data_format)
    overrides = {"trainer.num_epochs": 1}
    if "cuda_device" in Params.from_file(config)["trainer"]:
        overrides["trainer.cuda_device"] = -1
    model = train_model_from_file(config, str(tmp_path / "run"), overrides=json.dumps(overrides))
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert metrics["epoch"] == 0 and any(key.startswith("validation_") for key in metrics)
    assert model is not None
    CONFIG_RUNS[config] = "trained and validated"


PAPER_SIZE_LISA = ["lisa_conll2005", "lisa_conll2009", "lisa_conll2012", "sa_baseline_conll2012"]


@pytest.mark.parametrize("name", PAPER_SIZE_LISA)
def test_paper_size_lisa_configs_are_for_a_gpu(name):
    """They do not fit in 24 GB on a CPU (23.7 GB at batch 19 of 49 on EWT): they name GPU 0."""
    assert (
        Params.from_file(os.path.join(REPO_ROOT, "training_configs", "lisa", f"{name}.jsonnet"))["trainer"][
            "cuda_device"
        ]
        == 0
    )


def test_a_gpu_config_on_a_machine_without_one_stops_at_once_saying_how_to_run_on_cpu(monkeypatch, tmp_path):
    import torch.cuda

    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    as_a_new_user_would(monkeypatch, "conll2012")
    config = os.path.join(REPO_ROOT, "training_configs", "lisa", "lisa_conll2012.jsonnet")
    cpu = """run it on the CPU with -o '{"trainer.cuda_device": -1}'"""
    with pytest.raises(
        ConfigurationError, match=re.escape(f"trainer.cuda_device is 0 but this machine has 0 GPU(s): {cpu}")
    ):
        train_model_from_file(config, str(tmp_path / "run"))
    assert not (tmp_path / "run").exists()
    distributed = os.path.join(REPO_ROOT, "training_configs", GPU_DISTRIBUTED)
    with pytest.raises(ConfigurationError, match=re.escape("""distributed.cuda_devices is [0, 1] but this machine""")):
        train_model_from_file(distributed, str(tmp_path / "run2"))


def flattened(params: dict, prefix: str = "") -> dict:
    """`{"a.b": value}` for every leaf of a nested config."""
    leaves = {}
    for key, value in params.items():
        if isinstance(value, dict) and value:
            leaves.update(flattened(value, f"{prefix}{key}."))
        else:
            leaves[f"{prefix}{key}"] = value
    return leaves


def normalized(value):
    """A string with its `folder/..` parts taken out (`os.path.normpath`), other values as they are."""
    return os.path.normpath(value) if isinstance(value, str) else value


GPU_ROWS = sorted(glob.glob(os.path.join(REPO_ROOT, "training_configs", "gpu", "leaderboard", "minilm_*.jsonnet")))


@pytest.mark.parametrize("config", GPU_ROWS, ids=os.path.basename)
def test_a_gpu_leaderboard_row_is_its_cpu_row_at_the_gpu_budget(config, monkeypatch, tmp_path):
    """Only the budget differs from the CPU row of the same name: the GPU, bfloat16 autocast, batches,
    epochs and inference chunks; the model, data and optimizer are the row's own."""
    (tmp_path / "config.json").write_text(json.dumps({"hidden_size": 384}))
    monkeypatch.setenv("SRL_TRANSFORMER", str(tmp_path))
    cpu_config = os.path.join(REPO_ROOT, "training_configs", "leaderboard", os.path.basename(config))
    if not os.path.exists(cpu_config):  # a row the CPU budget cannot afford: it builds on the MiniLM recipe
        assert reads_a_transformer(config)
        return
    gpu, cpu = (flattened(Params.from_file(path).as_dict()) for path in (config, cpu_config))
    # the same data files, reached through different relative paths (in values and in keys)
    gpu, cpu = ({normalized(k): normalized(v) for k, v in leaves.items()} for leaves in (gpu, cpu))
    changed = {key for key in gpu.keys() | cpu.keys() if gpu.get(key) != cpu.get(key)}
    # the inference chunks are the indicator scorer's (the bilinear one has none)
    indicator = cpu.get("model.frame_scorer.type") == "indicator"
    chunks = {f"model.frame_scorer.inference_chunk_{kind}" for kind in ("tokens", "elements")} if indicator else set()
    assert changed == {
        "trainer.cuda_device",
        "trainer.num_epochs",
        "trainer.callbacks",
        "data_loader.batch_sampler.batch_size",
        *chunks,
    } - ({"trainer.num_epochs"} if cpu.get("trainer.num_epochs") == 6 else set())
    assert gpu["trainer.cuda_device"] == 0 and gpu["trainer.num_epochs"] == 6
    assert gpu["trainer.callbacks"][: len(cpu["trainer.callbacks"])] == cpu["trainer.callbacks"]
    assert {"type": "mixed_precision", "dtype": "bfloat16"} in gpu["trainer.callbacks"]


def test_the_selective_connection_ablation_is_set_by_the_encoders_keys():
    """The ablation's settings are config keys set with -o (scripts/run_sc_ablation.sh), not variables that
    `import srl_zoo` writes: every one reaches the encoder and the config check passes it."""
    from srl_zoo.training.config_check import check_training_config

    encoder = "model.frame_scorer.encoder"
    setting = {"selective": True, "input_bilstm": False, "num_layers": 8, "next_input": "state"}
    config_path = os.path.join(REPO_ROOT, "training_configs", "selective_connection", "ablation_conll2005.jsonnet")
    overrides = json.dumps({f"{encoder}.{key}": value for key, value in setting.items()})
    config = Params.from_file(config_path, overrides).as_dict(quiet=True)
    check_training_config(config)
    assert {key: config["model"]["frame_scorer"]["encoder"][key] for key in setting} == setting


def with_local_encoders(monkeypatch, folder) -> None:
    """A fresh clone's variables, with SRL_TRANSFORMER and SRL_MPNET naming `folder` (a config.json in it)."""
    as_a_new_user_would(monkeypatch, "conll2012")
    (folder / "config.json").write_text(json.dumps({"hidden_size": 384}))
    for name in ("SRL_TRANSFORMER", "SRL_MPNET"):
        monkeypatch.setenv(name, str(folder))


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=lambda c: os.path.relpath(c, REPO_ROOT))
def test_no_config_lists_a_callback_twice(config, monkeypatch, tmp_path):
    """The GPU mixin adds bfloat16 autocast and the throughput log only where a config has not already: the
    continued accurate config autocasts on a CPU too, and two `mixed_precision` callbacks would nest."""
    with_local_encoders(monkeypatch, tmp_path)
    types = [callback["type"] for callback in Params.from_file(config)["trainer"].get("callbacks", [])]
    assert len(types) == len(set(types)), types


def paths_normalized(value):
    """`value` with every string in it (in lists and dicts too: `flattened` keeps lists whole) passed through
    `normalized`."""
    if isinstance(value, dict):
        return {key: paths_normalized(item) for key, item in value.items()}
    if isinstance(value, list):
        return [paths_normalized(item) for item in value]
    return normalized(value)


@pytest.mark.parametrize(
    "name, cpu_epochs",
    [("mpnet_lora_sc_crf_continued_conll2012.jsonnet", 2), ("mpnet_lora_sc_crf_continued_top2_conll2012.jsonnet", 3)],
)
def test_the_gpu_continued_accurate_configs_are_the_cpu_ones_on_a_gpu_in_larger_batches(
    name, cpu_epochs, monkeypatch, tmp_path
):
    """The same start (the shipped archive's weights and vocabulary), model, data and rates as the CPU config; on
    GPU 0 with the throughput log, autocast once, the indicator scorer's large inference chunks, batches of 2,000
    padded word pieces, 10 epochs, two checkpoints."""
    with_local_encoders(monkeypatch, tmp_path)
    gpu, cpu = (
        {key: paths_normalized(value) for key, value in flattened(Params.from_file(path).as_dict()).items()}
        for path in (os.path.join(REPO_ROOT, "training_configs", folder, name) for folder in ("gpu", "accurate"))
    )
    assert os.path.basename(gpu["vocabulary.directory"]) == "ewt-english-accurate.tar.gz"
    changed = {key for key in gpu.keys() | cpu.keys() if gpu.get(key) != cpu.get(key)}
    assert gpu["trainer.callbacks"] == [*cpu["trainer.callbacks"], {"type": "throughput"}]
    assert {key: (gpu.get(key), cpu.get(key)) for key in changed - {"trainer.callbacks"}} == {
        "trainer.cuda_device": (0, None),
        "trainer.num_epochs": (10, cpu_epochs),
        "trainer.checkpointer.keep_most_recent_by_count": (2, None),
        "data_loader.batch_sampler.max_tokens": (2000, 500),
        "model.frame_scorer.inference_chunk_tokens": (131072, None),
        "model.frame_scorer.inference_chunk_elements": (64000000, None),
    }
