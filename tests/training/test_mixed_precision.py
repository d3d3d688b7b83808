"""The `mixed_precision` and `throughput` trainer callbacks, on CPU with a tiny fixture model."""

import json
import os

import pytest
import torch
from allennlp.commands.train import train_model_from_file

from srl_zoo.training.mixed_precision import autocast_calls
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def test_wrapped_calls_run_under_autocast_and_nothing_else_does():
    seen = []

    def probe():
        seen.append((torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu")))
        return {}

    autocast_calls(probe, "cpu", torch.bfloat16)()
    probe()
    assert seen == [(True, torch.bfloat16), (False, seen[1][1])]


@pytest.fixture
def tiny_config(monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("SRL_ZOO_TEST_DECODING", "argmax")
    return os.path.join(FIXTURES, "deepatt", "ffn.jsonnet")


def test_training_in_bfloat16_on_cpu_records_throughput(tiny_config, tmp_path):
    overrides = json.dumps(
        {"trainer.callbacks": [{"type": "mixed_precision"}, {"type": "throughput"}], "data_loader.batch_size": 4}
    )
    model = train_model_from_file(tiny_config, str(tmp_path / "run"), overrides=overrides)
    records = [json.loads(line) for line in (tmp_path / "run" / "throughput.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in records] == [0, 1]
    for record in records:
        assert record["batches"] == 5  # 20 sample sentences in batches of 4
        assert record["train_sentence_tokens_per_s"] > 0
        assert record["train_row_tokens_per_s"] > 0
        assert record["training_seconds"] > 0
    assert all(p.dtype == torch.float32 for p in model.parameters())  # autocast leaves the weights alone


def test_mixed_precision_and_use_amp_together_is_a_clear_error(tiny_config, tmp_path):
    overrides = json.dumps(
        {"trainer.callbacks": [{"type": "mixed_precision"}], "trainer.use_amp": True, "trainer.cuda_device": -1}
    )
    with pytest.raises(ValueError):
        train_model_from_file(tiny_config, str(tmp_path / "run"), overrides=overrides)


def test_unknown_dtype_is_a_clear_error():
    from srl_zoo.training.mixed_precision import MixedPrecisionCallback

    with pytest.raises(ValueError, match="bfloat16"):
        MixedPrecisionCallback("unused", dtype="int8")
