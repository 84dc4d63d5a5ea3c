"""The trust defects an outside probe found, each replayed through the real parts.

A slurmctld outage, another user's symlink race and planted log, a checkpoint that takes longer
than the iteration cadence, a pathological comment, a worker killed while a crash waits for its
confirmation, a benign line that names a signal: on real Slurm, Temporal and a database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session, select
from temporalio.service import RPCError, RPCStatusCode

from activities.database.engine import make_engine
from activities.database.tables import DecisionRecord
from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from devstack.users import os_user
from models.recovery import AttemptRecord, JobStatus, Outcome
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

OTHER_USER = "ajr-test-alice"
# The other user runs the system's Python: the venv's interpreter may sit under root's home.
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin") or "/usr/bin/python3"


@pytest.fixture(scope="session")
def other_user() -> pwd.struct_passwd:
    """An ordinary OS user on this host (created once; the tests run as root, as CI does)."""
    return os_user(OTHER_USER)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory every user may enter (pytest's tmp_path sits under a 0700 parent)."""
    path = Path(tempfile.mkdtemp(prefix="ajr-trust-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def iterations(count: int, every: float, start: int = 1) -> str:
    return " && ".join(
        f"echo 'iteration {i}/1000 | elapsed time per iteration (ms): {every * 1000:.1f} "
        f"| lm loss: 2.0' && sleep {every}"
        for i in range(start, start + count)
    )


async def workflow_state(ajr: AjrUnderTest, job_id: int, timeout: float = 30) -> None:
    """Until the job's workflow is watching its attempt."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
            if status.phase.startswith("watching"):
                return
        except Exception:
            pass
        assert time.monotonic() < deadline, f"job {job_id} not watched within {timeout}s"
        await asyncio.sleep(0.3)


# --- 1. a controller outage drops no job ------------------------------------------------------


async def test_slurmctld_outage_drops_no_job(start_ajr, slurm_cluster, workdir, sqlite_url) -> None:
    """45 s of an unresponsive slurmctld with a healthy, a crashing and a finishing job.

    The outage is longer than the test cluster's SlurmdTimeout (30 s): when slurmctld comes back,
    Slurm itself may find a node's last answer too old and requeue the jobs on it (NODE_FAIL), and
    a job's completion waits for slurmstepd's next retry. What is ajr's is asserted without
    exception: it acts on the crash, never on the healthy job, and loses no job. A restart
    of the healthy job is accepted only when slurmctld's own log records that it did it, and a
    finished job still RUNNING to Slurm (its completion lost) only while ajr leaves it alone.
    """
    crash_trigger, finish_trigger = workdir / "crash-now", workdir / "finish-now"
    wait = "while [ ! -e {} ]; do sleep 0.2; done"
    async with start_ajr(sqlite_url, hang_timeout=300.0) as ajr:
        healthy = ajr.submit(
            seed_script(before=iterations(3, 1.0), crash_line="", after="sleep 300"),
            name="outage-healthy",
        )
        crashing = ajr.submit(
            seed_script(
                before=wait.format(crash_trigger),
                crash_line="echo 'Rank0: (1) segmentation fault: during the outage'",
                after="sleep 300",
            ),
            name="outage-crash",
        )
        finishing = ajr.submit(
            seed_script(before=wait.format(finish_trigger), crash_line="", after="exit 0"),
            name="outage-finish",
        )
        names = {healthy: "outage-healthy", crashing: "outage-crash", finishing: "outage-finish"}
        for job_id, name in names.items():
            await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
            await workflow_state(ajr, job_id)
            # Its srun step has started (the step's log exists): a step still being created
            # when slurmctld stops fails, and the job with it (FAILED, exit 1, no log at all).
            deadline = time.monotonic() + 30
            while not ajr.log_files(name, job_id):
                assert time.monotonic() < deadline, f"job {job_id}: no step log within 30s"
                await asyncio.sleep(0.2)

        record = slurm_cluster.cluster.registry.alive("slurmctld")
        assert record is not None
        os.kill(record.pid, signal.SIGSTOP)
        try:
            await asyncio.sleep(5)
            crash_trigger.touch()  # a crash line written while nobody can ask Slurm anything
            finish_trigger.touch()  # and a job that ends while slurmctld cannot record it
            await asyncio.sleep(40)
        finally:
            os.kill(record.pid, signal.SIGCONT)

        slurmctld_log = slurm_cluster.cluster.slurmctld_log
        try:
            await _after_the_outage(ajr, healthy, crashing, finishing, slurmctld_log)
        except AssertionError as failed:
            ours = await _ajr_record(ajr, (healthy, crashing, finishing))
            raise AssertionError(f"{failed}\n{ours}\n{_slurm_record(slurmctld_log)}") from None


# slurmctld's own words for requeueing a job it found on a node that stopped answering
# (kill_running_job_by_node_ptr: "requeue JobId=N due to failure of node X") or missing from its
# batch host when the node registered again
_SLURM_RESTARTED = (
    r"(?:[Rr]equeue|NODE_FAIL).*JobId={job}\b.*(?:failure of node|not responding)"
    r"|JobId={job}\b.*missing from (?:batch )?node"
)


async def _after_the_outage(
    ajr: AjrUnderTest, healthy: int, crashing: int, finishing: int, slurmctld_log: Path
) -> None:
    # The crash written during the outage is acted on once the controller is back.
    requeued = await ajr.wait_for_job(
        crashing, lambda j: j.restart_count >= 1, 90, "requeued after the outage"
    )
    crashed = await ajr.handle(crashing).query(JobRecoveryWorkflow.attempts)
    assert [(r.attempt, r.observed, r.action) for r in crashed][:1] == [(0, "CRASH", "requeue")]
    assert "during the outage" in " ".join(crashed[0].evidence)
    # A completion slurmctld missed comes with slurmstepd's next retry (every 15 s), or, when
    # Slurm lost it, only when the node next reports its jobs: until then Slurm says RUNNING, and
    # ajr's part is to keep watching the job, untouched (asserted), not to guess that it ended.
    try:
        assert (await ajr.outcome(finishing, timeout=120)).outcome is Outcome.COMPLETED
    except AssertionError:
        ended = await ajr.job(finishing)
        if ended.state is not JobState.RUNNING:
            raise  # Slurm recorded the end, and ajr did not finish with it
        await _left_alone_and_managed(ajr, finishing)
        logging.getLogger(__name__).warning("slurmctld never recorded job %s's end", finishing)
    job = await ajr.job(healthy)
    status = await _left_alone_and_managed(ajr, healthy)
    warnings = " ".join(status.warnings)
    assert "Slurm unreachable" in warnings and "answers again" in warnings, status.warnings
    slurm_said = re.search(
        _SLURM_RESTARTED.format(job=healthy), slurmctld_log.read_text(errors="replace")
    )
    if slurm_said is None:
        assert job.state is JobState.RUNNING and job.restart_count == 0, job  # never touched
        assert requeued.restart_count == 1, requeued
    else:  # Slurm's own node timeout requeued it (asserted above: ajr did not)
        logging.getLogger(__name__).warning("slurmctld restarted the job: %s", slurm_said[0])


async def _left_alone_and_managed(ajr: AjrUnderTest, job_id: int) -> JobStatus:
    """ajr took no action on the job (no acted attempt record) and still manages it."""
    status, attempts = await _ajr_view(ajr, job_id)
    assert not any(r.acted for r in attempts), attempts
    assert status.outcome == "running", status
    return status


async def _ajr_view(ajr: AjrUnderTest, job_id: int) -> tuple[JobStatus, list[AttemptRecord]]:
    handle = ajr.handle(job_id)
    status = await handle.query(JobRecoveryWorkflow.status)
    return status, await handle.query(JobRecoveryWorkflow.attempts)


async def _ajr_record(ajr: AjrUnderTest, job_ids: tuple[int, ...]) -> str:
    """What ajr made of each job, for a failure message: its status and its attempt records."""
    told = []
    for job_id in job_ids:
        try:
            status, attempts = await _ajr_view(ajr, job_id)
            told.append(f"job {job_id}: {status}\n  attempts: {attempts}")
        except Exception as exc:  # the record is evidence only: never hide the first failure
            told.append(f"job {job_id}: no answer ({exc!r})")
    return "ajr's view:\n" + "\n".join(told)


def _slurm_record(path: Path, lines: int = 60) -> str:
    """The last lines of slurmctld's log, for a failure message (what Slurm itself did)."""
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError as exc:
        return f"(no slurmctld log: {exc})"
    wanted = [line for line in text if "debug" not in line and "missing socket" not in line]
    return "slurmctld.log (last lines):\n" + "\n".join(wanted[-lines:])


# --- 2. another user's symlink race never makes ajr read a root-only file ----------------------


SWAPPER = """
import glob, os, sys, time
directory, secret, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
deadline = time.monotonic() + 30
while not glob.glob(os.path.join(directory, "race_*_date_*.log")) and time.monotonic() < deadline:
    time.sleep(0.05)
(log,) = glob.glob(os.path.join(directory, "race_*_date_*.log"))
real = os.path.join(directory, "real.log")
os.link(log, real)  # keep the job's real log (srun still writes to it)
decoy = os.path.join(directory, "decoy.log")  # the user's own file
with open(decoy, "w") as out:
    out.write("0: iteration 1/1000 | lm loss: 2.0\\n")
tmp = os.path.join(directory, "swap.tmp")
swaps, end = 0, time.monotonic() + seconds
while time.monotonic() < end:
    for target in (secret, decoy):
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        os.symlink(target, tmp)
        os.rename(tmp, log)
        swaps += 1
os.symlink(real, tmp)
os.rename(tmp, log)
print(swaps)
"""


async def test_symlink_swap_race_by_another_user_never_leaks(
    start_ajr, slurm_cluster, shared_dir, sqlite_url, other_user, caplog
) -> None:
    caplog.set_level(logging.INFO)
    marker = f"SECRET-{uuid.uuid4().hex}"
    secret = shared_dir / "root-only.log"
    # If ajr ever read it, this line would be a CRASH with the marker as evidence.
    secret.write_text(f"0: {marker} RuntimeError: CUDA error: an illegal memory access\n")
    secret.chmod(0o600)
    home = shared_dir / "alice"
    home.mkdir()
    os.chown(home, other_user.pw_uid, other_user.pw_gid)
    script = seed_script(before=iterations(40, 0.5), crash_line="", after="exit 0")
    (home / "race.sh").write_text(script)
    # Polls every 20 ms: each finds the path swapped and opens it again, hundreds of times.
    async with start_ajr(sqlite_url, hang_timeout=60.0, log_poll_interval=0.02) as ajr:
        submitted = subprocess.run(
            ["sbatch", "--parsable", "-J", "race", "-p", "gpu", "-D", str(home),
             f"--uid={other_user.pw_uid}", f"--gid={other_user.pw_gid}", str(home / "race.sh")],
            env=slurm_cluster.env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        job_id = int(submitted.stdout.strip().split(";")[0])
        # In a thread: the worker under test runs on this event loop and must go on meanwhile.
        swapper = await asyncio.to_thread(
            subprocess.run,
            [SYSTEM_PYTHON, "-c", SWAPPER, str(home), str(secret), "15"],
            user=other_user.pw_uid, group=other_user.pw_gid, extra_groups=[],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert swapper.returncode == 0, (
            swapper.stderr,
            ajr.scontrol("show", "job", str(job_id)),
            sorted(p.name for p in home.iterdir()),
        )
        assert int(swapper.stdout) > 1000, swapper  # thousands of swaps while ajr watched
        outcome = await ajr.outcome(job_id, timeout=90)
        assert outcome.outcome is Outcome.COMPLETED, outcome
        assert (await ajr.job(job_id)).restart_count == 0
        attempts = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        status = await ajr.handle(job_id).query(JobRecoveryWorkflow.status)
        with Session(make_engine(sqlite_url)) as session:
            rows = session.exec(select(DecisionRecord).where(DecisionRecord.job_id == job_id))
            stored = " ".join(f"{r.evidence} {r.reasons}" for r in rows.all())
    seen = f"{attempts} {status} {stored} {caplog.text}"
    assert marker not in seen


# --- 3. a long checkpoint save, a benign signal name, the minimum silence ----------------------


async def test_checkpoint_silence_and_benign_signal_names_kill_no_job(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    """The probe's trainer (2 s cadence, a silent save) and a SIGABRT handler line: both live."""
    hang_timeout = 5.0
    async with start_ajr(
        sqlite_url, hang_timeout=hang_timeout, checkpoint_hang_timeout=60.0
    ) as ajr:
        saving = ajr.submit(
            seed_script(
                before="echo 'Installing signal handlers for SIGTERM, SIGINT and SIGABRT' && "
                + iterations(8, 0.5),
                crash_line="echo 'saving checkpoint' && sleep 15 && "
                "echo 'Saved checkpoint to /ckpt/iter_8'",
                after=iterations(4, 0.5, start=9) + " && exit 0",
            ),
            name="slow-save",
        )
        silent = ajr.submit(
            seed_script(before=iterations(8, 0.5), crash_line="", after="sleep 120"),
            name="silent",
        )
        gap = await silence_before_requeue(ajr, "silent", silent, limit=60)
        # A cadence of 0.5 s never undercuts the documented minimum of hang_timeout.
        assert hang_timeout - 1.0 <= gap <= hang_timeout + 10.0, gap
        outcome = await ajr.outcome(saving, timeout=90)
        assert outcome.outcome is Outcome.COMPLETED, outcome
        assert (await ajr.job(saving)).restart_count == 0
        (record,) = await ajr.handle(saving).query(JobRecoveryWorkflow.attempts)
        assert (record.observed, record.checkpoints) == ("EXITED", 1)


# --- 4. one pathological comment blocks no other job's enrolment -------------------------------


async def test_a_pathological_comment_blocks_no_later_job(
    start_ajr, slurm_cluster, workdir, sqlite_url, temporal_env
) -> None:
    bad_comment = '{"APS": ' + "[" * 1016
    async with start_ajr(sqlite_url) as ajr:
        bad = ajr.submit(
            seed_script(comment=bad_comment, crash_line="", after="sleep 120"), name="bad-comment"
        )
        crashing = ajr.submit(seed_script(), name="after-the-bad-one")
        outcome = await ajr.outcome(crashing, timeout=90)
        assert outcome.outcome is Outcome.MAX_REQUEUES  # enrolled and recovered as usual
        rejected = await ajr.outcome(bad, timeout=30)
        assert rejected.outcome is Outcome.NOT_MANAGED
        assert "nested too deeply" in rejected.reason
        lines = await status_lines(temporal_env.client, ajr.settings.cluster_name)
        assert any(str(bad) in line and "nested too deeply" in line for line in lines), lines


# --- 5. a log planted by another user is never watched -----------------------------------------


async def test_a_planted_log_is_never_watched(
    start_ajr, slurm_cluster, shared_dir, sqlite_url, other_user
) -> None:
    jobs = shared_dir / "world-writable"
    jobs.mkdir()
    jobs.chmod(0o777)
    async with start_ajr(sqlite_url) as ajr:
        ajr.workdir = jobs
        job_id = ajr.submit(
            seed_script(before=iterations(10, 0.5), crash_line="", after="exit 0"),
            "--hold",
            name="planted",
        )
        await ajr.wait_for_job(job_id, lambda j: j.state is JobState.PENDING, 30, "pending")
        await workflow_state(ajr, job_id)
        now = time.strftime("date_%y-%m-%d_time_%H-%M-%S", time.localtime(time.time() + 3))
        for stamp in ("date_30-01-01_time_00-00-00", now):  # the future, and a likely one
            planted = jobs / f"planted_{job_id}_{stamp}.log"
            planted.write_text("0: Segmentation fault (core dumped)\n")
            os.chown(planted, other_user.pw_uid, other_user.pw_gid)
        ajr.scontrol("release", str(job_id))
        outcome = await ajr.outcome(job_id, timeout=90)
        assert outcome.outcome is Outcome.COMPLETED, outcome
        (record,) = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert Path(record.log_path).stat().st_uid == 0  # the job's own log (the job is root's)
        assert (await ajr.job(job_id)).restart_count == 0


# --- 6. a worker killed while a crash waits for its confirmation -------------------------------


async def heartbeated_offset(ajr: AjrUnderTest, job_id: int) -> int:
    """The log offset the watch activity's last heartbeat reached Temporal's server with (0
    before the worker has discovered the job and started its workflow)."""
    try:
        description = await ajr.handle(job_id).describe()
    except RPCError as exc:
        if exc.status is RPCStatusCode.NOT_FOUND:
            return 0
        raise
    converter = ajr.client.data_converter
    for pending in description.raw_description.pending_activities:
        if pending.activity_type.name == "watch_attempt" and pending.heartbeat_details.payloads:
            (cursor,) = await converter.decode(pending.heartbeat_details.payloads)
            return int(cursor.get("offset", 0))
    return 0


async def test_a_crash_awaiting_confirmation_survives_a_worker_kill(
    temporal_env, slurm_cluster, workdir, sqlite_url, tmp_path
) -> None:
    """The probe's case: the server holds a cursor past the OOM line when the worker dies."""
    settings = make_settings(
        slurm_cluster.conf, temporal_address(temporal_env), sqlite_url, crash_confirm=40.0
    )
    oom = "echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'"
    first = worker_process(settings, tmp_path / "worker1.log")
    second = None
    try:
        control = SlurmControl(SlurmRunner(env=settings.slurm_env()))
        ajr = AjrUnderTest(settings, temporal_env.client, slurm_cluster.env, workdir, control)
        job_id = ajr.submit(
            seed_script(before=iterations(5, 1.0), crash_line=oom, after="sleep 300"),
            name="oom-then-hang",
        )
        await ajr.wait_for_job(job_id, lambda j: j.state is JobState.RUNNING, 30, "running")
        deadline = time.monotonic() + 60
        while True:
            logs = ajr.log_files("oom-then-hang", job_id)
            if logs and "out of memory" in logs[0].read_text():
                break
            assert time.monotonic() < deadline, "the OOM line was never written"
            await asyncio.sleep(0.2)
        written, end_of_line = time.monotonic(), logs[0].stat().st_size
        # Temporal keeps the heartbeats it was sent (the SDK throttles them): wait until the
        # server's cursor is past the OOM line, as in the probe, then the worker dies.
        # (A worker started on a busy host may discover the job some seconds late.)
        while await heartbeated_offset(ajr, job_id) < end_of_line:
            assert time.monotonic() - written < 60, "no heartbeat past the OOM line"
            await asyncio.sleep(0.5)
        read = time.monotonic()  # the watch had read the OOM line by now
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert (await ajr.job(job_id)).restart_count == 0, "acted before the worker died"
        second = worker_process(settings, tmp_path / "worker2.log")
        # A CUDA OOM is the application's (analysis/signals.py): the attempt is cancelled, not
        # requeued. What matters here is that the pending line is acted on at all, and in time.
        await ajr.wait_for_job(job_id, lambda j: j.state is not JobState.RUNNING, 90, "acted on")
        # The window (40 s), then the watch's heartbeat timeout (20 s) at most: not the 900 s
        # start-up allowance a fresh analyzer falls back to.
        assert time.monotonic() - read < 90
        (record, *_) = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert (record.observed, record.action, record.acted) == ("CRASH", "cancel", True)
        assert "out of memory" in " ".join(record.evidence).lower()
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(15)
        subprocess.run(["scancel", "--user", "root"], env=slurm_cluster.env, check=False)
