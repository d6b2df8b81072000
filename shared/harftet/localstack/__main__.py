"""`python -m harftet.localstack` (what `make run` calls): the whole backend on one local port."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from pathlib import Path

from harftet.localstack.stack import (
    DEFAULT_HANDLERS,
    REPO_ROOT,
    SWEEP_SECONDS,
    StackOptions,
    serve,
)
from harftet.localstack.throttle import parse_throttle

DEFAULT_DATA = REPO_ROOT / ".data"


def _handler(value: str) -> Path | None:
    return None if value.lower() == "none" else Path(value)


def _assignment(value: str) -> tuple[str, str]:
    key, sep, val = value.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {value!r}")
    return key, val


def parse_args(argv: list[str] | None = None) -> StackOptions:
    """The command line (and PORT / SWEEP_SECONDS from the environment) as StackOptions."""
    parser = argparse.ArgumentParser(
        prog="python -m harftet.localstack",
        description="Serve the Harftet handlers over real HTTP and WebSocket, with moto DynamoDB.",
    )
    _add_function_arguments(parser)
    _add_output_arguments(parser)
    _add_gateway_arguments(parser)
    _add_data_arguments(parser)
    return _options(parser.parse_args(argv))


def _add_function_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the stack listens, and the functions it runs with their environment."""
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "3000")), help="0: a free port"
    )
    for name in ("rest", "ws", "sweeper", "fanout", "timer"):
        parser.add_argument(
            f"--{name}",
            type=_handler,
            default=DEFAULT_HANDLERS[name],
            metavar="PATH|none",
            help=f"the {name} handler file (default: %(default)s)",
        )
    parser.add_argument("--template", type=Path, default=None, help="template.yaml to read")
    parser.add_argument(
        "--sweep-seconds", type=float, default=float(os.environ.get("SWEEP_SECONDS", SWEEP_SECONDS))
    )
    parser.add_argument(
        "--concurrency", type=int, default=8, help="execution environments per function"
    )
    parser.add_argument(
        "--env",
        type=_assignment,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an extra environment variable for the handlers (repeatable)",
    )


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """What the stack tells: the ready file, the request log, the banner."""
    parser.add_argument("--ready-file", type=Path, help="write the URLs here as JSON once ready")
    parser.add_argument("--exit-with-parent", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--access-log", action="store_true", help="log every HTTP request")
    parser.add_argument("--quiet", action="store_true", help="no banner")


def _add_gateway_arguments(parser: argparse.ArgumentParser) -> None:
    """API Gateway's settings: routing, throttling, which proxies are believed."""
    parser.add_argument(
        "--proxy-all",
        action="store_true",
        help="send every path to the REST handler instead of template.yaml's routes only",
    )
    parser.add_argument(
        "--throttle",
        type=parse_throttle,
        default=os.environ.get("THROTTLE") or None,
        metavar="RATE[,BURST]",
        help="throttle REST requests like API Gateway's stage settings (429 rate_limited); "
        "off by default (also THROTTLE=RATE,BURST)",
    )
    parser.add_argument(
        "--trust-proxy",
        default=os.environ.get("TRUST_PROXY") or None,
        metavar="ADDRESSES",
        help="believe X-Forwarded-For from these proxy addresses (comma-separated, or '*'); "
        "by default it is ignored and a request's source address is its connection's "
        "(also TRUST_PROXY=...)",
    )


def _add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the tables are kept across restarts, and whether to start empty."""
    parser.add_argument(
        "--data",
        type=_handler,
        default=Path(os.environ.get("HARFTET_DATA") or DEFAULT_DATA),
        metavar="DIR|none",
        help="keep the tables, players, connections and the token secret here across "
        "restarts (default: %(default)s; also HARFTET_DATA); none: in memory only",
    )
    parser.add_argument(
        "--fresh", action="store_true", help="start empty: forget what the data folder holds"
    )


def _options(args: argparse.Namespace) -> StackOptions:
    """The parsed command line as StackOptions (FRESH=1 in the environment is --fresh too)."""
    return StackOptions(
        host=args.host,
        port=args.port,
        rest_handler=args.rest,
        ws_handler=args.ws,
        sweeper=args.sweeper,
        fanout=args.fanout,
        timer=args.timer,
        template=args.template,
        sweep_seconds=args.sweep_seconds,
        max_concurrency=args.concurrency,
        env=dict(args.env),
        ready_file=args.ready_file,
        exit_with_parent=args.exit_with_parent,
        access_log=args.access_log,
        quiet=args.quiet,
        proxy_all=args.proxy_all,
        throttle=args.throttle,
        trust_proxy=args.trust_proxy,
        data_dir=args.data,
        fresh=args.fresh or os.environ.get("FRESH", "") not in ("", "0"),
    )


class _Formatter(logging.Formatter):
    """`HH:MM:SS.mmm LEVEL message`: one line a record; errors stand out (red on a terminal,
    and `!!` before them in a file)."""

    def __init__(self, color: bool) -> None:
        super().__init__("%(asctime)s.%(msecs)03d %(levelname)-5s %(message)s", "%H:%M:%S")
        self.color = color

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if record.levelno < logging.ERROR:
            return text
        return f"\033[1;31m{text}\033[0m" if self.color else f"!! {text}"


def main(argv: list[str] | None = None) -> None:
    """Run the local stack until Ctrl-C."""
    handler = logging.StreamHandler()
    handler.setFormatter(_Formatter(color=sys.stderr.isatty()))
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    logging.basicConfig(level=getattr(logging, level, logging.INFO), handlers=[handler])
    options = parse_args(argv)
    for path in (
        options.rest_handler,
        options.ws_handler,
        options.sweeper,
        options.fanout,
        options.timer,
    ):
        if path is not None and not path.is_file():
            sys.exit(f"handler file not found: {path}")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl-C after a clean stop
        serve(options)


if __name__ == "__main__":
    main()
