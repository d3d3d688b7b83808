"""Read what a prove_gpu call returned (results.json, logs.tgz, minilm6.tar.gz.partN): a summary, the 6-layer
archive reassembled from its parts (its SHA-256 checked) and loaded by srl_zoo.load; `--check` exits 1 unless
every job trained, its loss fell, its archive loaded, every labeling run the plan asked for was measured and the
6-layer archive came back (where the plan trains one).

    python scripts/device/returned.py OUT [--archive runs/gpu/minilm6.tar.gz] [--check]
"""

import argparse
import hashlib
import json
import os
import sys

from srl_zoo.data.formats import READERS
from srl_zoo.data.gold_requests import as_request


def reassemble(out: str, record: dict, target: str) -> str:
    """Join the parts in `out` into `target`; raise if the SHA-256 differs from the call's."""
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with open(target + ".partial", "wb") as joined:
        for name in record["parts"]:
            with open(os.path.join(out, name), "rb") as part:
                joined.write(part.read())
    with open(target + ".partial", "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    if digest != record["sha256"]:
        raise SystemExit(f"{target}: SHA-256 {digest} is not the call's {record['sha256']}")
    os.replace(target + ".partial", target)
    return target


def problems_of(results: dict) -> list[str]:
    """What keeps the call from proving its points."""
    problems = []
    for name, job in results["jobs"].items():
        if job.get("status") != "trained":
            problems.append(f"{name}: {job.get('status')}")
        elif len(job.get("epochs", [])) >= 2 and not job.get("loss_falls"):
            problems.append(f"{name}: the training loss did not fall")
        elif name != "peer_srl_bert" and not job.get("archive_loads") and name != "minilm_l6_sc_nogates_crf":
            problems.append(f"{name}: its archive did not load")
    # what the plan promised (a record from before plans were written into it: all but the timing plan, everything)
    whole_call = not results["plan"].startswith("timing")
    settings = results.get("plan_settings") or {"peer": whole_call, "six_layers": whole_call}
    runs = {(record["run"], record["batch_size"]) for record in results.get("labeling", [])}
    sizes = settings.get("label_batch_sizes") or sorted({size for _, size in runs} or {128})
    for size in sizes:
        expected = ["srl_zoo runtime float32", "srl_zoo runtime bfloat16"] if "label_batch_sizes" in settings else []
        if size in (settings.get("label_allennlp_batch_sizes") or sizes):
            expected += ["srl_zoo float32", "srl_zoo bfloat16"]
            expected += ["srl_bert float32", "srl_bert bfloat16"] if settings["peer"] else []
        problems.extend(f"labeling: no {run} run at batch size {size}" for run in expected if (run, size) not in runs)
    if settings["six_layers"] and "six_layer_archive" not in results:
        problems.append("the 6-layer archive did not come back")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--archive", default="runs/gpu/minilm6.tar.gz")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    with open(os.path.join(args.out, "results.json"), encoding="utf-8") as handle:
        results = json.load(handle)
    print(
        "device:", results.get("environment", {}).get("device_name"), results.get("environment", {}).get("nvidia_smi")
    )
    for name, job in results["jobs"].items():
        f1 = [epoch.get("dev_f1") for epoch in job.get("epochs", [])]
        loads = job.get("archive_loads")
        print(f"  {name}: {job.get('status')}, loss falls: {job.get('loss_falls')}, loads: {loads}, dev F1 {f1}")
        if job.get("status") != "trained" and job.get("log_tail"):
            print("    " + "\n    ".join(job["log_tail"].splitlines()[-6:]))
    problems = problems_of(results)
    if "six_layer_archive" in results:
        import srl_zoo

        archive = reassemble(args.out, results["six_layer_archive"], args.archive)
        labeler = srl_zoo.load(archive)
        sentence = next(s for s in READERS["conll2012"]("data/ewt/conll2012/dev.gold_conll.gz") if s.frames)
        frames = labeler.label_tokenized([as_request(sentence)])[0]["frames"]
        print(
            f"{archive}: {os.path.getsize(archive) / 2**20:.1f} MiB, loads ({type(labeler).__name__}),"
            f" {len(frames)} frames on a dev sentence"
        )
    for problem in problems:
        print("problem:", problem)
    if args.check and problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
