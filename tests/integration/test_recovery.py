"""Core recovery through the real parts: Slurm (4 slurmd), the Temporal dev server, a database.

Sleeps are shortened from the seed's 30 s / 60 s; everything else is the seed's sequence.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess

import pytest
from sqlmodel import Session, select
from temporalio.service import RPCError, RPCStatusCode

from activities.database.engine import make_engine
from activities.database.tables import DecisionRecord
from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from models.recovery import Outcome
from models.slurm import JobState
from tests.integration.recovery_harness import (
    AjrUnderTest,
    make_settings,
    seed_script,
    silence_before_requeue,
    temporal_address,
    worker_process,
)
from worker.status import status_lines
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.integration


async def test_seed_verification_sequence(start_ajr, slurm_cluster, workdir, mysql_url) -> None:
    """001 "Verification Steps": CRASH, requeued held, released, CRASH, no more requeue."""
    async with start_ajr(mysql_url) as ajr:
        job_id = ajr.submit(seed_script(), name="ajr-verification-requeue-test")
        first = await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
        outcome = await ajr.outcome(job_id, timeout=60)

        assert outcome.outcome is Outcome.MAX_REQUEUES
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert [(r.attempt, r.observed, r.state, r.action, r.acted) for r in records] == [
            (0, "CRASH", "RUNNING", "requeue", True),  # killed while still running
            (1, "CRASH", "RUNNING", "cancel", True),
        ]
        assert "requeue limit reached: 1 of 1" in " ".join(records[1].reasons)
        final = await ajr.job(job_id)
        assert final.restart_count == 1  # the same job ID, requeued exactly once
        assert final.state in (JobState.CANCELLED, JobState.COMPLETING)
        logs = ajr.log_files("ajr-verification-requeue-test", job_id)
        assert len(logs) == 2, logs
        assert {r.log_path for r in records} == {str(p) for p in logs}
        assert first.restart_count == 0

        engine = make_engine(mysql_url)
        with Session(engine) as session:
            rows = session.exec(select(DecisionRecord).where(DecisionRecord.job_id == job_id)).all()
        assert sorted((r.attempt, r.action) for r in rows) == [(0, "requeue"), (1, "cancel")]
        assert "segmentation fault" in json.loads(rows[0].evidence)[0]
        await ajr.save_histories("seed", job_id)


async def test_decision_the_database_refused_is_written_when_it_answers(
    start_ajr, slurm_cluster, workdir, mysql_url
) -> None:
    """The decision table gone (a failing database): the requeue is not held up, and the
    decision is written, once, when the database answers again (the workflow keeps it)."""
    engine = make_engine(mysql_url)
    with engine.begin() as connection:
        connection.exec_driver_sql("RENAME TABLE decision_records TO decision_records_away")
    async with start_ajr(mysql_url) as ajr:
        job_id = ajr.submit(seed_script(), name="ajr-database-refused")
        await ajr.wait_for_job(job_id, lambda j: j.restart_count == 1, 60, "requeued")
        status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
        assert any("not written to the database yet" in w for w in status.warnings), status
        with engine.begin() as connection:
            connection.exec_driver_sql("RENAME TABLE decision_records_away TO decision_records")
        outcome = await ajr.outcome(job_id, timeout=90)
        assert outcome.outcome is Outcome.MAX_REQUEUES
    with Session(engine) as session:
        rows = session.exec(select(DecisionRecord).where(DecisionRecord.job_id == job_id)).all()
    assert sorted((r.attempt, r.action, r.acted) for r in rows) == [
        (0, "requeue", True),
        (1, "cancel", True),
    ]


async def test_hang_is_requeued_within_hang_timeout(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    """Silence is a HANG within hang_timeout once training runs; start-up gets its own allowance."""
    hang_timeout, setup_allowance = 6.0, 12.0
    iterations = " && ".join(
        f"echo '[2026-11-21 10:00:0{i}] iteration {i}/100 | elapsed time per iteration (ms): "
        f"1000.0 | throughput per GPU (TFLOP/s/GPU): 380.5' && sleep 1"
        for i in range(1, 4)
    )
    async with start_ajr(
        sqlite_url, hang_timeout=hang_timeout, setup_hang_timeout=setup_allowance
    ) as ajr:
        training = ajr.submit(
            seed_script(before=iterations, crash_line="", after="sleep 120"), name="hang"
        )
        starting = ajr.submit(
            seed_script(before="echo 'building model'", crash_line="", after="sleep 120"),
            name="setup",
        )
        silent_training, silent_setup = await asyncio.gather(
            silence_before_requeue(ajr, "hang", training, hang_timeout + 20),
            silence_before_requeue(ajr, "setup", starting, setup_allowance + 20),
        )
        # training: the cadence-derived allowance, at least half and at most hang_timeout
        assert hang_timeout / 2 <= silent_training <= hang_timeout + 10, silent_training
        # before the first iteration: the longer start-up allowance
        assert setup_allowance <= silent_setup <= setup_allowance + 10, silent_setup
        for job_id in (training, starting):
            records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
            assert records[0].observed == "HANG" and records[0].action == "requeue"
        await ajr.save_histories("hang", training, starting)


async def test_crashloop_and_checkpointing_jobs(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    async with start_ajr(
        sqlite_url,
        crashloop_threshold=3,
    ) as ajr:
        never = seed_script(
            comment='{"APS": {"max_requeue_times": 10}}', crash_line="", after="echo boom && exit 1"
        )
        saving = seed_script(
            comment='{"APS": {"max_requeue_times": 2}}',
            crash_line="echo 'Saved checkpoint to /ckpt/iter_10'",
            after="exit 1",
        )
        looping = ajr.submit(never, name="crashloop")
        progressing = ajr.submit(saving, name="checkpointing")
        loop_outcome, progress_outcome = await asyncio.gather(
            ajr.outcome(looping, timeout=120), ajr.outcome(progressing, timeout=120)
        )
        assert loop_outcome.outcome is Outcome.CRASHLOOP
        assert (await ajr.job(looping)).restart_count == 2  # stopped after 3 attempts
        assert progress_outcome.outcome is Outcome.MAX_REQUEUES
        assert (await ajr.job(progressing)).restart_count == 2  # went on to its maximum
        records = await ajr.handle(progressing).query(JobRecoveryWorkflow.attempts)
        assert [r.checkpoints for r in records] == [1, 1, 1]
        await ajr.save_histories("crashloop", looping, progressing)


async def test_scancel_success_no_requeue_and_invalid_comment(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    async with start_ajr(sqlite_url) as ajr:
        sleeper = ajr.submit(seed_script(crash_line="", after="sleep 120"), name="cancelme")
        success = ajr.submit(seed_script(crash_line="", after="exit 0"), name="success")
        invalid = ajr.submit(
            seed_script(
                comment='{"APS": {"max_requeue_times": -3}}', crash_line="", after="sleep 5"
            ),
            name="invalid",
        )
        no_requeue = ajr.submit(seed_script(before="sleep 4"), "--no-requeue", name="norequeue")
        assert not (await ajr.job(no_requeue)).requeue

        await ajr.wait_for_job(sleeper, lambda j: j.state is JobState.RUNNING, 30, "running")
        await asyncio.sleep(2)  # enrolled by discovery
        subprocess.run(["scancel", str(sleeper)], env=slurm_cluster.env, check=True)

        cancelled = await ajr.outcome(sleeper, timeout=60)
        assert cancelled.outcome is Outcome.CANCELLED_BY_USER
        assert (await ajr.job(sleeper)).restart_count == 0

        assert (await ajr.outcome(success, timeout=60)).outcome is Outcome.COMPLETED

        rejected = await ajr.outcome(invalid, timeout=30)
        assert rejected.outcome is Outcome.NOT_MANAGED
        assert "max_requeue_times must be a non-negative integer" in rejected.reason
        description = await ajr.handle(invalid).describe()
        assert "NOT managed" in (await description.static_summary() or "")
        lines = "\n".join(await status_lines(ajr.client, ajr.settings.cluster_name))
        assert "max_requeue_times must be a non-negative integer" in lines

        # --no-requeue, enrolled while running, is still requeued after its crash
        outcome = await ajr.outcome(no_requeue, timeout=90)
        assert outcome.outcome is Outcome.MAX_REQUEUES
        job = await ajr.job(no_requeue)
        assert job.restart_count == 1 and job.requeue
        await ajr.save_histories("endings", sleeper, success, invalid, no_requeue)


async def test_crash_line_naming_a_node_excludes_it(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    async with start_ajr(sqlite_url) as ajr:
        xid = (
            "if [ \\$SLURM_PROCID = 1 ]; then echo "
            '\\"[12345.6] \\$SLURMD_NODENAME kernel: NVRM: Xid '
            '(PCI:0000:3b:00): 79, pid=4242, GPU has fallen off the bus.\\"; fi'
        )
        script = seed_script(
            comment='{"APS": {"max_requeue_times": 1}}', crash_line=xid, after="sleep 60"
        )
        job_id = ajr.submit(script, "-N", "2", "--exclude=node4", name="xid")
        first = await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
        culprit = first.nodes[1]
        second = await ajr.wait_for_job(
            job_id,
            lambda j: j.restart_count == 1 and j.state is JobState.RUNNING,
            60,
            "running again",
        )
        assert culprit in second.excluded_nodes
        assert "node4" in second.excluded_nodes  # the user's own exclusion is kept
        assert culprit not in second.nodes
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert records[0].excluded_nodes == [culprit]
        await ajr.save_histories("xid-exclusion", job_id)


async def test_worker_killed_between_requeuehold_and_release(
    temporal_env, slurm_cluster, workdir, sqlite_url, tmp_path
) -> None:
    settings = make_settings(slurm_cluster.conf, temporal_address(temporal_env), sqlite_url)
    first = worker_process(settings, tmp_path / "worker1.log", pause_after_hold=30.0)
    second = None
    try:
        control = SlurmControl(SlurmRunner(env=settings.slurm_env()))
        ajr = AjrUnderTest(settings, temporal_env.client, slurm_cluster.env, workdir, control)
        job_id = ajr.submit(seed_script(), name="killed")
        held = await ajr.wait_for_job(job_id, lambda j: j.held, 60, "held by requeuehold")
        assert held.restart_count == 1
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        await asyncio.sleep(3)
        assert (await ajr.job(job_id)).held  # nobody released it: the worker really died mid-way

        second = worker_process(settings, tmp_path / "worker2.log")
        job = await ajr.wait_for_job(
            job_id, lambda j: j.state is JobState.RUNNING, 60, "released and running"
        )
        assert job.restart_count == 1  # released exactly once, never requeued twice
        outcome = await ajr.outcome(job_id, timeout=60)
        assert outcome.outcome is Outcome.MAX_REQUEUES
        assert (await ajr.job(job_id)).restart_count == 1
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(15)
        subprocess.run(["scancel", "--user", "root"], env=slurm_cluster.env, check=False)


def job_info_rpcs(env: dict[str, str]) -> int:
    """REQUEST_JOB_INFO* counts from sdiag: what squeue/scontrol reads cost slurmctld."""
    out = subprocess.run(["sdiag"], env=env, capture_output=True, text=True, check=True).stdout
    return sum(int(m) for m in re.findall(r"REQUEST_JOB_INFO\w*\s+\(\s*\d+\)\s+count:(\d+)", out))


async def test_slurmctld_load_does_not_grow_with_managed_jobs(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    window = 8.0
    async with start_ajr(
        sqlite_url,
        slurm_poll_interval=1.0,
    ) as ajr:

        async def measure(job_ids: list[int]) -> int:
            for job_id in job_ids:
                await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
            for job_id in job_ids:  # enrolled and watching
                for _ in range(150):
                    try:
                        status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
                    except RPCError as error:  # not enrolled yet (discovery's next round)
                        if error.status is not RPCStatusCode.NOT_FOUND:
                            raise
                    else:
                        if status.phase.startswith("watching"):
                            break
                    await asyncio.sleep(0.2)
            await asyncio.sleep(2)  # past each watcher's one-time log lookup
            before = job_info_rpcs(slurm_cluster.env)
            await asyncio.sleep(window)
            return job_info_rpcs(slurm_cluster.env) - before

        quiet = seed_script(crash_line="", after="sleep 120")
        one = await measure([ajr.submit(quiet, name="load")])
        eight = await measure([ajr.submit(quiet, name="load") for _ in range(7)])
        # one cluster-wide squeue per poll interval, however many jobs are managed
        assert eight <= window / 1.0 + 3, (one, eight)
        assert eight <= one + 2, (one, eight)


async def test_partition_enrolment_terminal_exit_and_fit(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    async with start_ajr(
        sqlite_url,
        managed_partitions=["gpu"],
    ) as ajr:
        # no comment at all: managed because its partition is
        plain = ajr.submit(
            seed_script(comment="just a note", crash_line="", after="exit 0"), name="plain"
        )
        terminal = ajr.submit(seed_script(crash_line="", after="exit 93"), name="terminal")
        # a 4-node job whose crash names node2: excluding it would leave 3 nodes for 4
        naming = 'echo \\"Rank3: CUDA error: uncorrectable ECC error encountered on node2\\"'
        wide = ajr.submit(seed_script(crash_line=naming, after="sleep 60"), "-N", "4", name="wide")

        assert (await ajr.outcome(plain, timeout=60)).outcome is Outcome.COMPLETED
        memo = await (await ajr.handle(plain).describe()).memo_value("enrolled_by")
        assert memo == "partition"
        stopped = await ajr.outcome(terminal, timeout=60)
        assert stopped.outcome is Outcome.TERMINAL_EXIT and "93" in stopped.reason
        assert (await ajr.job(terminal)).restart_count == 0

        refused = await ajr.outcome(wide, timeout=60)
        assert refused.outcome is Outcome.WOULD_NOT_FIT
        assert "leaves 3 usable node(s)" in refused.reason
        job = await ajr.job(wide)
        assert job.restart_count == 0 and not job.state.is_active  # cancelled, not requeued
        await ajr.save_histories("partition-terminal-fit", plain, terminal, wide)


async def test_observe_only_changes_nothing_in_slurm(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    async with start_ajr(sqlite_url, observe_only=True) as ajr:
        job_id = ajr.submit(seed_script(after="sleep 3 && exit 1"), "--no-requeue", name="observed")
        outcome = await ajr.outcome(job_id, timeout=60)
        assert outcome.outcome is Outcome.OBSERVED_ONLY
        job = await ajr.job(job_id)
        assert job.restart_count == 0 and job.state is JobState.FAILED
        assert not job.requeue  # not even made requeueable
        (record,) = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert record.observed == "EXITED" and not record.acted
        assert any("observe-only: not acting" in reason for reason in record.reasons)


async def test_basic_analyzer_behind_the_same_interface(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    """AJR_LOG_ANALYZER=basic: the plain signature set drives the same real recovery."""
    async with start_ajr(sqlite_url, log_analyzer="basic") as ajr:
        job_id = ajr.submit(seed_script(), name="basic")
        outcome = await ajr.outcome(job_id, timeout=60)
        assert outcome.outcome is Outcome.MAX_REQUEUES
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert [(r.observed, r.action) for r in records] == [
            ("CRASH", "requeue"),
            ("CRASH", "cancel"),
        ]
        assert "segmentation fault" in records[0].evidence[0]


async def test_node_implicated_by_two_jobs_is_excluded_for_a_third(
    start_ajr, slurm_cluster, workdir, mysql_url
) -> None:
    """Memory across jobs: two jobs' Xid lines name node2; a third job failing there loses it."""
    xid = 'echo \\"NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus on node2\\"'
    async with start_ajr(mysql_url) as ajr:
        named = [
            ajr.submit(
                seed_script(comment='{"APS": {"max_requeue_times": 0}}', crash_line=xid),
                "-w",
                "node2",
                name=f"xid{n}",
            )
            for n in range(2)
        ]
        for job_id in named:
            assert (await ajr.outcome(job_id, timeout=60)).outcome is Outcome.MAX_REQUEUES
        # While node2 still reads COMPLETING, Slurm places two nodes on the free block
        # node3-node4; with all four idle it takes node1-node2, the place this test is about.
        await ajr.wait_for_idle_nodes(slurm_cluster.cluster, timeout=30)
        plain = ajr.submit(seed_script(), "-N", "2", name="third")
        first = await ajr.wait_for_job(plain, lambda j: j.state is JobState.RUNNING, 30, "running")
        assert "node2" in first.nodes
        second = await ajr.wait_for_job(
            plain, lambda j: j.restart_count == 1 and j.state is JobState.RUNNING, 60, "requeued"
        )
        assert "node2" in second.excluded_nodes and "node2" not in second.nodes
        (record, *_) = await ajr.handle(plain).query(JobRecoveryWorkflow.attempts)
        assert any("node2 is suspect" in reason for reason in record.reasons)


async def test_straggler_is_requeued_after_its_next_checkpoint_save(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    """NVRx names the job's node as a straggler: requeued once the next save completes."""
    straggler = (
        'echo \\"STRAGGLER DETECTION WARNING: Some GPUs have worse relative performance. '
        "Affected ranks: [StragglerId(rank=0, node='\\$SLURMD_NODENAME')]\\\""
    )
    steps = " && ".join(
        [
            "echo 'iteration 1/100 | elapsed time per iteration (ms): 500.0 | lm loss: 2.0'",
            straggler,
            "echo 'iteration 2/100 | elapsed time per iteration (ms): 900.0 | lm loss: 2.0'",
            "sleep 3",
            "echo 'Saved checkpoint to /ckpt/iter_2'",
        ]
    )
    async with start_ajr(sqlite_url) as ajr:
        job_id = ajr.submit(
            seed_script(before=steps, crash_line="", after="sleep 120"), name="straggler"
        )
        first = await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
        outcome = await ajr.outcome(job_id, timeout=90)
        # the second attempt is a straggler too, but a straggler is never cancelled
        assert outcome.outcome is Outcome.MAX_REQUEUES
        job = await ajr.job(job_id)
        assert job.restart_count == 1 and job.state is JobState.RUNNING
        assert first.nodes[0] in job.excluded_nodes and first.nodes[0] not in job.nodes
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert [(r.attempt, r.observed, r.action, r.acted) for r in records] == [
            (0, "STRAGGLER", "requeue", True),
            (1, "STRAGGLER", "stop", True),
        ]
        assert records[0].checkpoints == 1 and records[0].excluded_nodes == [first.nodes[0]]
        await ajr.save_histories("straggler", job_id)
