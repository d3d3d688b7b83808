"""A Ray of this machine alone, as srl_zoo starts one (`srl-zoo label --ray` without an address, `ray_data` without a
Ray, the tests): every server of it (GCS, raylets, workers, the runtime-env agent) listens on 127.0.0.1 only, and
its files — session logs, sockets and the cluster's authentication token (mode 0600) — live in a private temporary
folder removed afterwards, not in `/tmp/ray` and `~/.ray`. A cluster's address is the user's explicit choice.

Ray 2.60 turns a node address of 127.0.0.1 into the machine's network address unless its own setting for laptops
(`RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`: one machine, loopback only) is in force; that setting is read when Ray is
imported, so it is set both in Ray's constants and in the variables its processes inherit, for the block only, and
this process's Ray is told to read its authentication settings again."""

import contextlib
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

#: the loopback address every server of a local Ray listens on
LOOPBACK = "127.0.0.1"
#: the name of the token file in the private folder
TOKEN_FILE = "auth_token"
#: the folder inside it for Ray's own files (its sessions' logs and sockets)
RAY_FILES = "ray"


@contextlib.contextmanager
def loopback_only() -> Iterator[str]:
    """For the block, any Ray node started in this process (`ray.init`, `ray.cluster_utils.Cluster`) takes
    127.0.0.1 as its address and listens there only, with a new authentication token in a private folder; the
    folder (mode 0700, its token 0600) is given to the block, for Ray's `_temp_dir`, and removed afterwards. The
    variables Ray's processes read are set for the block only and put back as they were. Ray's own files go in its
    `RAY_FILES` folder inside it (Ray opens that one to all users; the private folder around it keeps them out)."""
    import ray._private.ray_constants as constants

    folder = tempfile.mkdtemp(prefix="srl_zoo-ray-")
    token = os.path.join(folder, TOKEN_FILE)
    descriptor = os.open(token, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secrets.token_hex(32))
    variables = {
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": token,
        # Ray's default folder, where `Cluster` writes the head's address (`ray_current_cluster`) whatever temp_dir
        # it was given: in the private folder too, not in a shared /tmp/ray (which it fails on when that is absent)
        "RAY_TMPDIR": folder,
    }
    earlier = {name: os.environ.get(name) for name in (*variables, "RAY_AUTH_TOKEN")}
    cluster_setting = constants.ENABLE_RAY_CLUSTER
    os.environ.pop("RAY_AUTH_TOKEN", None)  # a token given in the environment would be read before the file
    os.environ.update(variables)
    constants.ENABLE_RAY_CLUSTER = False
    _reread_authentication()
    try:
        yield folder
    finally:
        constants.ENABLE_RAY_CLUSTER = cluster_setting
        for name, value in earlier.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        _reread_authentication()
        shutil.rmtree(folder, ignore_errors=True)


def _reread_authentication() -> None:
    """Make this process's Ray read its authentication mode and token from the variables again (it read them when
    it was imported)."""
    from ray._raylet import AuthenticationTokenLoader, Config  # type: ignore[attr-defined]  # compiled, no stubs

    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


@contextlib.contextmanager
def local_ray(**settings: Any) -> Iterator[None]:
    """A new Ray of this machine for the block (`ray.init(**settings)`, on loopback only: `loopback_only`), shut
    down afterwards.

    # Parameters

    settings : more of `ray.init`'s settings (`num_cpus`, `object_store_memory`...).
    """
    import ray

    with loopback_only() as folder:
        ray.init(
            address="local",
            _node_ip_address=LOOPBACK,
            _temp_dir=os.path.join(folder, RAY_FILES),  # Ray opens its own folder to all: ours (0700) holds it
            include_dashboard=False,
            configure_logging=False,
            log_to_driver=False,
            **settings,
        )
        try:
            yield
        finally:
            ray.shutdown()
