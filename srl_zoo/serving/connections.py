"""uvicorn's HTTP/1.1 connection (h11) bounded in time as well as in size: a connection that has not sent a whole
request head (its request line and headers) within `header_seconds` of opening, or of its last answer, is closed.
uvicorn closes an idle keep-alive connection after `timeout_keep_alive` only once it has answered on it, and any
byte received cancels that timer: a connection that sends nothing, or a header a byte at a time, was held for
ever (1,000 such connections held open in a probe). Headers larger than h11's bound are uvicorn's 400 already."""

from typing import Any


def bounded_connection_class(header_seconds: float) -> type:
    """uvicorn's `H11Protocol` closing any connection whose next request head is not in within `header_seconds`.

    # Parameters

    header_seconds : how long a connection may take, from opening or from its last answer, to send a request's
        line and headers.
    """
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedConnection(H11Protocol):  # type: ignore[misc]
        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait_for_a_request_head()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._wait_for_a_request_head()

        def _wait_for_a_request_head(self) -> None:
            """Close the connection `header_seconds` from now unless a request's head has come in by then (uvicorn
            starts a new request cycle for each request head it reads)."""
            waiting_since = self.cycle
            self.loop.call_later(header_seconds, self._close_if_no_head_since, waiting_since)

        def _close_if_no_head_since(self, waiting_since: Any) -> None:
            no_new_request = self.cycle is waiting_since and (self.cycle is None or self.cycle.response_complete)
            if no_new_request and not self.transport.is_closing():
                self.transport.close()

    return BoundedConnection
