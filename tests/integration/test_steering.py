"""Steering a job's recovery from outside, on real Slurm: pause, exclude, resume, stop.

The operator's signals and updates go through the Temporal dev server exactly as the `temporal`
CLI sends them; every effect is checked in slurmctld.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from models.recovery import ExcludeNodesRequest, MaxRequeuesRequest, Outcome
from models.slurm import JobState
from tests.integration.recovery_harness import AjrUnderTest, seed_script
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.integration

# Attempt 0 crashes once the trigger file exists; later attempts train quietly.
STEP = """#!/bin/bash
if [ "${{SLURM_RESTART_COUNT:-0}}" = 0 ]; then
    while [ ! -e {trigger} ]; do sleep 0.2; done
    echo 'Rank0: (1) segmentation fault: while paused'
    sleep 2
    exit 1
fi
echo 'iteration 1/100 | lm loss: 2.0'
sleep 300
"""


async def phase(ajr: AjrUnderTest, job_id: int, prefix: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
            if status.phase.startswith(prefix):
                return
        except Exception:
            status = None
        assert time.monotonic() < deadline, f"job {job_id}: never {prefix!r}: {status}"
        await asyncio.sleep(0.3)


async def test_pause_exclude_resume_then_stop(
    start_ajr, slurm_cluster, workdir: Path, sqlite_url
) -> None:
    trigger = workdir / "crash-now"
    step = workdir / "step.sh"
    step.write_text(STEP.format(trigger=trigger))
    async with start_ajr(sqlite_url) as ajr:
        job_id = ajr.submit(
            seed_script(before=f"bash {step}", crash_line="", after=""), name="steered"
        )
        first = await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
        await phase(ajr, job_id, "watching")
        handle = ajr.handle(job_id)

        await handle.signal(JobRecoveryWorkflow.pause)
        trigger.touch()
        # The crash and the failed exit are decided and recorded; nothing changes in Slurm.
        await phase(ajr, job_id, "paused: waiting for resume")
        ended = await ajr.job(job_id)
        assert ended.state is JobState.FAILED and ended.restart_count == 0
        records = await handle.query(JobRecoveryWorkflow.attempts)
        assert [(r.observed, r.action, r.acted) for r in records] == [("EXITED", "requeue", False)]
        assert "paused: not acting" in records[0].reasons

        culprit = first.nodes[0]
        excluded = await handle.execute_update(
            JobRecoveryWorkflow.exclude_nodes, ExcludeNodesRequest([culprit], "operator's hunch")
        )
        assert excluded == [culprit]
        limit = await handle.execute_update(
            JobRecoveryWorkflow.set_max_requeues, MaxRequeuesRequest(3)
        )
        assert limit == 3

        await handle.signal(JobRecoveryWorkflow.resume)
        second = await ajr.wait_for_job(
            job_id,
            lambda j: j.restart_count == 1 and j.state is JobState.RUNNING,
            60,
            "requeued after resume",
        )
        assert culprit in second.excluded_nodes and culprit not in second.nodes
        await phase(ajr, job_id, "watching attempt 1")

        # The form an operator types: `--input '"maintenance window"'` (a bare reason).
        await handle.signal("stop", "maintenance window")
        outcome = await ajr.outcome(job_id, timeout=30)
        assert outcome.outcome is Outcome.STOPPED_BY_OPERATOR
        assert outcome.reason == "maintenance window"
        job = await ajr.job(job_id)  # stop leaves the job alone
        assert job.state is JobState.RUNNING and job.restart_count == 1
        records = await handle.query(JobRecoveryWorkflow.attempts)
        assert [(r.attempt, r.action, r.acted) for r in records] == [(0, "requeue", True)]
        assert records[0].excluded_nodes == [culprit]
        await ajr.save_histories("steering", job_id)
