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
import os
import signal
import threading
import time
from typing import Optional

from gpu_call.configs import evaluated_configs
from gpu_call.jobs import paper_job, peer_job, six_layer_job, train
from gpu_call.measurements import environment, labeling
from gpu_call.plans import PAPER_JOBS, PLANS, SIX_LAYERS
from gpu_call.supervisor import Call


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
