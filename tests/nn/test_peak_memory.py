"""The process's resident sizes: the peak rises with an allocation and, reset, starts again from the size now."""

import numpy as np

from srl_zoo.nn.peak_memory import peak_rss_mib, reset_peak_rss, resident_mib


def test_the_peak_follows_an_allocation_and_resets_to_the_size_now():
    reset_peak_rss()
    start = peak_rss_mib()
    block = np.ones(64 * 1024 * 1024 // 8)  # 64 MiB, every page written
    assert peak_rss_mib() >= start + 60
    del block
    reset_peak_rss()
    assert abs(peak_rss_mib() - resident_mib()) < 8
