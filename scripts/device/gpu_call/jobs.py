"""The call's training jobs: a config trained under the plan, its epochs recorded, its archive loaded and checked;
the srl_bert peer; the 6-layer recipe exported and cut into parts that come back."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Optional

from .configs import with_steps
from .files import DEVICE_SCRIPTS, ROOT, read_text, split_file, write_whole
from .plans import PEER_CONFIG, SIX_LAYERS, Job
from .supervisor import Call


def train(call: Call, job: Job, budget_minutes: Optional[float] = None) -> str:
    """Start `job`'s training (allennlp train on its adapted config); returns its serialization directory."""
    config = with_steps(call.configs[job.config], call.plan, job, budget_minutes)
    run = os.path.join(call.work, job.name)
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(call.work, exist_ok=True)
    config_file = os.path.join(call.work, f"{job.name}.config.json")
    write_whole(config_file, json.dumps(config, indent=1).encode())
    command = [sys.executable, "-m", "allennlp", "train", config_file, "-s", run, "--include-package", "srl_zoo"]
    call.start(job.name, command)
    with call.lock:
        call.results["jobs"][job.name] = {"config": job.config, "run": run, "status": "running"}
    return run


def epochs_of(run: str) -> list[dict[str, Any]]:
    """Each finished epoch's training loss, dev F1 and throughput (allennlp's metrics_epoch_N.json and the
    throughput callback's throughput.jsonl)."""
    epochs = []
    index = 0
    while os.path.exists(os.path.join(run, f"metrics_epoch_{index}.json")):
        with open(os.path.join(run, f"metrics_epoch_{index}.json"), encoding="utf-8") as handle:
            metrics = json.load(handle)
        epochs.append(
            {
                "epoch": index,
                "training_loss": metrics.get("training_loss"),
                "validation_loss": metrics.get("validation_loss"),
                "dev_f1": metrics.get("validation_f1-measure-overall"),
                "epoch_duration": metrics.get("epoch_duration"),
            }
        )
        index += 1
    throughput = os.path.join(run, "throughput.jsonl")
    if os.path.exists(throughput):
        with open(throughput, encoding="utf-8") as handle:
            for record in map(json.loads, handle):
                if record["epoch"] < len(epochs):
                    epochs[record["epoch"]]["throughput"] = record
    return epochs


def finish_training(call: Call, job: Job, run: str, fraction: float) -> bool:
    """Wait for `job`, record its epochs and whether its loss fell and its archive loads; True if it made one."""
    code = call.wait(job.name, fraction)
    epochs = epochs_of(run)
    archive = os.path.join(run, "model.tar.gz")
    record: dict[str, Any] = {
        "exit_code": code,
        "epochs": epochs,
        "status": "trained" if code == 0 and os.path.exists(archive) else "failed" if code else "stopped",
    }
    losses = [e["training_loss"] for e in epochs if e.get("training_loss") is not None]
    if len(losses) >= 2:
        record["loss_falls"] = losses[-1] < losses[0]
    if code != 0:
        record["log_tail"] = read_text(os.path.join(call.work, f"{job.name}.log"))[-1500:]
    with call.lock:
        call.results["jobs"][job.name].update(record)
    return record["status"] == "trained"


def check_archive(call: Call, job: Job, run: str, fraction: float) -> None:
    """Load the job's archive with srl_zoo.load and label two dev sentences at their gold predicates."""
    name = f"{job.name}.load"
    command = [
        sys.executable,
        os.path.join(DEVICE_SCRIPTS, "check_archive.py"),
        os.path.join(run, "model.tar.gz"),
        "--cuda-device",
        str(call.plan.cuda_device),
    ]
    call.start(name, command)
    code = call.wait(name, fraction)
    log = read_text(os.path.join(call.work, f"{name}.log"))
    lines = [line for line in log.splitlines() if line.startswith("{")]
    with call.lock:
        call.results["jobs"][job.name]["archive_loads"] = code == 0 and bool(lines)
        if lines:
            call.results["jobs"][job.name]["archive_check"] = json.loads(lines[-1])
        elif code != 0:
            call.results["jobs"][job.name]["archive_check_tail"] = log[-800:]


def paper_job(call: Call, job: Job, run: str) -> None:
    if finish_training(call, job, run, call.plan.paper_end):
        check_archive(call, job, run, call.plan.paper_end + 0.05)


def peer_job(call: Call) -> Optional[str]:
    """Train allennlp-models' srl_bert on the first 3 MiniLM layers for a few batches (an archive whose
    labeling speed does not depend on its training); returns its archive, or None."""
    code = (
        "import sys\n"
        "from srl_zoo.leaderboard.peers import truncated_transformer, without_parse\n"
        "truncated_transformer(sys.argv[1], 3, sys.argv[2])\n"
        "without_parse('data/ewt/conll2012/train.gold_conll.gz', sys.argv[3] + '/train')\n"
        "without_parse('data/ewt/conll2012/dev.gold_conll.gz', sys.argv[3] + '/dev')\n"
    )
    transformer = os.path.join(call.work, "minilm-l3-uncased")
    data = os.path.join(call.work, "peer-data")
    subprocess.run([sys.executable, "-c", code, call.args.transformer, transformer, data], cwd=ROOT, check=True)
    peer_env = {"PYTHONPATH": f"{call.args.peer_site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    overrides = {
        "dataset_reader": {"type": "srl", "bert_model_name": transformer, "max_instances": call.plan.max_peer_rows},
        "validation_dataset_reader": {
            "type": "srl",
            "bert_model_name": transformer,
            "max_instances": call.plan.max_peer_rows // 10,
        },
        "model.bert_model": transformer,
        "train_data_path": os.path.join(data, "train"),
        "validation_data_path": os.path.join(data, "dev"),
        "data_loader.batches_per_epoch": call.plan.batches_per_epoch,
        "trainer.num_epochs": 1,
        "trainer.cuda_device": call.plan.cuda_device,
    }
    run = os.path.join(call.work, "peer_srl_bert")
    shutil.rmtree(run, ignore_errors=True)
    command = [
        sys.executable,
        "-m",
        "allennlp",
        "train",
        PEER_CONFIG,
        "-s",
        run,
        "-o",
        json.dumps(overrides),
        "--include-package",
        "allennlp_models.structured_prediction",
    ]
    call.start("peer_srl_bert", command, peer_env)
    with call.lock:
        call.results["jobs"]["peer_srl_bert"] = {"config": PEER_CONFIG, "run": run, "status": "running"}
    if finish_training(call, Job("peer_srl_bert", PEER_CONFIG), run, call.plan.paper_end):
        return os.path.join(run, "model.tar.gz")
    return None


def six_layer_job(call: Call) -> None:
    """The best recipe on all 6 MiniLM layers under the wall-clock budget, exported in float16 and split."""
    budget = None
    if call.plan.six_layer_batches is None:  # the budget counts from the first batch, after up to ~90 s of reading
        budget = max(call.until(call.plan.six_layer_train_end) - 90, 60) / 60
    run = train(call, SIX_LAYERS, budget_minutes=budget)
    with call.lock:
        call.results["jobs"][SIX_LAYERS.name]["budget_minutes"] = budget
    if not finish_training(call, SIX_LAYERS, run, call.plan.six_layer_end):
        return
    exported = os.path.join(call.work, "minilm6.tar.gz")
    call.start(
        "export",
        [
            sys.executable,
            "-m",
            "allennlp",
            "srl-export",
            os.path.join(run, "model.tar.gz"),
            exported,
            "--include-package",
            "srl_zoo",
        ],
    )
    if call.wait("export", call.plan.label_end) != 0:
        return
    with open(exported, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    parts = split_file(exported, call.out, "minilm6.tar.gz.part")
    with call.lock:
        call.results["six_layer_archive"] = {"bytes": os.path.getsize(exported), "sha256": digest, "parts": parts}
    call.event(f"six layers: exported, {os.path.getsize(exported) / 2**20:.1f} MiB in {len(parts)} parts")
