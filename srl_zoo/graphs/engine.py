"""ONNX Runtime as srl_zoo runs it: one CPU session per graph on the caller's threads, its telemetry off and
nothing written outside srl_zoo's cache."""

import functools
import os
from typing import Any

#: the environment variable that sets the threads of a labeler's graphs (else every CPU this process may use)
THREADS_VARIABLE = "OMP_NUM_THREADS"
#: ONNX Runtime's own switch of its telemetry, read when the module is first imported: without it, importing it
#: writes a device id and an event store under `~/.cache/Microsoft/` (`disable_telemetry_events` comes too late)
TELEMETRY_VARIABLE = "ORT_DISABLE_TELEMETRY"


def default_threads() -> int:
    """The threads a graph runs on: `OMP_NUM_THREADS` where it is set, else the CPUs this process may run on."""
    given = os.environ.get(THREADS_VARIABLE, "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@functools.cache
def onnxruntime() -> Any:
    """The `onnxruntime` module with its telemetry off: `ORT_DISABLE_TELEMETRY=1` set before its first import (a
    caller's own value is kept), and its telemetry events disabled."""
    os.environ.setdefault(TELEMETRY_VARIABLE, "1")
    import onnxruntime as runtime

    runtime.disable_telemetry_events()
    return runtime


def graph_session(path: str, threads: int) -> Any:
    """An ONNX Runtime CPU session of the graph at `path` on `threads` threads (errors only in its log)."""
    runtime = onnxruntime()
    options = runtime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = runtime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    return runtime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
