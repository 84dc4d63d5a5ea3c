"""`ajr dev up | down | status | env`: the local stack (devstack/) configured by ajr's settings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from devstack.processes import DevStackError
from devstack.stack import DevStack, StackConfig, format_status
from worker.config import Settings


def stack_config(settings: Settings | None = None, **overrides: Any) -> StackConfig:
    """The local stack as ajr's settings (AJR_DEV_*, AJR_STATE_DIR, ...) describe it."""
    s = settings or Settings()
    config = StackConfig(
        ajr_state_dir=s.state_dir.resolve(),
        cluster_name=s.cluster_name,
        nodes=s.dev_nodes,
        partition=s.dev_partition,
        slurmctld_port=s.dev_slurmctld_port,
        slurmd_port=s.dev_slurmd_port,
        node_port_base=s.dev_node_port_base,
        temporal_port=s.dev_temporal_port,
        temporal_ui_port=s.dev_temporal_ui_port,
        namespace=s.temporal_namespace,
        database_url=s.database_url,
    )
    return replace(config, **overrides)


def _stack(args: argparse.Namespace) -> DevStack:
    config = stack_config()
    if getattr(args, "no_worker", False):
        config = replace(config, start_worker=False)
    return DevStack(config)


def _up(args: argparse.Namespace) -> int:
    stack = _stack(args)
    for line in stack.up(timeout=args.timeout):
        print(line)
    print(f"Temporal UI: {stack.temporal.ui_url}")
    print('Use the stack from a shell: eval "$(ajr dev env)"')
    return 0


def _down(args: argparse.Namespace) -> int:
    for line in _stack(args).down(cancel_jobs=not args.keep_jobs):
        print(line)
    return 0


def _status(args: argparse.Namespace) -> int:
    stack = _stack(args)
    print(format_status(stack))
    return 0 if stack.is_up() else 3  # 3, like `systemctl status`: not running


def _env(args: argparse.Namespace) -> int:
    sys.stdout.write(_stack(args).shell_exports())
    return 0


Handler = Callable[[argparse.Namespace], int]


def _guarded(handler: Handler) -> Handler:
    """Turn DevStackError into a one-paragraph error and exit code 1 instead of a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except DevStackError as exc:
            print(f"ajr dev {args.dev_command}: error: {exc}", file=sys.stderr)
            return 1

    return run


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    dev = subparsers.add_parser(
        "dev",
        help="local stack: a 4-node Slurm cluster, a Temporal dev server and an ajr worker",
        description="Ports and size come from AJR_DEV_* settings; state is in AJR_STATE_DIR/dev.",
    )
    commands = dev.add_subparsers(dest="dev_command", required=True)

    up = commands.add_parser("up", help="start what is not running (needs root)")
    up.add_argument("--no-worker", action="store_true", help="do not start an ajr worker")
    up.add_argument("--timeout", type=float, default=90.0, help="seconds to wait per piece")
    up.set_defaults(handler=_guarded(_up))

    down = commands.add_parser("down", help="stop exactly what `up` started")
    down.add_argument(
        "--keep-jobs", action="store_true", help="do not scancel jobs before stopping Slurm"
    )
    down.set_defaults(handler=_guarded(_down))

    status = commands.add_parser("status", help="show each piece, its PID, ports and logs")
    status.set_defaults(handler=_guarded(_status))

    env = commands.add_parser("env", help='print exports: eval "$(ajr dev env)"')
    env.set_defaults(handler=_guarded(_env))
