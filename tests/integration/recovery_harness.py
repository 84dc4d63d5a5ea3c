"""Running ajr for real in a test: a worker on the session's Slurm cluster and Temporal server."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from temporalio.client import Client, WorkflowHandle
from temporalio.testing import WorkflowEnvironment

from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from devstack import SlurmCluster
from models.recovery import JobOutcome
from models.slurm import JobState, SlurmJob
from tests.integration.histories import save_histories
from worker.config import Settings
from worker.main import build, running
from workflows.job_recovery import JobRecoveryWorkflow, workflow_id


def seed_script(
    *,
    comment: str = '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 1}}',
    before: str = "echo 'Sleeping 2 seconds' && sleep 2",
    crash_line: str = "echo 'Rank0: (1) segmentation fault: artificial segfault'",
    after: str = "echo 'Sleep another 60 seconds' && sleep 60 && exit 1",
    srun_args: str = "",
    header: str = "",
) -> str:
    """The seed's verification script (001), with shorter sleeps and pluggable steps."""
    step = " && ".join(
        part for part in ("echo 'Start time: '$DATETIME", before, crash_line, after) if part
    )
    return f"""#!/bin/bash
#SBATCH -t 00:05:00
#SBATCH --comment='{comment}'
{header}
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
echo 'AJR light-weight fault simulation test (auto resume mode: requeue)'
srun -l -u {srun_args} --output="$(pwd)/%x_%j_$DATETIME.log" bash -c "{step}"
"""


@dataclass
class AjrUnderTest:
    settings: Settings
    client: Client
    slurm_env: dict[str, str]
    workdir: Path
    control: SlurmControl

    def submit(self, script: str, *sbatch_args: str, name: str = "ajrtest") -> int:
        path = self.workdir / f"{name}-{uuid.uuid4().hex[:6]}.sh"
        path.write_text(script)
        result = subprocess.run(
            ["sbatch", "--parsable", "-J", name, "-p", "gpu", *sbatch_args, str(path)],
            cwd=self.workdir,
            env=self.slurm_env,
            capture_output=True,
            text=True,
            check=True,
        )
        return int(result.stdout.strip().split(";")[0])

    def scontrol(self, *args: str) -> str:
        return subprocess.run(
            ["scontrol", *args], env=self.slurm_env, capture_output=True, text=True, check=True
        ).stdout

    def handle(self, job_id: int) -> WorkflowHandle[Any, JobOutcome]:
        return self.client.get_workflow_handle_for(
            JobRecoveryWorkflow.run, workflow_id(self.settings.cluster_name, job_id)
        )

    async def job(self, job_id: int) -> SlurmJob:
        job = await self.control.show_job(job_id)
        assert job is not None, f"slurmctld forgot job {job_id}"
        return job

    async def wait_for_job(
        self,
        job_id: int,
        predicate: Callable[[SlurmJob], bool],
        timeout: float,
        what: str,
        poll_s: float = 0.2,
    ) -> SlurmJob:
        deadline = time.monotonic() + timeout
        while True:
            job = await self.job(job_id)
            if predicate(job):
                return job
            if time.monotonic() > deadline:
                raise AssertionError(f"job {job_id}: not {what} within {timeout}s: {job}")
            await asyncio.sleep(poll_s)

    async def wait_for_idle_nodes(self, cluster: SlurmCluster, timeout: float) -> None:
        """Wait until sinfo shows every node idle: no job on it, none still completing there."""
        deadline = time.monotonic() + timeout
        while True:
            states = await asyncio.to_thread(cluster.node_states)
            if states and all(state == "idle" for state in states.values()):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"nodes not idle within {timeout}s: {states}")
            await asyncio.sleep(0.2)

    async def outcome(self, job_id: int, timeout: float) -> JobOutcome:
        deadline = time.monotonic() + timeout
        while True:  # the workflow may not exist until discovery has run
            try:
                return await asyncio.wait_for(
                    self.handle(job_id).result(), max(1.0, deadline - time.monotonic())
                )
            except TimeoutError:
                raise AssertionError(f"job {job_id}: no outcome within {timeout}s") from None
            except Exception:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    async def save_histories(self, scenario: str, *job_ids: int) -> None:
        """Record these jobs' workflow histories when AJR_RECORD_HISTORIES is set."""
        ids = [workflow_id(self.settings.cluster_name, job_id) for job_id in job_ids]
        await save_histories(self.client, scenario, ids)

    def log_files(self, name: str, job_id: int) -> list[Path]:
        return sorted(self.workdir.glob(f"{name}_{job_id}_date_*_time_*.log"))

    def cancel_all(self) -> None:
        subprocess.run(["scancel", "--user", "root"], env=self.slurm_env, check=False)


def make_settings(
    slurm_conf: Path, temporal_address: str, database_url: str, **overrides: Any
) -> Settings:
    values: dict[str, Any] = {
        "slurm_conf": slurm_conf,
        "temporal_address": temporal_address,
        "database_url": database_url,
        "cluster_name": f"t{uuid.uuid4().hex[:8]}",
        "task_queue": f"ajr-{uuid.uuid4()}",
        "slurm_poll_interval": 1.0,
        "log_poll_interval": 0.2,
        "hang_timeout": 120.0,
        # Repeated unknown crashes wait 30 s, 60 s, ... before the next attempt (policy v2);
        # tests/integration/test_policy_v2.py tests that back-off, elsewhere it only adds minutes.
        "unknown_backoff": 0.0,
        **overrides,
    }
    return Settings(**values)


def temporal_address(env: WorkflowEnvironment) -> str:
    return env.client.service_client.config.target_host


@contextlib.asynccontextmanager
async def ajr_running(
    env: WorkflowEnvironment,
    slurm_conf: Path,
    slurm_env: dict[str, str],
    workdir: Path,
    database_url: str,
    **overrides: Any,
) -> AsyncIterator[AjrUnderTest]:
    settings = make_settings(slurm_conf, temporal_address(env), database_url, **overrides)
    runtime = build(settings, env.client)
    control = SlurmControl(SlurmRunner(env=settings.slurm_env()))
    under_test = AjrUnderTest(settings, env.client, slurm_env, workdir, control)
    try:
        async with running(runtime):
            yield under_test
    finally:
        under_test.cancel_all()


REPO = Path(__file__).resolve().parents[2]
WORKER_ENTRY = "tests.integration.worker_entry"
# A worker run as another OS user: the system's interpreter (the venv's may sit under root's home).
SYSTEM_PYTHON = Path(shutil.which("python3.11", path="/usr/bin:/bin") or "/usr/bin/python3.11")


def import_path() -> list[Path]:
    """The directories such a worker imports from (its PYTHONPATH; `-m` adds the cwd, REPO).

    Python lists each of them to find a module in it: search (x) rights alone are not enough.
    """
    return [REPO, Path(sysconfig.get_paths()["purelib"])]


def worker_process(
    settings: Settings,
    log_path: Path,
    *,
    pause_after_hold: float = 0.0,
    workflow: str = "current",
    user: pwd.struct_passwd | None = None,
) -> subprocess.Popen[bytes]:
    """An ajr worker in its own process, configured only through AJR_* variables, with the test
    seams of tests/integration/worker_entry.py (a pause after requeuehold, a workflow variant).

    With `user`, the process runs as that OS user (no supplementary groups), on SYSTEM_PYTHON
    with `import_path()`: that user must be able to list those directories.
    """
    env = {**os.environ}
    for key, value in settings.model_dump().items():
        if value is None:
            continue
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        env[f"AJR_{key.upper()}"] = json.dumps(value) if isinstance(value, list) else str(value)
    env["AJR_TEST_PAUSE_AFTER_HOLD"] = str(pause_after_hold)
    env["AJR_TEST_WORKFLOW"] = workflow
    python = sys.executable
    if user is not None:
        python = str(SYSTEM_PYTHON)
        env["PYTHONPATH"] = os.pathsep.join(map(str, import_path()))
        env["HOME"] = str(settings.state_dir)
        env.pop("VIRTUAL_ENV", None)
    with log_path.open("ab") as log:
        return subprocess.Popen(
            [python, "-m", WORKER_ENTRY],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            extra_groups=[] if user else None,
        )


async def silence_before_requeue(ajr: AjrUnderTest, name: str, job_id: int, limit: float) -> float:
    """Seconds between the log's last line and the job's requeue, measured from outside."""
    await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
    deadline = time.monotonic() + 30
    while not ajr.log_files(name, job_id) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    (log,) = ajr.log_files(name, job_id)
    # The kill appends slurmstepd's "CANCELLED" line: the last line is the mtime seen before.
    last_line_at = log.stat().st_mtime
    deadline = time.monotonic() + limit
    while True:
        # The mtime is read before Slurm is asked: one taken after the kill never counts.
        mtime = log.stat().st_mtime
        if (await ajr.job(job_id)).restart_count != 0:
            return time.time() - last_line_at
        assert time.monotonic() < deadline, f"{name}: not requeued within {limit}s"
        last_line_at = mtime
        await asyncio.sleep(0.1)
