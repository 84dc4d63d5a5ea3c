"""Several workers on one task queue, as a site runs them (two systemd units, two pod replicas).

Real worker processes on the real cluster: both run discovery and neither starts a duplicate
workflow; each polls slurmctld once per interval, whatever the jobs; the worker carrying out a
requeue is SIGKILLed between requeuehold and release and another worker finishes it, exactly once;
a worker stopped with SIGTERM exits cleanly and its watch is taken over without a lost or doubled
action.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from temporalio.service import RPCError

from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from models.recovery import Action, Outcome
from models.slurm import JobState
from tests.integration.recovery_harness import (
    AjrUnderTest,
    make_settings,
    seed_script,
    temporal_address,
    worker_process,
)
from tests.integration.test_observability import free_port
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.integration


def job_info_rpcs(env: dict[str, str]) -> int:
    out = subprocess.run(["sdiag"], env=env, capture_output=True, text=True, check=True).stdout
    return sum(int(m) for m in re.findall(r"REQUEST_JOB_INFO\w*\s+\(\s*\d+\)\s+count:(\d+)", out))


async def holder(
    ajr: AjrUnderTest,
    job_id: int,
    activity_type: str,
    alive: dict[int, subprocess.Popen[bytes]],
    timeout: float = 60,
) -> int:
    """The PID of the live worker running this job's pending activity (identity `pid@host`)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            description = await ajr.handle(job_id).describe()
        except RPCError:  # not started yet: discovery runs once per poll interval
            assert time.monotonic() < deadline, f"job {job_id}: no workflow"
            await asyncio.sleep(0.2)
            continue
        for pending in description.raw_description.pending_activities:
            identity = pending.last_worker_identity
            if pending.activity_type.name == activity_type and identity:
                pid = int(identity.split("@", 1)[0])
                if pid in alive and alive[pid].poll() is None:
                    return pid
        assert time.monotonic() < deadline, f"job {job_id}: no worker runs {activity_type}"
        await asyncio.sleep(0.2)


def metric_sum(body: str, name: str) -> float:
    return sum(
        float(match)
        for match in re.findall(rf"^{name}(?:{{[^}}]*}})? ([0-9.e+-]+)$", body, re.MULTILINE)
    )


async def recorded_cursor(ajr: AjrUnderTest, job_id: int) -> dict[str, Any]:
    """The log cursor Temporal holds from the job's pending watch's last heartbeat ({}: none)."""
    description = await ajr.handle(job_id).describe()
    for pending in description.raw_description.pending_activities:
        if pending.activity_type.name == "watch_attempt" and pending.heartbeat_details.payloads:
            cursor = json.loads(pending.heartbeat_details.payloads[0].data)
            return cursor if isinstance(cursor, dict) else {}
    return {}


async def test_two_workers_failover_exactly_once(
    temporal_env, slurm_cluster, workdir: Path, mysql_url, tmp_path: Path
) -> None:
    settings = make_settings(slurm_cluster.conf, temporal_address(temporal_env), mysql_url)
    ports = [free_port(), free_port()]
    # Both pause after each requeuehold: whichever carries out the requeue can be killed there.
    first = [
        worker_process(
            settings.model_copy(update={"metrics_port": port}),
            tmp_path / f"worker-{n}.log",
            pause_after_hold=20.0,
        )
        for n, port in enumerate(ports)
    ]
    processes = {process.pid: process for process in first}
    control = SlurmControl(SlurmRunner(env=settings.slurm_env()))
    ajr = AjrUnderTest(settings, temporal_env.client, slurm_cluster.env, workdir, control)
    trigger = workdir / "crash-now"
    try:
        # Load: two idle workers cost slurmctld one job-info RPC each per poll interval.
        await asyncio.sleep(3)
        window = 8.0
        before = job_info_rpcs(slurm_cluster.env)
        await asyncio.sleep(window)
        rpcs = job_info_rpcs(slurm_cluster.env) - before
        polls = window / settings.slurm_poll_interval
        print(f"2 idle workers: {rpcs} job-info RPCs in {window}s (poll interval 1 s)")
        assert rpcs <= 2 * (polls + 1), f"{rpcs} job-info RPCs in {window}s from 2 workers"

        crashing = ajr.submit(
            seed_script(comment='{"APS": {"max_requeue_times": 1}}'), name="ha-crash"
        )
        waiting = ajr.submit(
            seed_script(
                before=f"if [ ! -e {trigger}.done ]; then "
                f"while [ ! -e {trigger} ]; do sleep 0.2; done; touch {trigger}.done; "
                "echo 'Rank0: (1) segmentation fault: after the handover'; sleep 60; fi",
                crash_line="",
                after="exit 0",
            ),
            name="ha-watch",
        )
        await ajr.wait_for_job(waiting, lambda j: j.state is JobState.RUNNING, 30, "running")
        await holder(ajr, waiting, "watch_attempt", processes)

        # Both workers ran discovery on both jobs; Temporal started each workflow once.
        async with httpx.AsyncClient(timeout=5) as client:
            bodies = [(await client.get(f"http://127.0.0.1:{p}/metrics")).text for p in ports]
        assert sum(metric_sum(b, "ajr_jobs_enrolled_total") for b in bodies) == 2.0

        # SIGKILL the worker that holds the crashing job between requeuehold and release.
        held = await ajr.wait_for_job(crashing, lambda j: j.held, 60, "held by requeuehold")
        assert held.restart_count == 1
        victim = await holder(ajr, crashing, "requeue_job", processes)
        processes[victim].send_signal(signal.SIGKILL)
        processes[victim].wait(10)
        replacement = worker_process(settings, tmp_path / "worker-2.log")
        processes[replacement.pid] = replacement

        crashed = await ajr.outcome(crashing, timeout=120)
        assert crashed.outcome is Outcome.MAX_REQUEUES, crashed
        job = await ajr.job(crashing)
        assert job.restart_count == 1 and not job.held, job  # released once, never twice
        attempts = await ajr.handle(crashing).query(JobRecoveryWorkflow.attempts)
        requeues = [a for a in attempts if a.action is Action.REQUEUE and a.acted]
        assert len(requeues) == 1, attempts
        engine = create_engine(mysql_url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(
                    text(
                        "SELECT COUNT(*) FROM decision_records "
                        "WHERE job_id = :job AND action = 'requeue' AND acted"
                    ),
                    {"job": crashing},
                ).scalar_one()
        finally:
            engine.dispose()
        assert rows == 1

        # The other job's watch has heartbeated the same cursor for a while now (details are
        # rebuilt only when it changes, yet every heartbeat carries them): Temporal still holds
        # it, read to the log's first line, for the worker that takes over.
        cursor = await recorded_cursor(ajr, waiting)
        assert cursor.get("path", "").endswith(".log") and cursor.get("offset", 0) > 0, cursor
        assert cursor.get("lines", 0) >= 1 and cursor.get("running_since", 0) > 0, cursor

        # SIGTERM the worker watching the other job: it exits cleanly, another takes over.
        watcher = await holder(ajr, waiting, "watch_attempt", processes)
        processes[watcher].send_signal(signal.SIGTERM)
        assert processes[watcher].wait(30) == 0
        await asyncio.sleep(1)
        trigger.touch()
        completed = await ajr.outcome(waiting, timeout=120)
        assert completed.outcome is Outcome.COMPLETED, completed
        assert (await ajr.job(waiting)).restart_count == 1  # the crash after the handover: once
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(15)
        ajr.cancel_all()
