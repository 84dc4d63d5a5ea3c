"""Recovery policy v2 through the real parts: Slurm (4 slurmd), the Temporal dev server, SQLite.

Budgets by cause (a requeue by Slurm is never charged; a repeated unknown failure backs off) and
done means done (a job that trained to its last iteration and fails in teardown is not requeued).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from devstack import SlurmCluster
from models.recovery import Outcome
from models.slurm import JobState
from tests.conftest import PORT_OFFSET, TEST_CPUS_PER_NODE, TEST_SWITCHES
from tests.integration.recovery_harness import AjrUnderTest, ajr_running, seed_script
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.integration

ONE_REQUEUE = '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 1}}'
SEGFAULT = "echo 'Rank0: (1) segmentation fault: artificial segfault'"


def megatron(last: int, total: int) -> str:
    return " && ".join(
        f"echo ' [2026-11-21 10:00:0{n}] iteration {n:>8}/{total:>8} | consumed samples: {n * 8} "
        f"| elapsed time per iteration (ms): 300.0 | throughput per GPU (TFLOP/s/GPU): 380.5 |'"
        " && sleep 0.3"
        for n in range(1, last + 1)
    )


async def watching_log_of_attempt_0(ajr: AjrUnderTest, job_id: int) -> None:
    """Enrolled, and its watch has found attempt 0's log (its heartbeated cursor names it).

    So the preemption comes while attempt 0 is fully watched; a requeue before its log is read
    is test_requeue_by_slurm_is_not_charged's case.
    """
    converter = ajr.client.data_converter
    deadline = time.monotonic() + 45  # heartbeats reach the server every <= 16 s
    while True:
        try:
            description = await ajr.handle(job_id).describe()
            for pending in description.raw_description.pending_activities:
                if pending.activity_type.name == "watch_attempt" and (
                    pending.heartbeat_details.payloads
                ):
                    (cursor,) = await converter.decode(pending.heartbeat_details.payloads)
                    if cursor.get("path"):
                        return
        except Exception:
            pass  # not enrolled yet
        assert time.monotonic() < deadline, "attempt 0's log not found by its watch"
        await asyncio.sleep(0.3)


# A requeue right as attempt 0's log appears, before ajr's watch has read it. While Slurm
# finishes a requeued job it shows it COMPLETING with restart count 1 and a StartTime that
# follows the clock, so a log stamped in the last seconds falls in that "attempt 1" window.
# Made deterministic: attempt 0 opens its log (named with the time then) only on the requeue's
# SIGTERM, 3 s later (after its watch has seen the requeue, so its record names no log), and
# takes 4 s more to finish (as a job saving a last checkpoint) while the watch of attempt 1
# begins.
LOG_WHEN_REQUEUED = """if [ "${SLURM_RESTART_COUNT:-0}" = 0 ]; then
  trap 'sleep 3
        stamp=`date +date_%y-%m-%d_time_%H-%M-%S`
        echo "saving a last checkpoint" > "${SLURM_JOB_NAME}_${SLURM_JOB_ID}_$stamp.log"
        sleep 4; exit 0' TERM
  sleep 300 & wait
fi"""


async def test_requeue_by_slurm_is_not_charged(start_ajr, slurm_cluster, workdir, sqlite_url):
    """max_requeue_times=1: Slurm requeues the job (as on preemption), then it crashes twice;
    the first crash still gets the job's one requeue, the second stops it.

    Attempt 0's log is new when Slurm shows the job requeued and still finishing (see
    LOG_WHEN_REQUEUED): the watch of attempt 1 must take attempt 1's own log, never attempt 0's
    (no crash in it: the job would run on to exit 0, COMPLETED).
    """
    crash_after_restart = (
        "if [ \\${SLURM_RESTART_COUNT:-0} -ge 1 ]; then sleep 2; "
        "echo 'Rank0: (1) segmentation fault: artificial segfault'; fi"
    )
    async with start_ajr(sqlite_url) as ajr:
        job_id = ajr.submit(
            seed_script(
                comment=ONE_REQUEUE,
                header=LOG_WHEN_REQUEUED,
                crash_line=crash_after_restart,
                after="sleep 60",
            ),
            name="preempted",
        )
        await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
        deadline = time.monotonic() + 30
        while True:  # enrolled and watching attempt 0 before Slurm requeues it
            try:
                status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
                if status.phase.startswith("watching"):
                    break
            except Exception:
                pass  # not enrolled yet
            assert time.monotonic() < deadline, "not watched"
            await asyncio.sleep(0.3)
        ajr.scontrol("requeue", str(job_id))  # what Slurm does to a preempted job
        # Slurm holds a requeued job back ~2 minutes (BeginTime): let it start at once.
        await ajr.wait_for_job(job_id, lambda j: j.state is JobState.PENDING, 30, "pending")
        (attempt_0_log,) = ajr.log_files("preempted", job_id)
        ajr.scontrol("update", f"jobid={job_id}", "StartTime=now")

        outcome = await ajr.outcome(job_id, timeout=120)
        assert outcome.outcome is Outcome.MAX_REQUEUES, outcome
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert [(r.attempt, r.observed, r.action, r.charge) for r in records] == [
            (0, "REQUEUED", "watch", None),  # Slurm's requeue: watched, not charged
            (1, "CRASH", "requeue", "unknown"),  # the job's one requeue (a bare segfault)
            (2, "CRASH", "cancel", None),
        ]
        assert "requeue 1 of 1" in " ".join(records[1].reasons)
        assert "requeue limit reached: 1 of 1 requeues used" in " ".join(records[2].reasons)
        # Each attempt its own log; attempt 0's, written after the requeue, is nobody's.
        logs = [r.log_path for r in records]
        assert logs[0] == "" and str(attempt_0_log) not in logs, logs
        assert logs[1] != logs[2] and set(logs[1:]) <= set(
            map(str, ajr.log_files("preempted", job_id))
        ), logs
        assert (await ajr.job(job_id)).restart_count == 2  # one restart by Slurm, one by ajr
        status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
        assert (status.unknown_requeues, status.infrastructure_requeues) == (1, 0)
        await ajr.save_histories("v2-requeued-by-slurm", job_id)


async def test_finished_training_failing_in_teardown_is_not_requeued(
    start_ajr, slurm_cluster, workdir, sqlite_url
):
    """Megatron reached iteration 5/5, then crashed at exit: stopped, never requeued. The same
    crash at 4/5 is requeued as usual."""
    async with start_ajr(sqlite_url) as ajr:
        finished = ajr.submit(
            seed_script(
                comment=ONE_REQUEUE, before=megatron(5, 5), crash_line=SEGFAULT, after="sleep 60"
            ),
            name="finished",
        )
        midway = ajr.submit(
            seed_script(
                comment=ONE_REQUEUE, before=megatron(4, 5), crash_line=SEGFAULT, after="sleep 60"
            ),
            name="midway",
        )
        done, failed = await asyncio.gather(
            ajr.outcome(finished, timeout=90), ajr.outcome(midway, timeout=120)
        )
        assert done.outcome is Outcome.TRAINING_FINISHED, done
        job = await ajr.job(finished)
        assert job.restart_count == 0  # never requeued
        assert job.state in (JobState.CANCELLED, JobState.COMPLETING)  # its teardown freed
        (record,) = await ajr.handle(finished).query(JobRecoveryWorkflow.attempts)
        assert record.action == "cancel" and record.training_done_at > 0
        assert "final iteration" in " ".join(record.reasons)

        assert failed.outcome is Outcome.MAX_REQUEUES, failed
        assert (await ajr.job(midway)).restart_count == 1
        await ajr.save_histories("v2-done-means-done", finished, midway)


async def test_repeated_unknown_failure_backs_off(start_ajr, slurm_cluster, workdir, sqlite_url):
    """exit 1 with nothing in the log, three times: requeued at once, then StartTime=now+8."""
    async with start_ajr(sqlite_url, unknown_backoff=8.0, crashloop_threshold=5) as ajr:
        job_id = ajr.submit(
            seed_script(
                comment='{"APS": {"max_requeue_times": 2}}',
                crash_line="",
                after="echo 'giving up' && exit 1",
            ),
            name="unknown",
        )
        outcome = await ajr.outcome(job_id, timeout=120)
        assert outcome.outcome is Outcome.MAX_REQUEUES, outcome
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert [(r.action, r.charge) for r in records] == [
            ("requeue", "unknown"),
            ("requeue", "unknown"),
            ("stop", None),
        ]
        assert any("StartTime=now," in s or s.endswith("StartTime=now") for s in records[0].steps)
        assert any("StartTime=now+8" in s for s in records[1].steps), records[1].steps
        assert "back-off" in " ".join(records[1].reasons)
        # without the back-off the third attempt fails ~4 s after the second (2 s of work)
        assert records[2].decided_at - records[1].decided_at >= 8.0
        await ajr.save_histories("v2-backoff", job_id)


ROLLBACK_STEP = """#!/bin/bash
# The training script's side of checkpoint rollback: read ajr's advice before loading.
advice="ajr_rollback_${SLURM_JOB_ID}.json"
if [ -f "$advice" ]; then
  read_step='import json,sys; print(json.load(open(sys.argv[1]))["load_before_step"])'
  before=$(python3 -c "$read_step" "$advice")
  echo "rollback advised: loading the checkpoint before step $before"
  echo " successfully loaded checkpoint from /ckpt/iter_0000005 [ t 1/1, p 1/1 ] at iteration 5"
  echo " [2026-11-21 10:00:09] iteration        6/      10 | elapsed time per iteration (ms): 300 |"
  sleep 1
  exit 0
fi
echo " successfully loaded checkpoint from /ckpt/iter_0000010 [ t 1/1, p 1/1 ] at iteration 10"
sleep 1
echo "Rank0: (1) segmentation fault: artificial segfault"
sleep 60
"""


async def test_bad_checkpoint_is_rolled_back(start_ajr, slurm_cluster, workdir, sqlite_url):
    """Loading checkpoint 10 is followed by the same crash twice: the third attempt is told to
    load the one before 10, does, and completes."""
    step = workdir / "rollback_step.sh"
    step.write_text(ROLLBACK_STEP)
    script = f"""#!/bin/bash
#SBATCH -t 00:05:00
#SBATCH --comment='{{"APS": {{"max_requeue_times": 3}}}}'
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
srun -l -u --output="$(pwd)/%x_%j_$DATETIME.log" bash {step}
"""
    async with start_ajr(sqlite_url, unknown_backoff=0.0) as ajr:
        job_id = ajr.submit(script, name="rollback")
        outcome = await ajr.outcome(job_id, timeout=120)
        assert outcome.outcome is Outcome.COMPLETED, outcome
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert [(r.attempt, r.action, r.loaded_step) for r in records] == [
            (0, "requeue", 10),
            (1, "requeue", 10),
            (2, "complete", 5),  # the attempt after the advice loaded the older checkpoint
        ]
        assert not any("rollback" in r for r in records[0].reasons)  # once is no pattern
        assert any("checkpoint rollback" in r for r in records[1].reasons), records[1].reasons
        advice = json.loads((workdir / f"ajr_rollback_{job_id}.json").read_text())
        assert advice["load_before_step"] == 10 and advice["avoid_steps"] == [10]
        assert advice["attempt"] == 1
        status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
        assert status.rolled_back_from == [10]
        logs = ajr.log_files("rollback", job_id)
        assert "rollback advised: loading the checkpoint before step 10" in logs[-1].read_text()
        await ajr.save_histories("v2-rollback", job_id)


def ft_launcher_job(last_exit: str) -> str:
    """A job run by NVRx ft_launcher: a rank crashes, the launcher restarts it in place, and
    finally gives up with `last_exit` (on the first attempt; a requeued attempt succeeds)."""
    before = (
        "echo '[ft_launcher] nvidia_resiliency_ext.fault_tolerance.launcher: starting 1 worker'"
        f" && {megatron(2, 10)}"
    )
    after = (
        "sleep 2 && echo '[ft_launcher] restarting workers in place (restart 1 of 3)' && "
        f"{megatron(3, 10)} && "
        f"if [ \\${{SLURM_RESTART_COUNT:-0}} = 0 ]; then {last_exit}; fi"
    )
    return seed_script(comment=ONE_REQUEUE, before=before, crash_line=SEGFAULT, after=after)


async def test_in_job_restarter_is_left_to_restart(start_ajr, slurm_cluster, workdir, sqlite_url):
    async with start_ajr(sqlite_url) as ajr:
        gives_up = ajr.submit(ft_launcher_job("exit 93"), name="ftgivesup")
        fails = ajr.submit(ft_launcher_job("exit 1"), name="ftfails")
        stopped, recovered = await asyncio.gather(
            ajr.outcome(gives_up, timeout=90), ajr.outcome(fails, timeout=120)
        )
        # 93: the launcher says do not requeue; its in-place restart was never killed
        assert stopped.outcome is Outcome.TERMINAL_EXIT, stopped
        assert (await ajr.job(gives_up)).restart_count == 0
        (record,) = await ajr.handle(gives_up).query(JobRecoveryWorkflow.attempts)
        assert (record.observed, record.action) == ("EXITED", "stop")
        (log,) = ajr.log_files("ftgivesup", gives_up)
        text = log.read_text()
        assert text.index("segmentation fault") < text.index("restarting workers in place")
        assert "iteration        3/" in text  # trained on after the crash, untouched
        status = await ajr.handle(gives_up).query(JobRecoveryWorkflow.status)
        assert any("in-job restarter" in w for w in status.warnings), status.warnings

        # another exit: requeued once (the in-place restart was not counted), then done
        assert recovered.outcome is Outcome.COMPLETED, recovered
        records = await ajr.handle(fails).query(JobRecoveryWorkflow.attempts)
        assert [(r.observed, r.action) for r in records] == [
            ("EXITED", "requeue"),
            ("EXITED", "complete"),
        ]
        assert "requeue 1 of 1" in " ".join(records[0].reasons)
        await ajr.save_histories("v2-in-job-restarter", gives_up, fails)


async def test_preempted_job_is_requeued_without_charge(
    start_ajr, slurm_cluster, workdir, sqlite_url
):
    """A job of the `urgent` partition (higher PriorityTier) preempts a managed job: Slurm
    requeues it (PreemptMode=REQUEUE). max_requeue_times=1 is still whole afterwards."""
    crash_after_restart = (
        "if [ \\${SLURM_RESTART_COUNT:-0} -ge 1 ]; then sleep 2; "
        "echo 'Rank0: (1) segmentation fault: artificial segfault'; fi"
    )
    async with start_ajr(sqlite_url) as ajr:
        job_id = ajr.submit(
            seed_script(comment=ONE_REQUEUE, crash_line=crash_after_restart, after="sleep 60"),
            name="preemptee",
        )
        running = await ajr.wait_for_job(
            job_id, lambda j: j.state is JobState.RUNNING, 30, "running"
        )
        await watching_log_of_attempt_0(ajr, job_id)
        urgent = workdir / "urgent.sh"
        urgent.write_text("#!/bin/bash\nsleep 3\n")
        subprocess.run(
            ["sbatch", "-p", "urgent", "--exclusive", "-w", running.nodes[0], "-J", "urgent",
             str(urgent)],
            cwd=workdir, env=slurm_cluster.env, check=True, capture_output=True,
        )  # fmt: skip
        requeued = await ajr.wait_for_job(
            job_id,
            lambda j: j.restart_count == 1 and j.state in (JobState.PENDING, JobState.RUNNING),
            30,
            "requeued by preemption",
        )
        if requeued.state is JobState.PENDING:  # Slurm's ~2 minute BeginTime after a requeue
            ajr.scontrol("update", f"jobid={job_id}", "StartTime=now")

        outcome = await ajr.outcome(job_id, timeout=90)
        assert outcome.outcome is Outcome.MAX_REQUEUES, outcome
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        # Slurm's requeue: watched, never charged
        assert (records[0].attempt, records[0].observed, records[0].action) == (
            0,
            "REQUEUED",
            "watch",
        )
        assert [(r.attempt, r.action, r.charge) for r in records[1:]] == [
            (1, "requeue", "unknown"),  # the job's one requeue, still there
            (2, "cancel", None),
        ]
        assert (await ajr.job(job_id)).restart_count == 2
        await ajr.save_histories("v2-preempted", job_id)


NETWORK_STEP = """#!/bin/bash
# Attempt k: the rank k prints NCCL's IB completion error from its own node and exits 1 (srun -K
# ends the other rank); attempt 2 trains on. Two network failures on two nodes of one switch.
attempt=${SLURM_RESTART_COUNT:-0}
echo "rank $SLURM_PROCID on $SLURMD_NODENAME, attempt $attempt"
sleep 1
if [ "$attempt" -ge 2 ]; then echo "training resumed"; exit 0; fi
if [ "$SLURM_PROCID" = "$attempt" ]; then
  echo "$SLURMD_NODENAME:4711:4790 [0] NCCL WARN NET/IB : Got completion from peer \\
10.0.0.7<53612> with error 12, opcode 0, len 0, vendor err 129 (Recv)"
  exit 1
fi
sleep 30
"""


@pytest.fixture(scope="module")
def topology_cluster() -> Iterator[SlurmCluster]:
    """A small cluster of its own with TopologyPlugin=topology/tree (switches s0 = node[1-2],
    s1 = node[3-4]): on the session cluster topology/tree changed how a requeued job starts."""
    state_dir = Path(tempfile.mkdtemp(prefix="ajr-test-topo-", dir=tempfile.gettempdir()))
    state_dir.chmod(0o755)
    cluster = SlurmCluster(
        state_dir,
        cluster_name="ajrtopo",
        cpus_per_node=TEST_CPUS_PER_NODE,
        slurmctld_port=26917 + 400 + PORT_OFFSET,
        slurmd_port=26918 + 400 + PORT_OFFSET,
        node_port_base=27101 + 400 + PORT_OFFSET,
        switches=TEST_SWITCHES,
    )
    try:
        cluster.start(timeout=60)
        yield cluster
    finally:
        cluster.stop(stop_munge=False)
        shutil.rmtree(state_dir, ignore_errors=True)


async def test_switch_excluded_after_network_failures_on_two_of_its_nodes(
    temporal_env, topology_cluster, workdir, sqlite_url
):
    """A 2-node job on switch s0 (node[1-2], the session's topology/tree) fails twice with NCCL
    IB errors, from node1 then node2: the next attempt excludes the whole switch and runs on
    s1; the decision says why."""
    step = workdir / "network_step.sh"
    step.write_text(NETWORK_STEP)
    script = f"""#!/bin/bash
#SBATCH -t 00:05:00 -N 2
#SBATCH --comment='{{"APS": {{"max_requeue_times": 3}}}}'
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
srun -l -u -K --output="$(pwd)/%x_%j_$DATETIME.log" bash {step}
"""
    cluster = topology_cluster
    async with ajr_running(
        temporal_env, cluster.conf, cluster.subprocess_env(), workdir, sqlite_url
    ) as ajr:
        job_id = ajr.submit(script, name="netdomain")
        outcome = await ajr.outcome(job_id, timeout=90)
        assert outcome.outcome is Outcome.COMPLETED, outcome
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert [(r.attempt, r.category, r.action) for r in records] == [
            (0, "NETWORK", "requeue"),
            (1, "NETWORK", "requeue"),
            (2, None, "complete"),
        ]
        # topology/tree packs a 2-node job onto one leaf: s0, both failed attempts
        assert records[0].nodes == records[1].nodes == ["node1", "node2"], records
        assert records[0].excluded_nodes == []  # once is no pattern (a NCCL error names no culprit)
        reason = (
            "excluded switch s0 (node1,node2): 2 network failures on different nodes of it "
            "(node1,node2, attempts 0,1)"
        )
        assert reason in records[1].reasons, records[1].reasons
        assert records[1].excluded_nodes == ["node1", "node2"]
        shown = ajr.scontrol("-o", "show", "job", str(job_id))
        assert "ExcNodeList=node[1-2] " in shown, shown
        assert sorted(records[2].nodes) == ["node3", "node4"]
        await ajr.save_histories("v2-failure-domain", job_id)
