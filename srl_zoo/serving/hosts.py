"""The `Host` header a request may carry: the names the service is reachable by, so that a page on another site
cannot reach a service on loopback through DNS rebinding (its requests carry the other site's name)."""

import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Optional

#: the names of this machine's loopback
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: addresses that mean every interface
WILDCARD_ADDRESSES = frozenset({"", "0.0.0.0", "::"})

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _is_loopback(address: str) -> bool:
    if address.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def allowed_hosts(bound_to: str, more: Iterable[str] = ()) -> Optional[frozenset[str]]:
    """The host names a request's `Host` header may give for a service bound to `bound_to`, else None for any:
    on loopback its names and addresses; on one other address that address, this machine's names and loopback's;
    on every interface (`0.0.0.0`, `::`) any name, unless `more` names some (then those and loopback's).

    # Parameters

    bound_to : the address the service listens on (`--host`).
    more : other names it is reached by (`--allowed-host`: a proxy's or a DNS name).
    """
    extra = {name.strip().lower().strip("[]") for name in more if name.strip()}
    if bound_to in WILDCARD_ADDRESSES:
        return LOOPBACK_NAMES | extra if extra else None
    if _is_loopback(bound_to):
        return LOOPBACK_NAMES | {bound_to.lower()} | extra
    return LOOPBACK_NAMES | {bound_to.lower(), socket.gethostname().lower(), socket.getfqdn().lower()} | extra


def host_name(header: str) -> str:
    """The name in a `Host` header, without its port (`[::1]:8000` is `::1`)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """ASGI middleware: an HTTP request whose `Host` is not among `allowed` is answered 400 with a JSON error.

    # Parameters

    app : the application behind it. allowed : the host names (`allowed_hosts`).
    """

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            given = headers.get(b"host", b"").decode("latin-1")
            if host_name(given) not in self.allowed:
                message = (
                    f"Host {given!r} is not a name this service answers to ({', '.join(sorted(self.allowed))}; "
                    "srl-zoo serve --allowed-host adds one)"
                )
                body = json.dumps({"error": message}).encode("utf-8")
                head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                await send({"type": "http.response.start", "status": 400, "headers": head})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
