"""The `ajr` command line: `worker`, `status`, `demo`, `check-log` and the local stack (`dev`)."""

from __future__ import annotations

import argparse
import asyncio
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
    from worker.logs import configure_logging
    from worker.main import serve

    settings = _settings()
    configure_logging(settings.log_format, verbose=args.verbose)
    return asyncio.run(serve(settings))


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


def _cmd_node_resume(args: argparse.Namespace) -> int:
    from worker.nodes import resume_node

    outcome = asyncio.run(
        resume_node(
            _settings(), args.node, force=args.force, skip_healthcheck=args.skip_healthcheck
        )
    )
    print(outcome.message, file=sys.stderr if outcome.code else sys.stdout)
    return outcome.code


def _cmd_node_list(args: argparse.Namespace) -> int:
    from worker.nodes import node_lines

    for line in asyncio.run(node_lines(_settings(), days=args.days)):
        print(line)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from worker.demo import run_demo

    return asyncio.run(run_demo(_settings(), short=not args.full))


def _cmd_check_log(args: argparse.Namespace) -> int:
    import json

    from pydantic import ValidationError

    from activities.logs.checklog import EXIT_UNREADABLE, CheckLogError
    from activities.slurm.parse import ParseError, expand_nodes
    from worker.checklog import report_json, run_check_log
    from worker.main import recovery_config

    try:
        settings = _settings()
        overrides: dict[str, object] = {}
        if args.hang_timeout is not None:
            overrides["hang_timeout"] = args.hang_timeout
        if args.checkpoint_pattern:
            overrides["extra_checkpoint_patterns"] = [
                *settings.extra_checkpoint_patterns,
                *args.checkpoint_pattern,
            ]
        if overrides:  # validated like the environment's values
            settings = settings.model_validate({**settings.model_dump(), **overrides})
    except ValidationError as exc:
        print(f"ajr check-log: bad setting: {exc}", file=sys.stderr)
        return 2
    try:
        nodes = expand_nodes(args.nodes)
        report, verdict = run_check_log(
            args.file, recovery_config(settings), nodes=nodes, silent_for=args.silent_for
        )
    except (CheckLogError, ParseError) as exc:
        print(f"ajr check-log: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.json:
        print(json.dumps(report_json(report, verdict), indent=2))
    else:
        lines = report.render()
        if verdict is not None:
            lines.append(f"  ajr would: {verdict.action} ({'; '.join(verdict.reasons[-2:])})")
        print("\n".join(lines))
    return report.exit_code


def _cmd_db(args: argparse.Namespace) -> int:
    from activities.database import migrate
    from activities.database.engine import make_engine

    settings = _settings()
    engine = make_engine(settings.database_url)
    try:
        if args.db_command == "upgrade":
            print(f"schema at {migrate.upgrade(engine, args.revision)}")
        else:
            now, newest = migrate.current(engine), migrate.head()
            print(f"{now or '(none)'}{' (head)' if now == newest else f' (head is {newest})'}")
            return 0 if now == newest else 1
    except Exception as exc:
        print(f"ajr db {args.db_command}: {exc}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    import json
    import time
    from pathlib import Path

    from worker.report import load, render

    settings = _settings()
    report = load(settings, args.job_id, now=time.time())
    if report is None:
        print(
            f"no records of job {args.job_id} on cluster {settings.cluster_name}", file=sys.stderr
        )
        return 3
    if args.png:
        from worker.timeline import draw_timeline

        draw_timeline(report, Path(args.png))
    print(json.dumps(report, indent=2) if args.json else "\n".join(render(report)))
    return 0


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

    check = commands.add_parser(
        "check-log",
        help="is a log in the format ajr needs, and what would ajr detect in it",
        description="Checks the seed's log format rules (job ID in the file name, timestamps, "
        "srun -l rank prefixes, a line at least every 2 minutes, TFLOP lines, checkpoint saves) "
        "and replays the log through ajr's log engine. Exit status: 0 format fine and no "
        "anomaly, 1 format problems only, 3 an anomaly (CRASH, HANG, STRAGGLER) was found, "
        "4 the file cannot be read (2 is a usage error).",
    )
    check.add_argument("file", help="the log file")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument(
        "--hang-timeout",
        type=float,
        default=None,
        help="seconds of silence that make a hang (default: AJR_HANG_TIMEOUT, 120)",
    )
    check.add_argument(
        "--silent-for",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="the log has not grown for this long while its job still runs (a live log)",
    )
    check.add_argument("--nodes", help="the job's nodes (e.g. node[1-4]), to name culprits")
    check.add_argument(
        "--checkpoint-pattern",
        action="append",
        default=[],
        metavar="REGEX",
        help="an extra checkpoint-save pattern (as in AJR_EXTRA_CHECKPOINT_PATTERNS); repeatable",
    )
    check.set_defaults(handler=_cmd_check_log)

    db = commands.add_parser("db", help="the database schema (Alembic migrations)")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    upgrade = db_commands.add_parser("upgrade", help="migrate AJR_DATABASE_URL to the newest")
    upgrade.add_argument("revision", nargs="?", default="head")
    db_commands.add_parser("current", help="the schema's revision (exit 1: not the newest)")
    db.set_defaults(handler=_cmd_db)

    report = commands.add_parser(
        "report", help="a job's story: attempts, anomalies, decisions, saves, KPIs"
    )
    report.add_argument("job_id", type=int)
    report.add_argument("--json", action="store_true", help="print one JSON object")
    report.add_argument("--png", metavar="FILE", help="draw the job's timeline into FILE")
    report.set_defaults(handler=_cmd_report)
    node = commands.add_parser("node", help="nodes ajr quarantined")
    node_commands = node.add_subparsers(dest="node_command", required=True)
    resume = node_commands.add_parser(
        "resume", help="return a node ajr drained to service (after AJR_NODE_HEALTHCHECK)"
    )
    resume.add_argument("node")
    resume.add_argument("--force", action="store_true", help="also a node drained by others")
    resume.add_argument(
        "--skip-healthcheck", action="store_true", help="do not run AJR_NODE_HEALTHCHECK"
    )
    resume.set_defaults(handler=_cmd_node_resume)
    listing = node_commands.add_parser(
        "list", help="nodes out of service, and ajr's quarantine actions and suggestions"
    )
    listing.add_argument("--days", type=float, default=7.0)
    listing.set_defaults(handler=_cmd_node_list)

    from worker import dev

    dev.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    code = int(args.handler(args) or 0)
    sys.stdout.flush()
    sys.stderr.flush()
    # temporalio's runtime can abort at interpreter exit in short-lived clients (sdk-python#300).
    os._exit(code)
