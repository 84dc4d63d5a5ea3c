"""Upgrading ajr while it manages jobs: a worker replaced by one running a changed workflow.

The deploy happens at the worst moment: one job's requeue is half done (held, not released) by
the old worker, another job's attempt is being watched. The new worker runs a release that
changed what the workflow schedules before a requeue, behind `workflow.patched`
(tests/workflow_variants.py). Both recoveries complete on real Slurm; and the recorded histories
show the patch is what made it safe: without it, the half-done run no longer replays.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
from pathlib import Path

import pytest
from temporalio.api.enums.v1 import EventType
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer
from temporalio.workflow import NondeterminismError

from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from models.payloads import DATA_CONVERTER
from models.recovery import Outcome
from models.slurm import JobState
from tests.integration.histories import all_runs
from tests.integration.recovery_harness import (
    AjrUnderTest,
    make_settings,
    seed_script,
    temporal_address,
    worker_process,
)
from tests.workflow_variants import SETTLE_PATCH, SETTLED_NOTE, PatchedUpgrade, UnpatchedUpgrade
from workflows.job_recovery import JobRecoveryWorkflow, workflow_id

pytestmark = pytest.mark.integration


def has_event(history: WorkflowHistory, kind: EventType.ValueType) -> bool:
    return any(event.event_type == kind for event in history.events)


def has_patch_marker(history: WorkflowHistory, patch_id: str) -> bool:
    """A marker of this patch (runs carry other patches' markers too, e.g. recovery-policy-v2)."""
    return any(
        patch_id.encode() in payload.data
        for event in history.events
        if event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED
        for payloads in event.marker_recorded_event_attributes.details.values()
        for payload in payloads.payloads
    )


async def replay_failure(workflow: type, history: WorkflowHistory) -> Exception | None:
    replayer = Replayer(workflows=[workflow], data_converter=DATA_CONVERTER)
    result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    return result.replay_failure


async def watching(ajr: AjrUnderTest, job_id: int) -> None:
    for _ in range(150):
        with contextlib.suppress(Exception):
            status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
            if status.phase.startswith("watching"):
                return
        await asyncio.sleep(0.2)
    raise AssertionError(f"job {job_id} never watched")


async def test_jobs_recover_across_a_worker_upgrade_mid_recovery(
    temporal_env, slurm_cluster, workdir: Path, sqlite_url, tmp_path: Path
) -> None:
    settings = make_settings(slurm_cluster.conf, temporal_address(temporal_env), sqlite_url)
    trigger = workdir / "crash-now"
    old = worker_process(settings, tmp_path / "old.log", pause_after_hold=60.0)
    new = None
    try:
        control = SlurmControl(SlurmRunner(env=settings.slurm_env()))
        ajr = AjrUnderTest(settings, temporal_env.client, slurm_cluster.env, workdir, control)
        # Every attempt crashes 2 s in; two requeues allowed.
        crashing = ajr.submit(
            seed_script(comment='{"APS": {"max_requeue_times": 2}}'), name="upgrade-crash"
        )
        # Watched across the deploy; crashes once, after it; then completes.
        waiting = ajr.submit(
            seed_script(
                before=f"if [ ! -e {trigger}.done ]; then "
                f"while [ ! -e {trigger} ]; do sleep 0.2; done; touch {trigger}.done; "
                "echo 'Rank0: (1) segmentation fault: after the upgrade'; sleep 60; fi",
                crash_line="",
                after="exit 0",
            ),
            name="upgrade-watch",
        )
        await ajr.wait_for_job(waiting, lambda j: j.state is JobState.RUNNING, 30, "running")
        await watching(ajr, waiting)
        held = await ajr.wait_for_job(crashing, lambda j: j.held, 60, "held by requeuehold")
        assert held.restart_count == 1

        old.send_signal(signal.SIGKILL)  # the deploy: the old release is gone mid-requeue
        old.wait(10)
        new = worker_process(settings, tmp_path / "new.log", workflow="patched-upgrade")
        trigger.touch()

        crashed = await ajr.outcome(crashing, timeout=150)
        assert crashed.outcome is Outcome.MAX_REQUEUES, crashed
        assert (await ajr.job(crashing)).restart_count == 2  # released once, requeued once more
        completed = await ajr.outcome(waiting, timeout=90)
        assert completed.outcome is Outcome.COMPLETED, completed
        assert (await ajr.job(waiting)).restart_count == 1
        for job_id in (crashing, waiting):
            status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
            assert SETTLED_NOTE in status.warnings, status  # the new release did requeue it

        # The half-done run: requeue scheduled by the old release, finished by the new one.
        first, *later = await all_runs(ajr.client, workflow_id(settings.cluster_name, crashing))
        assert not has_patch_marker(first, SETTLE_PATCH)
        assert await replay_failure(PatchedUpgrade, first) is None
        careless = await replay_failure(UnpatchedUpgrade, first)
        assert isinstance(careless, NondeterminismError), careless
        # Later runs took the new path, marked by the patch.
        assert later and has_patch_marker(later[0], SETTLE_PATCH)
        assert has_event(later[0], EventType.EVENT_TYPE_TIMER_STARTED)
        for run in later:
            assert await replay_failure(PatchedUpgrade, run) is None
    finally:
        for process in (old, new):
            if process is not None and process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(15)
        subprocess.run(["scancel", "--user", "root"], env=slurm_cluster.env, check=False)
