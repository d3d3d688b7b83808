"""This process's peak resident memory, as benchmarks and the leaderboard report it."""


def _status_mib(key: str) -> float:
    """The `key` line of /proc/self/status (a size in kB), in MiB."""
    with open("/proc/self/status", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(f"{key}:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {key} in /proc/self/status")


def peak_rss_mib() -> float:
    """The peak resident set size of this process so far (Linux's VmHWM), in MiB."""
    return _status_mib("VmHWM")


def resident_mib() -> float:
    """This process's resident set size now (Linux's VmRSS), in MiB."""
    return _status_mib("VmRSS")


def reset_peak_rss() -> None:
    """Start this process's peak resident size (VmHWM) again from its size now (Linux's `clear_refs` 5)."""
    with open("/proc/self/clear_refs", "w", encoding="utf-8") as handle:
        handle.write("5")
