"""The labeling tests share the srl-label tests' labeler of the fixture model, and the Ray tests one way to start and
stop Ray in the test process."""

import faulthandler
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.commands.conftest import labeler  # noqa: F401


@contextmanager
def ray_in_this_process(**settings: Any) -> Iterator[None]:
    """A Ray for the block: a new one on loopback only (`srl_zoo.labeling.local_ray`) with `settings`, or the
    cluster the test started at `settings["address"]` (the workers' logs not forwarded, logging left alone). Ray's
    driver takes over the SIGSEGV handler and its shutdown resets it to the default, so Python's crash report
    (faulthandler, which pytest enables) is turned back on: a later crash in the suite still says where it was."""
    from srl_zoo.labeling.local_ray import local_ray

    reporting = faulthandler.is_enabled()
    started = _joined(settings["address"]) if "address" in settings else local_ray(**settings)
    try:
        with started:
            yield
    finally:
        if reporting:
            faulthandler.enable()


@contextmanager
def _joined(address: str) -> Iterator[None]:
    """The cluster at `address` for the block (one the test started on loopback: `loopback_only`), this driver on
    loopback too."""
    import ray

    from srl_zoo.labeling.local_ray import LOOPBACK

    ray.init(address=address, _node_ip_address=LOOPBACK, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()
