"""The processor a leaderboard figure was measured on (speeds depend on it; F1 does not)."""

import platform


def processor_name() -> str:
    """The CPU's model name (from /proc/cpuinfo) and whether it has native bfloat16."""
    name = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            info = handle.read()
    except OSError:
        return name
    for line in info.splitlines():
        if line.startswith("model name"):
            name = line.split(":", 1)[1].strip()
            break
    native = " avx512_bf16" in info or " amx_bf16" in info
    return f"{name} ({'with' if native else 'without'} native bfloat16)"
