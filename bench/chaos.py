"""Chaos trials: ajr recovering a crash while a part of its world fails, checked from Slurm.

Each trial runs two managed jobs on a real local Slurm cluster ("ajrchaos", 4 nodes): a healthy
one printing an iteration line every second, and one that crashes (a segfault line, exit 1) when
the trial says so, on its first attempt only. Around that crash the fault is injected:

  worker-kill        SIGKILL the ajr worker process at a random moment 0-4 s after the crash line
                     (detection, decision, requeuehold/release in flight), start a new one 1-4 s
                     later.
  temporal-restart   stop the Temporal dev server (its SQLite file persists) 0-4 s after the crash
                     line, start it again 3 s later.
  slurmctld-pause    SIGSTOP slurmctld for 45 s; the crash line comes 5 s into the pause.
  slurmctld-restart  stop slurmctld 0-4 s after the crash line, start it 3 s later (state saved).
  db-down            the ajr database (SQLite) locked for 60 s by another process's exclusive
                     transaction (every read and write fails "database is locked"); the crash
                     line comes 5 s in. (MariaDB is shared on this host and is not stopped.)
  disk-full          ajr's state directory and SQLite database sit on a 64 MiB tmpfs of their
                     own; a file fills it to the last byte for 60 s, the crash line 5 s in.
  hostile-user       another OS user (ajr-test-alice) attacks while the crash is recovered: plants
                     a later-stamped log with a crash line named for root's healthy job in the
                     shared (1777) directory, swaps the log of their own running job between a
                     symlink to a root-only file holding a crash line and the real log for 8 s,
                     and submits a job with a pathological APS comment (deep nesting, a
                     1000-digit number, Infinity, padding; Slurm refuses comments > 1024 chars).
                     Their jobs are bystanders: neither may be touched.

After every trial, from Slurm itself (`squeue --json`) and ajr's decision table:
  lost             the crashing job was not running again (restart count >= 1, not held) within
                   `--recover-timeout`, or either job ended/vanished;
  double_requeues  the crashing job restarted more than once (Slurm's restart count), or more
                   than one acted requeue decision is recorded for it;
  left_held        a job of the trial still held at the end;
  false_kills      the healthy job (or a bystander) restarted, ended, or has an acted
                   requeue/cancel decision;
  missing_records  the acted requeue decisions recorded in ajr's database differ from Slurm's
                   restart count (every decision recorded once), waited for up to 180 s after
                   the fault (a decision the database refused is written later:
                   `records_settled_s` says how long each trial's records took to match).
Prints one JSON object per fault: fault, trials, lost, double_requeues, left_held, false_kills,
missing_records, violations (one entry per broken invariant, with details), recover_s (crash
line -> job running again, per trial, watched from Slurm every 0.5 s also during the fault),
environment_failures (trials the host failed: munged gone or a slurmd not answering, with
Slurm then requeueing by itself; not counted) and notes.

Run as root (slurmd needs it); ports shift by AJR_TEST_PORT_OFFSET:

    PYTHONPATH=. .venv/bin/python bench/chaos.py --fault worker-kill --trials 20 --json
    PYTHONPATH=. .venv/bin/python bench/chaos.py --quick   # every fault, 2 trials each
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from activities.database import migrate
from activities.database.engine import make_engine
from activities.slurm.parse import ParseError, jobs_from_squeue_json
from devstack import SlurmCluster
from devstack.slurm import program
from devstack.temporal import TemporalServer, find_executable
from devstack.users import os_user
from models.slurm import JobState, SlurmJob

FAULTS = (
    "worker-kill",
    "temporal-restart",
    "slurmctld-pause",
    "slurmctld-restart",
    "db-down",
    "disk-full",
    "hostile-user",
)
HOSTILE_USER = "ajr-test-alice"  # the same ordinary user tests/integration/test_trust.py uses
# The other user runs the system's Python: the venv's interpreter may not be theirs to run.
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin") or "/usr/bin/python3"
# Run as the other user: plant a log named for root's healthy job (a later stamp, a crash line)
# in the shared directory, then swap the user's own job log between a symlink to a root-only
# file (holding a crash line) and the real log, as fast as possible, then restore it.
HOSTILE = """
import datetime, glob, os, sys, time
shared, home, healthy, own, secret, seconds = sys.argv[1:7]
stamp = (datetime.datetime.now() + datetime.timedelta(seconds=20)).strftime(
    "date_%y-%m-%d_time_%H-%M-%S")
with open(os.path.join(shared, f"chaos-healthy_{healthy}_{stamp}.log"), "w") as out:
    out.write("0: Rank0: (1) segmentation fault: planted by another user\\n")
(log,) = glob.glob(os.path.join(home, f"chaos-own_{own}_date_*.log"))
real = os.path.join(home, "real.log")
os.link(log, real)
tmp = os.path.join(home, "swap.tmp")
swaps, end = 0, time.monotonic() + float(seconds)
while time.monotonic() < end:
    for target in (secret, real):
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
# Comments a user may write to break discovery, within Slurm's 1024-character limit on a
# comment (longer ones sbatch refuses): deep nesting, a huge number, Infinity, padding.
PATHOLOGICAL_COMMENTS = (
    '{"APS": ' + "[" * 500 + "]" * 500 + "}",
    '{"APS": {"max_requeue_times": 1' + "0" * 980 + "}}",
    '{"APS": {"auto_resume_mode": "requeue"}, "x": "' + "A" * 950 + '"}',
    '{"APS": {"max_requeue_times": 1e999}}',
)
OFFSET = int(os.environ.get("AJR_TEST_PORT_OFFSET", "0"))
# Below the kernel's ephemeral range (32768-60999): there an outgoing connection could hold a
# port before the bench's slurmd binds it. Clear of the tests' 26817+ and `ajr dev up`'s ports.
SLURMCTLD_PORT = 21817 + OFFSET
SLURMD_PORT = 21818 + OFFSET
NODE_PORT_BASE = 22001 + OFFSET
TEMPORAL_PORT = 22633 + OFFSET
TEMPORAL_UI_PORT = 23733 + OFFSET
COMMENT = '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 3}}'
ROOT = Path(__file__).resolve().parents[1]

HEALTHY_STEP = """i=0
while true; do
  i=$((i+1)); echo "iteration $i/1000000 | elapsed time per iteration (ms): 1000.0 | lm loss: 2.0"
  sleep 1
done
"""
# Crashes on its first attempt when the trigger file appears; later attempts train on.
CRASH_STEP = """i=0
while [ "${SLURM_RESTART_COUNT:-0}" != 0 ] || [ ! -e "$1" ]; do
  i=$((i+1)); echo "iteration $i/1000000 | elapsed time per iteration (ms): 1000.0 | lm loss: 2.0"
  sleep 1
done
echo "Rank0: (1) segmentation fault: chaos trial"
sleep 1
exit 1
"""
BATCH = """#!/bin/bash
#SBATCH -t 00:30:00
#SBATCH --comment='{comment}'
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
srun -l -u --output="$(pwd)/%x_%j_$DATETIME.log" bash {step} {trigger}
"""


@dataclass
class Stack:
    """slurmctld + 4 slurmd, a Temporal dev server and one ajr worker process, under `root`."""

    root: Path
    cluster: SlurmCluster
    temporal: TemporalServer
    db_path: Path
    cluster_name: str
    worker: subprocess.Popen[bytes] | None = None
    workers_started: int = 0
    worker_overrides: dict[str, str] = field(default_factory=dict)

    @property
    def slurm_env(self) -> dict[str, str]:
        return self.cluster.subprocess_env()

    def worker_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AJR_")}
        env.update(
            {
                "AJR_SLURM_CONF": str(self.cluster.conf),
                "AJR_TEMPORAL_ADDRESS": self.temporal.address,
                "AJR_DATABASE_URL": f"sqlite:///{self.db_path}",
                "AJR_STATE_DIR": str(self.db_path.parent / "ajr-state"),
                "AJR_CLUSTER_NAME": self.cluster_name,
                "AJR_TASK_QUEUE": f"ajr-chaos-{self.cluster_name}",
                "AJR_SLURM_POLL_INTERVAL": "1.0",
                "AJR_LOG_POLL_INTERVAL": "0.2",
                "AJR_HANG_TIMEOUT": "300",
                "PYTHONPATH": str(ROOT),
                **self.worker_overrides,
            }
        )
        return env

    def start_worker(self) -> None:
        self.workers_started += 1
        log = (self.root / f"worker-{self.workers_started}.log").open("ab")
        self.worker = subprocess.Popen(
            [sys.executable, "-m", "worker", "worker"],
            env=self.worker_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
        log.close()

    def watching(self, job_id: int) -> bool:
        """The job's workflow runs with its watch pending: ajr has enrolled it and reads it."""
        try:
            out = subprocess.run(
                [
                    find_executable("temporal"),
                    "workflow",
                    "describe",
                    "--workflow-id",
                    f"ajr-{self.cluster_name}-{job_id}",
                    "--address",
                    self.temporal.address,
                    "--output",
                    "json",
                ],
                capture_output=True,
                text=True,
                timeout=30,
            )
        except subprocess.TimeoutExpired:
            return False
        return out.returncode == 0 and '"watch_attempt"' in out.stdout

    def kill_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGKILL)
            self.worker.wait(timeout=30)
        self.worker = None

    def stop_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGTERM)
            try:
                self.worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill_worker()
        self.worker = None

    def slurmctld_pid(self) -> int:
        record = self.cluster.registry.alive("slurmctld")
        if record is None:
            raise RuntimeError("slurmctld is not running")
        return record.pid

    def jobs(self, job_ids: list[int]) -> dict[int, SlurmJob]:
        """Slurm's view of these jobs; raises when slurmctld gives no good answer."""
        done = subprocess.run(
            [program("squeue"), "--json", "--states=all"],
            env=self.slurm_env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"squeue failed: {done.stderr.strip()[:200]}")
        return {
            job.job_id: job for job in jobs_from_squeue_json(done.stdout) if job.job_id in job_ids
        }

    def submit(
        self,
        workdir: Path,
        name: str,
        step: Path,
        trigger: Path,
        *,
        comment: str = COMMENT,
        user: pwd.struct_passwd | None = None,
    ) -> int:
        script = workdir / f"{name}.sh"
        script.write_text(BATCH.format(comment=comment, step=step, trigger=trigger))
        as_user: list[str] = []
        if user is not None:
            os.chown(script, user.pw_uid, user.pw_gid)
            as_user = [f"--uid={user.pw_uid}", f"--gid={user.pw_gid}", "-D", str(workdir)]
        done = subprocess.run(
            [
                program("sbatch"),
                "--parsable",
                "-J",
                name,
                "-p",
                "gpu",
                "-N",
                "1",
                *as_user,
                str(script),
            ],
            cwd=workdir,
            env=self.slurm_env,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return int(done.stdout.strip().split(";")[0])

    def cancel(self, job_ids: list[int]) -> None:
        subprocess.run(
            [program("scancel"), *map(str, job_ids)],
            env=self.slurm_env,
            capture_output=True,
            timeout=30,
            check=False,
        )

    def decisions(self, job_id: int) -> list[tuple[int, str, bool]]:
        """(attempt, action, acted) of each decision recorded for the job."""
        if not self.db_path.exists():
            return []
        with contextlib.closing(sqlite3.connect(self.db_path, timeout=30)) as db:
            known = db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'decision_records'"
            ).fetchall()
            if not known:  # ajr has written no decision yet (its tables come with the first)
                return []
            rows = db.execute(
                "SELECT attempt, action, acted FROM decision_records"
                " WHERE cluster = ? AND job_id = ?",
                (self.cluster_name, job_id),
            ).fetchall()
        return [(int(a), str(b), bool(c)) for a, b, c in rows]


class BenchCluster(SlurmCluster):
    """The dev cluster, with lines added to its slurm.conf (e.g. Slurm's native RequeueExit)."""

    extra_conf = ""

    def render_config(self) -> str:
        return super().render_config() + self.extra_conf


@contextlib.contextmanager
def stack_running(
    keep: bool,
    *,
    cpus_per_node: int = 2,
    worker_overrides: dict[str, str] | None = None,
    prefix: str = "ajr-chaos-",
    port_shift: int = 0,
    nodes: int = 4,
    extra_conf: str = "",
    worker: bool = True,
    state_tmpfs_mb: int = 0,
) -> Iterator[Stack]:
    """The stack; `port_shift` moves every port (another bench's stack may run beside it)."""
    root = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    root.chmod(0o755)
    cluster = BenchCluster(
        root / "slurm",
        cluster_name="ajrchaos",
        nodes=nodes,
        partition="gpu",
        slurmctld_port=SLURMCTLD_PORT + port_shift,
        slurmd_port=SLURMD_PORT + port_shift,
        node_port_base=NODE_PORT_BASE + port_shift,
        cpus_per_node=cpus_per_node,
    )
    cluster.extra_conf = extra_conf
    temporal = TemporalServer(
        root / "temporal", port=TEMPORAL_PORT + port_shift, ui_port=TEMPORAL_UI_PORT + port_shift
    )
    state = root / "state"  # ajr's database and state directory
    state.mkdir()
    mount = shutil.which("mount") or "/usr/bin/mount"
    if state_tmpfs_mb:  # a small filesystem of its own, that a trial may fill
        subprocess.run(
            [mount, "-t", "tmpfs", "-o", f"size={state_tmpfs_mb}m", "tmpfs", str(state)],
            check=True,
            timeout=30,
        )
    stack = Stack(root, cluster, temporal, state / "ajr.db", f"chaos{uuid.uuid4().hex[:6]}")
    stack.worker_overrides = dict(worker_overrides or {})
    # The schema is `ajr db upgrade`'s, as on a real install: the worker creates no table.
    engine = make_engine(f"sqlite:///{stack.db_path}")
    migrate.upgrade(engine)
    engine.dispose()
    try:
        cluster.start(timeout=90)
        for line in temporal.start(timeout=90):  # a restart during start shows here
            print(line, file=sys.stderr)
        if worker:
            stack.start_worker()
        yield stack
    finally:
        stack.stop_worker()
        # Hundreds of jobs take longer to cancel than `stop`'s own wait: cancel first, then
        # stop the daemons whatever the cancel said (never leave them behind).
        with contextlib.suppress(Exception):
            cluster.cancel_all_jobs(timeout=180)
        with contextlib.suppress(Exception):
            # munged is shared by every Slurm cluster on this host: never stop it.
            cluster.stop(cancel_jobs=False, stop_munge=False)
        with contextlib.suppress(Exception):
            temporal.stop()
        if state_tmpfs_mb:
            subprocess.run(
                [shutil.which("umount") or "/usr/bin/umount", str(state)], check=False, timeout=30
            )
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


# --- one trial ---------------------------------------------------------------------------------


@dataclass
class Trial:
    fault: str
    index: int
    healthy: int = 0
    crashing: int = 0
    crash_at: float = 0.0
    # Other jobs that must stay untouched: the hostile user's own job, the odd-comment job.
    bystanders: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    recovered_at: float | None = None
    violations: list[dict[str, Any]] = field(default_factory=list)
    # Set when the host itself failed the trial (munged gone, a slurmd not answering for 30 s
    # on a starved CPU): Slurm then requeues jobs by itself. Such a trial counts for nothing.
    environment: str = ""
    records_settled_s: float = 0.0  # from the check's start until the records matched Slurm

    def violate(self, invariant: str, detail: str) -> None:
        self.violations.append(
            {"trial": self.index, "invariant": invariant, "detail": detail[:500]}
        )


def wait_for(predicate: Any, timeout: float, every: float = 0.3) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except (RuntimeError, ParseError, subprocess.TimeoutExpired):
            pass  # slurmctld paused or restarting: ask again
        time.sleep(every)
    return False


def lock_database(path: Path, seconds: float, ready: threading.Event) -> None:
    """Hold an exclusive transaction on the SQLite file: nobody else reads or writes it."""
    with contextlib.closing(sqlite3.connect(path, timeout=60, isolation_level=None)) as db:
        db.execute("BEGIN EXCLUSIVE")
        ready.set()
        time.sleep(seconds)
        db.execute("ROLLBACK")


def fill(path: Path) -> None:
    """Fill the filesystem holding `path` to the last byte."""
    chunk = b"\0" * (1 << 20)
    with path.open("wb", buffering=0) as out:
        for size in (1 << 20, 4096, 1):
            try:
                while True:
                    out.write(chunk[:size])
            except OSError:
                continue


def hostile(stack: Stack, trial: Trial, shared: Path) -> None:
    """The other user's attacks, while the crash is being recovered (see HOSTILE)."""
    alice = os_user(HOSTILE_USER)
    secret = stack.root / "root-only.log"
    secret.write_text("0: Rank0: (1) segmentation fault: SECRET of root, read by ajr\n")
    secret.chmod(0o600)
    home = shared / "alice"
    subprocess.run(
        [
            SYSTEM_PYTHON,
            "-c",
            HOSTILE,
            str(shared),
            str(home),
            str(trial.healthy),
            str(trial.bystanders[0]),
            str(secret),
            "8",
        ],
        user=alice.pw_uid,
        group=alice.pw_gid,
        capture_output=True,
        timeout=60,
        check=True,
    )


def inject(
    stack: Stack, trial: Trial, trigger: Path, rng: random.Random, outage: float | None = None
) -> None:
    """Write the crash (touch the trigger) with the fault around it; `outage` (seconds) shortens
    the long faults (slurmctld-pause 45 s, db-down and disk-full 60 s), the crash still 5 s in."""
    fault = trial.fault
    if fault == "slurmctld-pause":
        pid = stack.slurmctld_pid()
        os.kill(pid, signal.SIGSTOP)
        try:
            time.sleep(5)
            trigger.touch()
            trial.crash_at = time.time()
            time.sleep((outage or 45.0) - 5)
        finally:
            os.kill(pid, signal.SIGCONT)
        return
    if fault == "db-down":
        ready = threading.Event()
        locker = threading.Thread(target=lock_database, args=(stack.db_path, outage or 60.0, ready))
        locker.start()
        ready.wait(60)
        time.sleep(5)
        trigger.touch()
        trial.crash_at = time.time()
        locker.join()
        return
    if fault == "disk-full":
        filler = stack.db_path.parent / "filler"
        fill(filler)
        try:
            time.sleep(5)
            trigger.touch()
            trial.crash_at = time.time()
            time.sleep((outage or 60.0) - 5)
        finally:
            filler.unlink()
        return
    if fault == "hostile-user":
        trigger.touch()
        trial.crash_at = time.time()
        hostile(stack, trial, trigger.parent)
        return
    trigger.touch()
    trial.crash_at = time.time()
    time.sleep(rng.uniform(0.0, 4.0))
    if fault == "worker-kill":
        stack.kill_worker()
        time.sleep(rng.uniform(1.0, 4.0))
        stack.start_worker()
    elif fault == "temporal-restart":
        stack.temporal.stop()
        time.sleep(3)
        stack.temporal.start(timeout=90)
    elif fault == "slurmctld-restart":
        stack.cluster.registry.stop("slurmctld", timeout=20)
        time.sleep(3)
        stack.cluster.start(timeout=90)
    else:
        raise ValueError(f"unknown fault {fault}")


def run_trial(
    stack: Stack,
    fault: str,
    index: int,
    rng: random.Random,
    timeout: float,
    outage: float | None = None,
) -> Trial:
    trial = Trial(fault, index)
    workdir = stack.root / f"trial-{fault}-{index}"
    workdir.mkdir()
    workdir.chmod(0o755)
    healthy_step, crash_step = workdir / "healthy.sh", workdir / "crash.sh"
    healthy_step.write_text(HEALTHY_STEP)
    crash_step.write_text(CRASH_STEP)
    trigger = workdir / "crash-now"
    trial.healthy = stack.submit(workdir, "chaos-healthy", healthy_step, trigger)
    trial.crashing = stack.submit(workdir, "chaos-crash", crash_step, trigger)
    if fault == "hostile-user":
        workdir.chmod(0o1777)  # a shared project directory: everyone may create files
        alice = os_user(HOSTILE_USER)
        home = workdir / "alice"
        home.mkdir()
        own_step = home / "healthy.sh"
        own_step.write_text(HEALTHY_STEP)
        for path in (home, own_step):
            os.chown(path, alice.pw_uid, alice.pw_gid)
        trial.bystanders.append(stack.submit(home, "chaos-own", own_step, trigger, user=alice))
        odd = PATHOLOGICAL_COMMENTS[index % len(PATHOLOGICAL_COMMENTS)]
        try:
            trial.bystanders.append(
                stack.submit(home, "chaos-odd", own_step, trigger, comment=odd, user=alice)
            )
        except subprocess.CalledProcessError as exc:  # Slurm itself refused the comment
            trial.notes.append(f"sbatch refused comment {odd[:30]}...: {exc.stderr.strip()}")
    ids = [trial.healthy, trial.crashing, *trial.bystanders]
    log_offset = stack.cluster.slurmctld_log.stat().st_size
    try:
        running = wait_for(
            lambda: (
                all(j.state is JobState.RUNNING for j in stack.jobs(ids).values())
                and len(stack.jobs(ids)) == len(ids)
            ),
            60,
        )
        if not running:
            trial.violate("setup", "the trial's jobs did not start within 60 s")
            return trial
        # Both workflows watching (a worker starting on a loaded host may take a while): a
        # crash before ajr enrolled the job is not what a trial measures.
        if not wait_for(lambda: all(stack.watching(j) for j in ids[:2]), ENROL_TIMEOUT_S, 1.0):
            trial.violate("setup", f"the trial's jobs were not watched within {ENROL_TIMEOUT_S} s")
            return trial
        time.sleep(2.0 + rng.uniform(0.0, 2.0))  # a few lines read
        # Watched from Slurm from the crash on, also while the fault lasts (a thread: the
        # injection sleeps through its fault).
        stop = threading.Event()

        def recovered() -> bool:
            job = stack.jobs([trial.crashing]).get(trial.crashing)
            if job is not None and job.restart_count >= 1 and job.state is JobState.RUNNING:
                trial.recovered_at = trial.recovered_at or time.time()
                return True
            return False

        def watch() -> None:
            while not stop.is_set():
                with contextlib.suppress(RuntimeError, ParseError, subprocess.TimeoutExpired):
                    if trial.crash_at and recovered():
                        return
                stop.wait(0.5)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            inject(stack, trial, trigger, rng, outage)
            wait_for(lambda: trial.recovered_at is not None, timeout)
        finally:
            stop.set()
            watcher.join(timeout=60)
        time.sleep(5.0)  # a late second requeue or a stray kill would show by now
        check(stack, trial)
        if stack.worker is None or stack.worker.poll() is not None:
            log = stack.root / f"worker-{stack.workers_started}.log"
            tail = log.read_text(errors="replace").splitlines()[-12:] if log.exists() else []
            trial.violate("worker_died", f"the worker exited by itself: {log}")
            # The stack's directory goes at the end of the run: keep why the worker ended.
            trial.notes.append(f"trial {trial.index} worker log tail: " + " | ".join(tail)[-3000:])
        trial.environment = environment_failure(stack, log_offset)
    finally:
        stack.cancel(ids)
        wait_for(lambda: all(j.state.is_ended for j in stack.jobs(ids).values()), 60, every=0.5)
    return trial


# --quick: the long faults last this long (the crash still 5 s in), so every fault fits in CI.
QUICK_OUTAGE_S = 15.0

# A trial starts once ajr watches both jobs (a worker just started on a loaded host is slow).
ENROL_TIMEOUT_S = 120.0

# How long the check waits for ajr's records to match Slurm's restart count (the workflow writes
# a refused decision again after 10, 20, 40, 80, 120 s, ...).
RECORDS_SETTLE_S = 180.0

ENVIRONMENT_SIGNS = ("Munge encode failed", "not responding, setting DOWN")


def environment_failure(stack: Stack, offset: int) -> str:
    """The first slurmctld log line of this trial that shows the host failing Slurm."""
    with stack.cluster.slurmctld_log.open("rb") as log:
        log.seek(offset)
        text = log.read().decode("utf-8", "replace")
    for line in text.splitlines():
        if any(sign in line for sign in ENVIRONMENT_SIGNS):
            return line.strip()[:300]
    return ""


def check(stack: Stack, trial: Trial) -> None:
    jobs: dict[int, SlurmJob] = {}
    wait_for(
        lambda: (
            bool(jobs.update(stack.jobs([trial.healthy, trial.crashing, *trial.bystanders])))
            or True
        ),
        60,
    )
    for job_id in trial.bystanders:
        other = jobs.get(job_id)
        acted = [d for d in stack.decisions(job_id) if d[2] and d[1] in ("requeue", "cancel")]
        if other is None or other.restart_count or other.state is not JobState.RUNNING or acted:
            trial.violate(
                "false_kill",
                f"bystander job {job_id}: {other.state if other else 'gone'} "
                f"restarts={other.restart_count if other else '?'} decisions={acted}",
            )
    crash, healthy = jobs.get(trial.crashing), jobs.get(trial.healthy)
    if crash is None or healthy is None:
        trial.violate("lost", f"slurmctld no longer lists the job(s): {sorted(jobs)}")
        return
    if trial.recovered_at is None or crash.state.is_ended:
        trial.violate(
            "lost",
            f"crashing job {crash.job_id} not running again: {crash.state} "
            f"restarts={crash.restart_count} reason={crash.state_reason}",
        )
    if healthy.state.is_ended:
        trial.violate("lost", f"healthy job {healthy.job_id} ended: {healthy.state}")
    for job in (crash, healthy):
        if job.held:
            trial.violate("left_held", f"job {job.job_id} held: {job.state_reason}")
    # A decision the database refused is written later by the workflow (backing off): give the
    # records a while to match Slurm, and say how long they took.
    waited = time.monotonic()

    def requeues_recorded() -> list[tuple[int, str, bool]]:
        return [d for d in stack.decisions(crash.job_id) if d[1] == "requeue" and d[2]]

    wait_for(lambda: len(requeues_recorded()) == crash.restart_count, RECORDS_SETTLE_S, every=1.0)
    trial.records_settled_s = round(time.monotonic() - waited, 1)
    crash_requeues = requeues_recorded()
    # One crash: one requeue. More in Slurm, or more acted requeues recorded, is a double.
    if crash.restart_count > 1 or len(crash_requeues) > 1:
        trial.violate(
            "double_requeue",
            f"job {crash.job_id}: restart count {crash.restart_count}, "
            f"requeue decisions {crash_requeues}",
        )
    if crash.restart_count != len(crash_requeues):
        trial.violate(
            "missing_record",
            f"job {crash.job_id}: requeued {crash.restart_count}x by Slurm's count, "
            f"acted requeues recorded {crash_requeues}",
        )
    acted = [d for d in stack.decisions(healthy.job_id) if d[2] and d[1] in ("requeue", "cancel")]
    if healthy.restart_count != 0 or healthy.state is not JobState.RUNNING or acted:
        trial.violate(
            "false_kill",
            f"healthy job {healthy.job_id}: {healthy.state} restarts={healthy.restart_count} "
            f"decisions={acted}",
        )


# --- report ------------------------------------------------------------------------------------

COUNTERS = {
    "lost": "lost",
    "double_requeue": "double_requeues",
    "left_held": "left_held",
    "false_kill": "false_kills",
    "missing_record": "missing_records",
}


def summarise(fault: str, every: list[Trial]) -> dict[str, Any]:
    trials = [t for t in every if not t.environment]
    violations = [v for t in trials for v in t.violations]
    report: dict[str, Any] = {"fault": fault, "trials": len(trials)}
    for invariant, key in COUNTERS.items():
        report[key] = sum(any(v["invariant"] == invariant for v in t.violations) for t in trials)
    report["setup_failures"] = sum(
        any(v["invariant"] == "setup" for v in t.violations) for t in trials
    )
    report["worker_died"] = sum(
        any(v["invariant"] == "worker_died" for v in t.violations) for t in trials
    )
    report["violations"] = violations
    report["notes"] = [n for t in every for n in t.notes]
    # Trials the host failed (not counted above), with what Slurm logged and what was seen.
    report["environment_failures"] = [
        {"trial": t.index, "slurmctld": t.environment, "seen": t.violations}
        for t in every
        if t.environment
    ]
    report["recover_s"] = [
        round(t.recovered_at - t.crash_at, 1) for t in trials if t.recovered_at is not None
    ]
    report["records_settled_s"] = [t.records_settled_s for t in trials]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fault", action="append", choices=FAULTS, default=[])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument(
        "--quick", action="store_true", help="2 trials of each fault, 15 s outages (CI)"
    )
    parser.add_argument(
        "--outage",
        type=float,
        default=None,
        help="seconds of the long faults (default: pause 45, db-down 60, disk-full 60)",
    )
    parser.add_argument("--recover-timeout", type=float, default=150.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="only the JSON lines on stdout")
    parser.add_argument("--keep", action="store_true", help="keep the state directory")
    parser.add_argument("--port-shift", type=int, default=0, help="beside another chaos run")
    args = parser.parse_args(argv)
    faults = args.fault or list(FAULTS)
    trials = 2 if args.quick else args.trials
    outage = args.outage or (QUICK_OUTAGE_S if args.quick else None)
    rng = random.Random(args.seed)
    failed = False
    with stack_running(
        args.keep,
        state_tmpfs_mb=64 if "disk-full" in faults else 0,
        port_shift=args.port_shift,
    ) as stack:
        for fault in faults:
            done: list[Trial] = []
            for index in range(trials):
                trial = run_trial(stack, fault, index, rng, args.recover_timeout, outage)
                done.append(trial)
                if not args.json:
                    print(
                        f"{fault} #{index}: {trial.violations or 'ok'} {trial.environment}",
                        file=sys.stderr,
                    )
                if stack.worker is None or stack.worker.poll() is not None:
                    stack.start_worker()  # the worker itself died: a violation shows it above
            report = summarise(fault, done)
            failed = failed or bool(report["violations"])
            print(json.dumps(report), flush=True)
        if args.keep:
            print(f"state kept in {stack.root}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
