"""The ASGI application of `srl-zoo serve` (Starlette): the page, `/health`, `/api/label`, `/metrics`.

Every refusal is a JSON object `{"error": "..."}` with a 4xx or 5xx status; the service keeps serving.

Starlette is imported where the application is built: only `srl-zoo serve` needs it, and importing every
module of srl_zoo (`--include-package srl_zoo`) works where it is not installed (a GPU image).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Optional

from srl_zoo.front.labeler_contract import TextLabeler
from srl_zoo.serving.batcher import Batcher, Overloaded, Unfinished
from srl_zoo.serving.hosts import LOOPBACK_NAMES, HostCheck
from srl_zoo.serving.limits import ServiceLimits
from srl_zoo.serving.machine_rate import measure_rate
from srl_zoo.serving.metrics import ServiceMetrics
from srl_zoo.serving.requests import RequestError, parse_body, sentence_items, sentence_json

STATIC = os.path.join(os.path.dirname(__file__), "static")
#: seconds a client told 503 should wait before trying again
RETRY_AFTER_SECONDS = 1

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response


def create_app(
    labeler: TextLabeler,
    model_name: str,
    limits: ServiceLimits = ServiceLimits(),
    hosts: Optional[frozenset[str]] = LOOPBACK_NAMES,
) -> Starlette:
    """The service for `labeler`'s model.

    # Parameters

    labeler : the model's labeler (`srl_zoo.labelers.load_labeler`; `/health` reports its precision).
    model_name : what `/health` calls the model (e.g. the archive's file name).
    limits : the request, queue and batch bounds.
    hosts : the names a request's `Host` header may give (`hosts.allowed_hosts`; others are answered 400), None
        for any.
    """
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    metrics = ServiceMetrics()
    batcher = Batcher(labeler, limits, metrics)
    rate = measure_rate(labeler, limits)
    health: dict[str, Any] = {"status": "ok", "model": model_name, "labels": labeler.role_names}
    health["precision"] = labeler.precision
    health["precision_reason"] = labeler.precision_reason
    health["limits"] = {name: getattr(limits, name) for name in limits.__dataclass_fields__}
    health["measured"] = {  # at start-up: what fits in max_request_seconds here
        "row_words_per_second": round(rate.row_words_per_second),
        "row_words_within_max_request_seconds": int(rate.row_words_per_second * limits.max_request_seconds),
    }

    async def label(request: Request) -> Response:
        started = time.perf_counter()
        try:
            _check_content_type(request)
            body = await _read_body(request, limits.max_body_bytes, limits.max_discarded_body_bytes)
            items = await run_in_threadpool(sentence_items, parse_body(body), labeler, limits)
            rate.check(items, limits)
            labeled = await batcher.label(items)
            answer: dict[str, Any] = {
                "sentences": [sentence_json(s, i.offsets) for s, i in zip(labeled, items, strict=False)]
            }
            response: Response = JSONResponse(answer)
        except RequestError as error:
            response = JSONResponse({"error": error.message}, status_code=error.status)
        except Overloaded as error:
            message = f"the service is busy ({error}): try again in {RETRY_AFTER_SECONDS} s"
            headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
            response = JSONResponse({"error": message}, status_code=503, headers=headers)
        except Unfinished as error:
            response = JSONResponse({"error": str(error)}, status_code=503)
        except Exception as error:  # a model failure: this request fails, the service goes on
            response = JSONResponse({"error": f"labeling failed: {type(error).__name__}: {error}"}, status_code=500)
        metrics.observe_response(response.status_code, time.perf_counter() - started)
        return response

    async def show_health(request: Request) -> Response:
        return JSONResponse({**health, "queue_sentences": batcher.waiting_sentences})

    async def show_metrics(request: Request) -> Response:
        return PlainTextResponse(metrics.render(), media_type="text/plain; version=0.0.4")

    async def page(request: Request) -> Response:
        return FileResponse(os.path.join(STATIC, "index.html"))

    async def http_error(request: Request, error: Exception) -> Response:
        status = error.status_code if isinstance(error, HTTPException) else 500
        detail = error.detail if isinstance(error, HTTPException) else "internal error"
        return JSONResponse({"error": f"{detail}: {request.method} {request.url.path}"}, status_code=status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        batcher.start()
        try:
            yield
        finally:
            batcher.stop()  # after uvicorn has answered the requests in flight

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/health", show_health, methods=["GET"]),
        Route("/metrics", show_metrics, methods=["GET"]),
        Route("/api/label", label, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [] if hosts is None else [Middleware(HostCheck, allowed=hosts)]
    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error}, middleware=middleware
    )
    app.state.batcher = batcher  # `srl-zoo serve` starts its drain on SIGTERM
    return app


def _check_content_type(request: Request) -> None:
    """`RequestError` 415 unless the body is declared JSON (`application/json`, any parameters)."""
    declared = request.headers.get("content-type")
    if declared is None or declared.split(";", 1)[0].strip().lower() != "application/json":
        given = "no Content-Type" if declared is None else f"Content-Type {declared!r}"
        raise RequestError(415, f"send the body as JSON with Content-Type: application/json ({given} was given)")


async def _read_body(request: Request, limit: int, bound: int) -> bytes:
    """The body, kept no further than `limit` bytes (`RequestError` 413 past it). A body over the limit is read
    to its end and thrown away, up to `bound` bytes, before the 413 is sent: a client that is still sending
    (Python's urllib, requests, curl) would otherwise see the connection closed under it, not the answer. Past
    that bound the 413 goes at once and the connection closes."""
    declared = request.headers.get("content-length")
    declared_size = int(declared) if declared is not None and declared.isdigit() else None
    chunks, size = [], 0
    if declared_size is None or declared_size <= bound:  # past the bound: answered at once, unread
        async for chunk in request.stream():
            size += len(chunk)
            if size > bound:
                break
            if size <= limit:
                chunks.append(chunk)
    if declared_size is not None and declared_size > limit:
        raise RequestError(413, f"the body is {declared_size} bytes; the limit is {limit} (max_body_bytes)")
    if size > limit:
        raise RequestError(413, f"the body is over {limit} bytes (max_body_bytes)")
    return b"".join(chunks)
