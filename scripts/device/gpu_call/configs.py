"""Training configs as a plan runs them: evaluated as allennlp reads them, then given the plan's device, batches,
sentences and time budget."""

import json
import subprocess
import sys
from typing import Any, Optional

from .files import ROOT
from .plans import SIX_LAYERS, Job, Plan


def evaluated_configs(configs: list[str]) -> dict[str, dict[str, Any]]:
    """Each config as allennlp reads it (jsonnet evaluated with srl_zoo's ext vars), in one process."""
    code = (
        "import json, sys, srl_zoo.plugin\n"
        "from allennlp.common.params import Params\n"
        "print(json.dumps({path: Params.from_file(path).as_dict(quiet=True) for path in sys.argv[1:]}))\n"
    )
    completed = subprocess.run([sys.executable, "-c", code, *configs], cwd=ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"the configs do not evaluate: {completed.stderr.strip()[-1500:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def with_steps(config: dict[str, Any], plan: Plan, job: Job, budget_minutes: Optional[float]) -> dict[str, Any]:
    """`config` run as the plan says: the device, the number of batches and sentences, the time budget."""
    config = json.loads(json.dumps(config))
    trainer = config["trainer"]
    trainer["cuda_device"] = plan.cuda_device
    callbacks = [c for c in trainer.get("callbacks", []) if c["type"] != "time_budget"]
    if budget_minutes is not None:
        callbacks.append({"type": "time_budget", "minutes": budget_minutes})
    if plan.cuda_device < 0:  # the CPU of the rehearsal: float32 (emulated bfloat16 is slow), same callbacks else
        callbacks = [c for c in callbacks if c["type"] != "mixed_precision"]
    trainer["callbacks"] = callbacks
    trainer.pop("patience", None)
    reader = config["dataset_reader"]
    config.setdefault("validation_dataset_reader", json.loads(json.dumps(reader)))
    config["validation_dataset_reader"]["max_instances"] = plan.max_dev_sentences
    loader = config["data_loader"]
    config.setdefault("validation_data_loader", json.loads(json.dumps(loader)))
    if job.full_epoch and plan.full_epochs:
        trainer["num_epochs"] = 1
        if plan.max_dev_sentences is not None:  # a rehearsal's whole epoch: of its few training sentences
            reader["max_instances"] = plan.max_train_sentences
    elif job is SIX_LAYERS:
        if plan.six_layer_batches is not None:
            trainer["num_epochs"] = 2
            loader["batches_per_epoch"] = plan.six_layer_batches
            reader["max_instances"] = plan.max_train_sentences
    else:
        trainer["num_epochs"] = 2
        loader["batches_per_epoch"] = plan.batches_per_epoch
        reader["max_instances"] = plan.max_train_sentences
    return config
