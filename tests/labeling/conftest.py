"""The labeling tests share the srl-label tests' labeler of the fixture model, and the Ray tests one way to start and
stop Ray in the test process."""

import faulthandler
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.commands.conftest import labeler  # noqa: F401


@contextmanager
def ray_in_this_process(**settings: Any) -> Iterator[None]:
    """`ray.init(**settings)` for the block (the workers' logs not forwarded, logging left alone), then
    `ray.shutdown()`. Ray's driver takes over the SIGSEGV handler and its shutdown resets it to the default, so
    Python's crash report (faulthandler, which pytest enables) is turned back on: a later crash in the suite still
    says where it was."""
    import ray

    reporting = faulthandler.is_enabled()
    ray.init(log_to_driver=False, configure_logging=False, **settings)
    try:
        yield
    finally:
        ray.shutdown()
        if reporting:
            faulthandler.enable()
