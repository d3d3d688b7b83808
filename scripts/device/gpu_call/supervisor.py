"""The call's supervisor: each job a process group of its own, stopped at its deadline; what the jobs measured, and
OUT's `results.json` and `logs.tgz` rewritten every few seconds so that a call cut short still returns what it did."""

import argparse
import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import tarfile
import threading
import time
from typing import Any, Optional

from .files import ROOT, write_whole
from .plans import PLANS


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
