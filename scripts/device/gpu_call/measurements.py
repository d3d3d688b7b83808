"""What the call measures beside training: the labeling throughput of the shipped recipe's archive (and srl_bert's),
and the device, driver and versions it ran on."""

import json
import os
import subprocess
import sys
from typing import Any, Optional

from .files import DEVICE_SCRIPTS, ROOT, read_text
from .plans import THROUGHPUT_MODEL
from .supervisor import Call


def labeling(call: Call, peer_archive: Optional[str]) -> None:
    """Labeling throughput of the shipped recipe's archive and of srl_bert, each alone on the device."""
    ours = os.path.join(call.work, THROUGHPUT_MODEL, "model.tar.gz")
    if not os.path.exists(ours):
        call.event("labeling: no archive of the shipped recipe to measure")
        return
    command = [
        sys.executable,
        os.path.join(DEVICE_SCRIPTS, "label_throughput.py"),
        ours,
        "data/ewt/conll2012/train.gold_conll.gz",
        "--sentences",
        str(call.plan.label_sentences),
        "--cuda-device",
        str(call.plan.cuda_device),
        "--output",
        os.path.join(call.work, "labeling.jsonl"),
        "--batch-sizes",
        *map(str, call.plan.label_batch_sizes),
    ]
    if call.plan.label_allennlp_batch_sizes:
        command += ["--allennlp-batch-sizes", *map(str, call.plan.label_allennlp_batch_sizes)]
    env = {}
    if peer_archive:
        command += ["--peer", peer_archive]
        env["PYTHONPATH"] = f"{call.args.peer_site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    call.start("labeling", command, env)
    call.wait("labeling", call.plan.label_end)
    path = os.path.join(call.work, "labeling.jsonl")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle, call.lock:
            call.results["labeling"] = [json.loads(line) for line in handle if line.strip()]


def environment(call: Call) -> None:
    """The device's name and driver, and the versions of what runs."""
    facts: dict[str, Any] = {"python": sys.version.split()[0]}
    try:
        facts["nvidia_smi"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        facts["nvidia_smi"] = None
    code = (
        "import json, torch, transformers, numpy, allennlp.version, srl_zoo, platform\n"
        "print(json.dumps({'torch': torch.__version__, 'transformers': transformers.__version__,"
        " 'numpy': numpy.__version__, 'allennlp': allennlp.version.VERSION,"
        " 'cuda': torch.version.cuda, 'cuda_available': torch.cuda.is_available(),"
        " 'device_name': torch.cuda.get_device_name() if torch.cuda.is_available() else platform.processor(),"
        " 'cpu_count': __import__('os').cpu_count()}))\n"
    )
    completed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    facts.update(
        json.loads(completed.stdout.strip().splitlines()[-1])
        if completed.returncode == 0
        else {"import_error": completed.stderr[-1500:]}
    )
    stamp = os.path.join(ROOT, ".gpu", "commit.txt")  # written by scripts/device/travel.py (no .git travels)
    facts["commit"] = read_text(stamp).strip() if os.path.exists(stamp) else None
    with call.lock:
        call.results["environment"] = facts
    call.event(f"environment: {json.dumps(facts)}")
    if "import_error" in facts:
        raise RuntimeError("srl_zoo does not import: " + facts["import_error"])
