"""`srl-zoo serve MODEL` without allennlp: its command line and its run (the labeling service and its page on
loopback). The allennlp subcommand `srl-serve` and the console script's allennlp-free path (`srl_zoo.cli`) both
build their parser here and call `run`."""

import argparse
import os
import sys
from collections.abc import Callable
from types import FrameType
from typing import Optional

from srl_zoo.nn.precision import add_precision_argument
from srl_zoo.serving.limits import ServiceLimits

DEFAULTS = ServiceLimits()

DESCRIPTION = (
    "Serve a trained model over HTTP (Starlette under uvicorn): a page that draws the frames at /, "
    "POST /api/label with {'text': ...} or {'sentences': [[tokens]]}, GET /health and GET /metrics. "
    "Concurrent requests are labeled together, a large one in bounded calls that small ones interleave "
    "with; SIGTERM labels the requests in flight for at most --drain-seconds (503 for the rest), then exits."
)
USAGE = "srl-zoo serve MODEL [--host 127.0.0.1] [--port 8000] [--precision auto] [options]"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Give `parser` the arguments of `srl-zoo serve` (all but `--verbose`)."""
    parser.add_argument("archive_file", metavar="MODEL", help="model.tar.gz of a trained srl_zoo model")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name clients reach the service by, beside the bound address's (a proxy's or a DNS name; repeat for "
        "more): requests whose Host header gives another name are answered 400",
    )
    add_precision_argument(parser)
    parser.add_argument("--cuda-device", type=int, default=-1, help="GPU index, -1 for the CPU")
    parser.add_argument("--batch-size", type=int, default=DEFAULTS.max_batch_sentences, help="sentences per model call")
    parser.add_argument(
        "--max-wait-ms",
        type=float,
        default=DEFAULTS.max_wait_seconds * 1000,
        help="how long a request waits for others to share its model call (default 5)",
    )
    parser.add_argument(
        "--max-queue", type=int, default=DEFAULTS.max_queue_sentences, help="sentences waiting before 503"
    )
    parser.add_argument(
        "--max-request-tokens", type=int, default=DEFAULTS.max_request_tokens, help="tokens per request (413 past)"
    )
    parser.add_argument(
        "--max-request-row-words",
        type=int,
        default=DEFAULTS.max_request_row_words,
        help="predicate rows x words per request (413 past; a given predicate is a row, a sentence without "
        "them counts a quarter of its words)",
    )
    parser.add_argument(
        "--max-body-bytes", type=int, default=DEFAULTS.max_body_bytes, help="request body size (413 past)"
    )
    parser.add_argument(
        "--max-discarded-body-bytes",
        type=int,
        default=DEFAULTS.max_discarded_body_bytes,
        help="a body over --max-body-bytes is read and dropped up to this size before its 413, so that a client "
        "still sending reads the answer; past it the connection closes",
    )
    parser.add_argument(
        "--max-sentence-words",
        type=int,
        default=DEFAULTS.max_sentence_words,
        help=f"words per sentence (413 past; default {DEFAULTS.max_sentence_words})",
    )
    parser.add_argument(
        "--max-request-seconds",
        type=float,
        default=DEFAULTS.max_request_seconds,
        help=f"a request not answered this long after arriving gets 503 (default {DEFAULTS.max_request_seconds:g})",
    )
    parser.add_argument(
        "--drain-seconds",
        type=float,
        default=DEFAULTS.drain_seconds,
        help=f"after SIGTERM, how long taken requests may still be labeled (default {DEFAULTS.drain_seconds:g})",
    )
    parser.add_argument(
        "--header-seconds",
        type=float,
        default=DEFAULTS.header_seconds,
        help="a connection that has not sent a whole request head this long after opening or its last answer is "
        f"closed (default {DEFAULTS.header_seconds:g})",
    )
    parser.add_argument(
        "--keep-alive-seconds",
        type=int,
        default=DEFAULTS.keep_alive_seconds,
        help=f"an idle connection is closed this long after its last answer (default {DEFAULTS.keep_alive_seconds:g})",
    )


def run(args: argparse.Namespace) -> None:
    """Serve `args.archive_file` as the command line says, until a stop signal."""
    if not os.path.isfile(args.archive_file):
        sys.exit(f"srl-zoo serve: no model archive at {args.archive_file!r}: give a model.tar.gz")
    if not 0 <= args.port <= 65535:
        sys.exit(f"srl-zoo serve: --port must be from 0 to 65535, got {args.port}")
    import uvicorn

    from srl_zoo.labelers import load_labeler
    from srl_zoo.serving.app import create_app
    from srl_zoo.serving.connections import bounded_connection_class
    from srl_zoo.serving.hosts import allowed_hosts

    limits = ServiceLimits(
        max_body_bytes=args.max_body_bytes,
        max_discarded_body_bytes=args.max_discarded_body_bytes,
        max_request_tokens=args.max_request_tokens,
        max_request_row_words=args.max_request_row_words,
        max_queue_sentences=args.max_queue,
        max_batch_sentences=args.batch_size,
        max_wait_seconds=args.max_wait_ms / 1000,
        max_sentence_words=args.max_sentence_words,
        max_request_seconds=args.max_request_seconds,
        drain_seconds=args.drain_seconds,
        header_seconds=args.header_seconds,
        keep_alive_seconds=args.keep_alive_seconds,
    )
    labeler = load_labeler(args.archive_file, cuda_device=args.cuda_device, precision=args.precision)
    hosts = allowed_hosts(args.host, args.allowed_host)
    app = create_app(labeler, os.path.basename(args.archive_file), limits, hosts)
    print(
        f"srl-zoo serve: {args.archive_file} ({labeler.precision}) at http://{args.host}:{args.port}/",
        flush=True,
    )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="info" if args.verbose else "warning",
        access_log=args.verbose,
        # the batcher answers every taken request within the drain (and one model call): uvicorn need not cancel
        timeout_graceful_shutdown=int(limits.drain_seconds) + 30,
        http=bounded_connection_class(limits.header_seconds),
        timeout_keep_alive=limits.keep_alive_seconds,
    )
    draining_server_class()(config, app.state.batcher.begin_drain).run()


def draining_server_class() -> type:
    """uvicorn's `Server` that also starts the batcher's drain when a stop signal arrives (uvicorn alone
    waits for the requests in flight, and a long one held it past every timeout)."""
    import uvicorn

    class Draining(uvicorn.Server):
        def __init__(self, config: "uvicorn.Config", on_exit: Callable[[], None]) -> None:
            super().__init__(config)
            self.on_exit = on_exit

        def handle_exit(self, sig: int, frame: Optional[FrameType]) -> None:
            self.on_exit()
            super().handle_exit(sig, frame)

    return Draining
