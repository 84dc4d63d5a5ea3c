"""The simulated cluster's stack: the controller process, a Temporal dev server, one ajr worker.

The worker is the production one (`python -m worker worker`) with `AJR_SLURM_BIN_DIR` pointing
at the controller's commands; nothing else about it differs from bench/chaos.py's stack.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from activities.database import migrate
from activities.database.engine import make_engine
from bench.chaos import OFFSET, ROOT, TEMPORAL_PORT, TEMPORAL_UI_PORT
from bench.simslurm.controller import request
from devstack.temporal import TemporalServer


@dataclass
class SimStack:
    root: Path
    temporal: TemporalServer
    db_path: Path
    cluster_name: str
    controller: subprocess.Popen[bytes]
    worker: subprocess.Popen[bytes] | None = None
    worker_overrides: dict[str, str] = field(default_factory=dict)

    @property
    def bin_dir(self) -> Path:
        return self.root / "sim" / "bin"

    @property
    def socket(self) -> Path:
        return self.root / "sim" / "slurmctld.sock"

    def program(self, name: str) -> str:
        return str(self.bin_dir / name)

    def control(self, payload: dict[str, Any]) -> dict[str, Any]:
        return request(self.socket, payload)

    def worker_env(self) -> dict[str, str]:
        import os

        # Bytecode as an installed worker has it (pip compiles): with PYTHONDONTWRITEBYTECODE
        # and no __pycache__, every new workflow's sandbox compiled workflows/job_recovery.py
        # from source (14 % of the worker's CPU while 1,000 jobs enrolled here).
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("AJR_") and k != "PYTHONDONTWRITEBYTECODE"
        }
        env.update(
            {
                "PYTHONPYCACHEPREFIX": str(self.root / "pycache"),
                "AJR_SLURM_BIN_DIR": str(self.bin_dir),
                "AJR_TEMPORAL_ADDRESS": self.temporal.address,
                "AJR_DATABASE_URL": f"sqlite:///{self.db_path}",
                "AJR_STATE_DIR": str(self.db_path.parent / "ajr-state"),
                "AJR_CLUSTER_NAME": self.cluster_name,
                "AJR_TASK_QUEUE": f"ajr-sim-{self.cluster_name}",
                "AJR_HANG_TIMEOUT": "300",
                "PYTHONPATH": str(ROOT),
                **self.worker_overrides,
            }
        )
        return env

    def start_worker(self) -> None:
        log = (self.root / "worker.log").open("ab")
        # AJR_BENCH_SAMPLE=OUT.jsonl: the worker runs under bench/sampler.py (its profile).
        sample = os.environ.get("AJR_BENCH_SAMPLE")
        wrap = ["-m", "bench.sampler", sample] if sample else []
        self.worker = subprocess.Popen(
            [sys.executable, *wrap, "-m", "worker", "worker"],
            env=self.worker_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
        log.close()

    def stop_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGTERM)
            try:
                self.worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.worker.kill()
                self.worker.wait(timeout=30)
        self.worker = None


@contextlib.contextmanager
def sim_stack_running(
    keep: bool, *, worker_overrides: dict[str, str] | None = None, port_shift: int = 60
) -> Iterator[SimStack]:
    root = Path(tempfile.mkdtemp(prefix="ajr-simscale-", dir="/tmp"))
    root.chmod(0o755)
    temporal = TemporalServer(
        root / "temporal", port=TEMPORAL_PORT + port_shift, ui_port=TEMPORAL_UI_PORT + port_shift
    )
    state = root / "state"
    state.mkdir()
    log = (root / "controller.log").open("ab")
    controller = subprocess.Popen(
        [sys.executable, "-m", "bench.simslurm.controller", "--root", str(root / "sim")],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    stack = SimStack(
        root, temporal, state / "ajr.db", f"sim{OFFSET}x{uuid.uuid4().hex[:6]}", controller
    )
    stack.worker_overrides = dict(worker_overrides or {})
    engine = make_engine(f"sqlite:///{stack.db_path}")
    migrate.upgrade(engine)
    engine.dispose()
    try:
        for _ in range(100):
            if stack.socket.exists():
                break
            time.sleep(0.1)
        temporal.start(timeout=90)
        stack.start_worker()
        yield stack
    finally:
        stack.stop_worker()
        with contextlib.suppress(Exception):
            temporal.stop()
        controller.send_signal(signal.SIGTERM)
        try:
            controller.wait(timeout=10)
        except subprocess.TimeoutExpired:
            controller.kill()
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
