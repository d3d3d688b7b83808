"""The body of one device call (scripts/device/prove_gpu.sh; docs/gpu.md): every paper's GPU config trains
for a fixed number of steps, the best recipe trains on all 6 MiniLM layers for a wall-clock budget and comes
back as an archive in parts, and labeling throughput is measured against allennlp-models' `srl_bert`.

    python scripts/device/prove_gpu.py --plan gpu --out $OUT --work /tmp/prove --transformer DIR --deadline 520

`--plan labeling` is a shorter call for the labeling throughput alone: the shipped recipe and the peer trained for a
few batches (their speed does not depend on their training), then labeling at several batch sizes.
`--plan rehearsal` runs the whole call's steps on the CPU with a handful of batches (`make gpu-rehearsal`), and each
`*-rehearsal` plan its call's. Every job
is a process group of its own, stopped at its deadline; `results.json` and `logs.tgz` in OUT are rewritten
every few seconds, so a call cut short still returns what it did.
"""

import argparse
import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time
from typing import Any, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PART_BYTES = 15 * 2**20  # a returned file may be at most 16 MiB


@dataclasses.dataclass(frozen=True)
class Job:
    """One training run: a config of training_configs/ (its GPU variant) under a name."""

    name: str
    config: str
    full_epoch: bool = False  # train one whole epoch of the training file (else the plan's fixed steps)


# Every paper family under training_configs/ (tests/scripts/test_prove_gpu.py checks the coverage), on the
# GPU configs of training_configs/gpu/. GloVe does not travel (69 MB): its configs train on random vectors.
PAPER_JOBS = (
    Job("deepatt_ffn", "training_configs/gpu/deepatt_ffn_glove_conll2005.jsonnet"),
    Job("deepatt_glu", "training_configs/gpu/deepatt_glu_glove_conll2005.jsonnet"),
    Job("selective_connection", "training_configs/gpu/sc_bilstm_glove_conll2005.jsonnet"),
    Job("selective_connection_crf", "training_configs/gpu/sc_bilstm_crf_glove_conll2005.jsonnet"),
    Job("lisa", "training_configs/gpu/lisa_glove_conll2005.jsonnet"),
    Job("amn_conll2009", "training_configs/gpu/amn_bilstm_conll2009.jsonnet"),
    Job("minilm_bilinear_crf", "training_configs/gpu/minilm_bilinear_crf_conll2012.jsonnet"),
    Job("minilm_l3_sc_crf", "training_configs/gpu/minilm_l3_sc_crf_conll2012.jsonnet", full_epoch=True),
)
SIX_LAYERS = Job("minilm_l6_sc_nogates_crf", "training_configs/gpu/minilm_l6_sc_nogates_crf_conll2012.jsonnet")
PEER_CONFIG = "training_configs/peers/srl_bert_minilm_l3.jsonnet"
THROUGHPUT_MODEL = "minilm_l3_sc_crf"  # whose archive the labeling throughput measures (the shipped recipe)


@dataclasses.dataclass(frozen=True)
class Plan:
    """How much of everything a call does, and when each part must have ended (fractions of the deadline)."""

    cuda_device: int
    batches_per_epoch: int  # the fixed-step jobs: 2 epochs of this many batches
    max_train_sentences: Optional[int]  # the fixed-step jobs read this many training sentences
    max_dev_sentences: Optional[int]  # None: validate on the whole dev file
    six_layer_batches: Optional[int]  # None: whole epochs under the wall-clock budget
    label_sentences: int
    max_peer_rows: int  # the srl_bert peer reads this many (sentence, predicate) rows to train on
    only_jobs: Optional[tuple[str, ...]] = None  # these of PAPER_JOBS (None: all)
    peer: bool = True  # train srl_bert and measure its labeling beside srl_zoo's
    six_layers: bool = True  # train the best recipe on all 6 MiniLM layers and send its archive back
    full_epochs: bool = True  # a job marked full_epoch trains a whole epoch (else the fixed steps of the others)
    label_batch_sizes: tuple[int, ...] = (128,)
    label_allennlp_batch_sizes: Optional[tuple[int, ...]] = None  # the predictor and srl_bert too (None: all)
    paper_end: float = 0.50
    six_layer_train_end: float = 0.72
    six_layer_end: float = 0.84
    label_end: float = 0.95


# a second, short call: the shipped recipe's epoch alone on the GPU, then its labeling at two batch sizes
TIMING = Plan(
    cuda_device=0,
    batches_per_epoch=60,
    max_train_sentences=None,
    max_dev_sentences=None,
    six_layer_batches=None,
    label_sentences=2000,
    max_peer_rows=0,
    only_jobs=("minilm_l3_sc_crf",),
    peer=False,
    six_layers=False,
    label_batch_sizes=(128, 512),
    paper_end=0.70,
    label_end=0.96,
)

# the labeling alone: 10,000 sentences through the runtime at three batch sizes, the allennlp predictor and srl_bert
# at 128 beside it; the archives measured are trained for 2 x 30 batches (speed does not need F1)
LABELING = Plan(
    cuda_device=0,
    batches_per_epoch=30,
    max_train_sentences=3000,
    max_dev_sentences=500,
    six_layer_batches=None,
    label_sentences=10000,
    max_peer_rows=2000,
    only_jobs=("minilm_l3_sc_crf",),
    six_layers=False,
    full_epochs=False,
    label_batch_sizes=(32, 128, 512),
    label_allennlp_batch_sizes=(128,),
    paper_end=0.35,
    label_end=0.95,
)

PLANS = {
    "gpu": Plan(0, 60, 3000, None, None, 10000, 2000),
    "rehearsal": Plan(-1, 2, 48, 24, 2, 48, 40, paper_end=0.55, six_layer_train_end=0.70, six_layer_end=0.80),
    "timing": TIMING,
    "timing-rehearsal": dataclasses.replace(
        TIMING,
        cuda_device=-1,
        batches_per_epoch=2,
        max_train_sentences=48,
        max_dev_sentences=24,
        six_layer_batches=2,
        label_sentences=48,
        label_batch_sizes=(16, 48),
        paper_end=0.75,
        label_end=0.95,
    ),
    "labeling": LABELING,
    # the labeling call's steps on the CPU: the same jobs, a handful of batches and sentences
    "labeling-rehearsal": dataclasses.replace(
        LABELING,
        cuda_device=-1,
        batches_per_epoch=2,
        max_train_sentences=48,
        max_dev_sentences=24,
        label_sentences=48,
        max_peer_rows=40,
        label_batch_sizes=(8, 16),
        label_allennlp_batch_sizes=(16,),
        paper_end=0.55,
    ),
}


class Call:
    """The state of the call: its jobs' processes, what they measured, and OUT kept up to date."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.plan = PLANS[args.plan]
        self.started = time.monotonic()
        self.deadline = args.deadline
        self.work = args.work
        self.out = args.out
        self.results: dict[str, Any] = {
            "plan": args.plan,
            "plan_settings": dataclasses.asdict(self.plan),
            "deadline_s": args.deadline,
            "jobs": {},
            "events": [],
        }
        self.processes: dict[str, subprocess.Popen] = {}
        self.peak_gpu_mib: dict[str, int] = {}
        self.lock = threading.Lock()
        self.configs: dict[str, dict[str, Any]] = {}
        os.makedirs(self.work, exist_ok=True)
        os.makedirs(self.out, exist_ok=True)

    # ---- time and events
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def until(self, fraction: float) -> float:
        """Seconds left until `fraction` of the deadline."""
        return fraction * self.deadline - self.elapsed()

    def event(self, text: str) -> None:
        line = f"[{self.elapsed():6.1f}s] {text}"
        print(line, flush=True)
        with self.lock:
            self.results["events"].append(line)

    # ---- processes
    def start(self, name: str, command: list[str], env: Optional[dict[str, str]] = None) -> subprocess.Popen:
        """`command` in a process group of its own, its output in WORK/NAME.log."""
        log = open(os.path.join(self.work, f"{name}.log"), "w", encoding="utf-8")  # noqa: SIM115 (the child's)
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
        self.processes[name] = process
        self.event(f"{name}: started (pid {process.pid}): {' '.join(command)[:160]}")
        return process

    def wait(self, name: str, fraction: float) -> Optional[int]:
        """The job's exit code, or None if it was stopped at `fraction` of the deadline."""
        process = self.processes[name]
        try:
            code = process.wait(timeout=max(self.until(fraction), 0.1))
        except subprocess.TimeoutExpired:
            self.stop(name)
            self.event(f"{name}: stopped at its deadline")
            return None
        self.event(f"{name}: exited {code}")
        return code

    def stop(self, name: str) -> None:
        process = self.processes[name]
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if process.poll() is not None:
                return
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                return
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.stop(name)

    # ---- what OUT holds
    def save(self) -> None:
        """OUT/results.json and OUT/logs.tgz (every log, metric and config; no weights), each written whole."""
        with self.lock:
            self.results["elapsed_s"] = round(self.elapsed(), 1)
            self.results["peak_gpu_memory_mib"] = dict(self.peak_gpu_mib)
            text = json.dumps(self.results, indent=1, default=str)
        write_whole(os.path.join(self.out, "results.json"), text.encode())
        partial = os.path.join(self.out, "logs.tgz.partial")
        with tarfile.open(partial, "w:gz") as archive:
            for folder, _, files in os.walk(self.work):
                for file in files:
                    path = os.path.join(folder, file)
                    if file.endswith((".log", ".json", ".jsonl", ".txt")) and os.path.getsize(path) < 4 * 2**20:
                        archive.add(path, os.path.relpath(path, self.work))
        os.replace(partial, os.path.join(self.out, "logs.tgz"))

    def keep_saving(self, every: float) -> None:
        """Save OUT and read each process's GPU memory every `every` seconds, in a daemon thread."""

        def loop() -> None:
            while True:
                time.sleep(every)
                self.read_gpu_memory()
                try:
                    self.save()
                except OSError as error:  # a log rotated under us: the next round saves
                    print(f"save: {error}", flush=True)

        threading.Thread(target=loop, daemon=True).start()

    def read_gpu_memory(self) -> None:
        """The peak GPU memory nvidia-smi has shown for each job's process (none on the CPU)."""
        if self.plan.cuda_device < 0:
            return
        try:
            listing = subprocess.run(
                ["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"],
                capture_output=True,
                text=True,
                timeout=10,
            ).stdout
        except (OSError, subprocess.TimeoutExpired):
            return
        by_pid = {process.pid: name for name, process in self.processes.items()}
        for line in listing.splitlines():
            pid, _, memory = line.partition(",")
            name = by_pid.get(int(pid)) if pid.strip().isdigit() else None
            if name and memory.strip().isdigit():
                with self.lock:
                    self.peak_gpu_mib[name] = max(self.peak_gpu_mib.get(name, 0), int(memory))


def read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def write_whole(path: str, data: bytes) -> None:
    with open(path + ".partial", "wb") as handle:
        handle.write(data)
    os.replace(path + ".partial", path)


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
        os.path.join(HERE, "check_archive.py"),
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


def split_file(path: str, directory: str, prefix: str) -> list[str]:
    """`path` cut into files `prefix`0, 1, ... of at most PART_BYTES in `directory`; their names."""
    names = []
    with open(path, "rb") as source:
        while chunk := source.read(PART_BYTES):
            name = f"{prefix}{len(names)}"
            write_whole(os.path.join(directory, name), chunk)
            names.append(name)
    return names


def labeling(call: Call, peer_archive: Optional[str]) -> None:
    """Labeling throughput of the shipped recipe's archive and of srl_bert, each alone on the device."""
    ours = os.path.join(call.work, THROUGHPUT_MODEL, "model.tar.gz")
    if not os.path.exists(ours):
        call.event("labeling: no archive of the shipped recipe to measure")
        return
    command = [
        sys.executable,
        os.path.join(HERE, "label_throughput.py"),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plan", choices=sorted(PLANS), required=True)
    parser.add_argument("--out", required=True, help="the folder that comes back (at most 8 files)")
    parser.add_argument("--work", required=True, help="a scratch folder (runs, logs)")
    parser.add_argument("--transformer", required=True, help="the MiniLM directory (SRL_TRANSFORMER)")
    parser.add_argument("--peer-site", required=True, help="a folder holding allennlp-models and conllu")
    parser.add_argument("--deadline", type=float, required=True, help="seconds until everything has stopped")
    args = parser.parse_args()
    os.environ.update(SRL_TRANSFORMER=args.transformer, SRL_GLOVE="")  # GloVe does not travel: random vectors
    call = Call(args)
    signal.signal(signal.SIGTERM, lambda *_: (call.event("SIGTERM"), call.stop_all(), call.save(), os._exit(3)))
    call.keep_saving(every=5.0 if call.plan.cuda_device >= 0 else 15.0)
    try:
        environment(call)
        jobs = [job for job in PAPER_JOBS if call.plan.only_jobs is None or job.name in call.plan.only_jobs]
        call.configs = evaluated_configs(
            [job.config for job in jobs] + ([SIX_LAYERS.config] if call.plan.six_layers else [])
        )
        call.event("configs evaluated")
        runs = {job.name: train(call, job) for job in jobs}
        threads = [threading.Thread(target=paper_job, args=(call, job, runs[job.name])) for job in jobs]
        peer: dict[str, Optional[str]] = {}
        six = threading.Thread(target=six_layer_job, args=(call,))
        if call.plan.peer:
            threads.append(threading.Thread(target=lambda: peer.update(archive=peer_job(call))))
        if call.plan.six_layers:
            six.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # the labeling measures alone: after the fixed-step jobs, once the 6-layer training has stopped
        while call.processes.get(SIX_LAYERS.name) and call.processes[SIX_LAYERS.name].poll() is None:
            time.sleep(1)
        labeling(call, peer.get("archive"))
        if call.plan.six_layers:
            six.join(timeout=max(call.until(call.plan.label_end), 0.1))
    finally:
        call.stop_all()
        call.event("done")
        call.save()


if __name__ == "__main__":
    main()
