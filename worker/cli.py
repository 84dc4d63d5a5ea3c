"""The `ajr` command line: `worker`, `status`, `demo` and the local stack under `dev`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from worker.config import Settings


def _settings() -> Settings:
    from worker.config import Settings

    return Settings()


def _cmd_worker(args: argparse.Namespace) -> int:
    from worker.main import serve

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    return asyncio.run(serve(_settings()))


def _cmd_status(args: argparse.Namespace) -> int:
    from worker.main import connect
    from worker.status import status_lines

    async def show() -> int:
        settings = _settings()
        try:
            client = await connect(settings)
        except Exception as exc:
            print(f"cannot reach Temporal at {settings.temporal_address}: {exc}", file=sys.stderr)
            return 2
        for line in await status_lines(client, settings.cluster_name, limit=args.limit):
            print(line)
        return 0

    return asyncio.run(show())


def _cmd_demo(args: argparse.Namespace) -> int:
    from worker.demo import run_demo

    return asyncio.run(run_demo(_settings(), short=not args.full))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ajr", description="Autonomous Job Recovery for Slurm")
    commands = parser.add_subparsers(dest="command", required=True)

    worker = commands.add_parser("worker", help="run an ajr worker in the foreground")
    worker.add_argument("-v", "--verbose", action="store_true")
    worker.set_defaults(handler=_cmd_worker)

    status = commands.add_parser("status", help="jobs ajr manages, and why some are not managed")
    status.add_argument("--limit", type=int, default=50)
    status.set_defaults(handler=_cmd_status)

    demo = commands.add_parser(
        "demo", help="bring up the local stack and show a job being recovered (the seed test)"
    )
    demo.add_argument("--full", action="store_true", help="use the seed's full 30 s/60 s sleeps")
    demo.set_defaults(handler=_cmd_demo)

    from worker.devstack import commands as dev_commands

    dev_commands.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    code = int(args.handler(args) or 0)
    sys.stdout.flush()
    sys.stderr.flush()
    # temporalio's runtime can abort at interpreter exit in short-lived clients (sdk-python#300).
    os._exit(code)
