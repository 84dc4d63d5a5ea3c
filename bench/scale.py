"""Scale: N managed jobs on one ajr worker, on a real local Slurm cluster, measured.

The bench starts its own stack (bench/chaos.py's: 4 slurmd with `--cpus-per-node` configured
CPUs each, so N one-CPU jobs run at once; a Temporal dev server; one `ajr worker` process with
its production poll intervals) and submits managed jobs that print one iteration line every
30 s. It measures two steady-state windows of `--window` seconds each, first with `--baseline`
jobs, then with `--jobs` jobs, nothing failing in either:

  worker_cpu_pct / worker_rss_mb   the worker process (utime+stime over the window; VmRSS)
  temporal_cpu_pct                 the Temporal dev server process
  slurmctld_rpm                    slurmctld RPCs per minute, from `sdiag`'s per-type counts
                                   (every client: ajr, slurmd, the jobs' srun), and the ratio
                                   at N vs baseline
  history_events_per_job_hour      Temporal history events added over the window, all of the
                                   jobs' workflows, per job-hour

Then `--crashes` of the N jobs (chosen at submit, their loop polls a trigger file every 0.25 s)
write `segmentation fault ... at <epoch.ns>` at random moments over 20 s: crash line -> job
requeued and held (first `squeue` probe with restart count 1, every 0.25 s) p50/p99 under the
load of the other jobs. Prints one JSON object.

    PYTHONPATH=. .venv/bin/python bench/scale.py --jobs 200 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from temporalio.client import Client
from temporalio.service import RPCError

from bench.chaos import Stack, stack_running
from bench.simslurm.stack import SimStack, sim_stack_running
from devstack.slurm import program
from workflows.job_recovery import workflow_id

IDLE_STEP = """i=0
while true; do
  i=$((i+1)); echo "iteration $i/1000000 | elapsed time per iteration (ms): 30000.0 | lm loss: 2.0"
  for t in $(seq 120); do
    if [ -n "$1" ] && [ -e "$1" ] && [ "${SLURM_RESTART_COUNT:-0}" = 0 ]; then
      echo "Rank0: (1) segmentation fault: artificial segfault at $(date +%s.%N)"
      sleep 60
      exit 1
    fi
    sleep 0.25
  done
done
"""
QUIET_STEP = """i=0
while true; do
  i=$((i+1)); echo "iteration $i/1000000 | elapsed time per iteration (ms): 30000.0 | lm loss: 2.0"
  sleep 30
done
"""
CRASH_RE = re.compile(r"artificial segfault at (\d+\.\d+)")
SDIAG_RPC = re.compile(r"^\s*([A-Z_]+)\s+\(\s*\d+\)\s+count:(\d+)", re.MULTILINE)
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


AnyStack = Stack | SimStack


def slurm_program(stack: AnyStack, name: str) -> str:
    """The real command, or the simulated cluster's."""
    return stack.program(name) if isinstance(stack, SimStack) else program(name)


def slurm_env(stack: AnyStack) -> dict[str, str] | None:
    return None if isinstance(stack, SimStack) else stack.slurm_env


def sdiag_rpcs(stack: AnyStack) -> dict[str, int]:
    done = subprocess.run(
        [slurm_program(stack, "sdiag")],
        env=slurm_env(stack),
        capture_output=True,
        text=True,
        timeout=30,
    )
    section = done.stdout.split("Remote Procedure Call statistics by message type", 1)[-1]
    section = section.split("Remote Procedure Call statistics by user", 1)[0]
    return {name: int(count) for name, count in SDIAG_RPC.findall(section)}


@dataclass
class Job:
    job_id: int
    trigger: Path | None
    crash_written_at: float | None = None
    held_at: float | None = None


def submit(stack: Stack, workdir: Path, name: str, step: Path, trigger: Path | None) -> int:
    script = workdir / f"{name}.sh"
    comment = '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 1}}'
    script.write_text(
        "#!/bin/bash\n#SBATCH -t 02:00:00\n"
        f"#SBATCH --comment='{comment}'\n"
        "DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`\n"
        f'srun -l -u --output="$(pwd)/%x_%j_$DATETIME.log" bash {step} {trigger or ""}\n'
    )
    done = subprocess.run(
        [program("sbatch"), "--parsable", "-J", name, "-p", "gpu", "-n", "1", str(script)],
        cwd=workdir,
        env=stack.slurm_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return int(done.stdout.strip().split(";")[0])


def states(stack: AnyStack) -> dict[int, tuple[str, int, str]]:
    """{job: (state, restart count, reason)} for every job, in one light squeue call (or the
    simulated controller's own view: no RPC counted)."""
    if isinstance(stack, SimStack):
        jobs = stack.control({"control": "jobs"})["jobs"]
        return {int(k): (v["state"], int(v["restarts"]), "") for k, v in jobs.items()}
    done = subprocess.run(
        [
            program("squeue"),
            "--noheader",
            "--states=all",
            "-O",
            "JobID:20,State:20,RestartCnt:8,Reason:60",
        ],
        env=stack.slurm_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    out: dict[int, tuple[str, int, str]] = {}
    for line in done.stdout.splitlines():
        parts = line.split(None, 3)
        if len(parts) >= 3 and parts[0].isdigit():
            out[int(parts[0])] = (
                parts[1],
                int(parts[2]),
                parts[3].strip() if len(parts) > 3 else "",
            )
    return out


async def history_lengths(client: Client, cluster: str, jobs: list[int]) -> dict[int, int]:
    """Each job's workflow history length, 4 describes in flight: the bench's reads load the
    dev server the worker depends on (32 at once for 1,000 jobs coincided with a burst of the
    worker's watch heartbeat timeouts on this 2-core host)."""
    lengths: dict[int, int] = {}
    slots = asyncio.Semaphore(4)

    async def one(job_id: int) -> None:
        async with slots:
            try:
                handle = client.get_workflow_handle(workflow_id(cluster, job_id))
                described = await handle.describe()
            except RPCError:
                return
        lengths[job_id] = int(described.raw_description.workflow_execution_info.history_length)

    await asyncio.gather(*(one(job_id) for job_id in jobs))
    return lengths


async def wait_settled(
    client: Client, cluster: str, jobs: list[int], timeout: float, every: float = 15.0
) -> dict[str, Any]:
    """Until enrolment is over: the jobs' workflows add (almost) no history events over `every`
    seconds (each has prepared its job and is watching). Returns how long that took and the
    events of the last interval."""
    started = time.monotonic()
    before = await history_lengths(client, cluster, jobs)
    added = -1
    while time.monotonic() - started < timeout:
        await asyncio.sleep(every)
        after = await history_lengths(client, cluster, jobs)
        added = sum(after[j] - before.get(j, 0) for j in after)
        if len(after) == len(jobs) and added <= max(1, len(jobs) // 100):
            return {"ok": True, "seconds": round(time.monotonic() - started, 1), "last": added}
        before = after
    return {"ok": False, "seconds": round(time.monotonic() - started, 1), "last": added}


async def wait_watched(
    client: Client, stack: AnyStack, jobs: list[int], timeout: float
) -> tuple[bool, float]:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        running = states(stack)
        if all(running.get(j, ("",))[0] == "RUNNING" for j in jobs):
            lengths = await history_lengths(client, stack.cluster_name, jobs)
            if len(lengths) == len(jobs):
                return True, time.monotonic() - started
        await asyncio.sleep(2.0)
    return False, time.monotonic() - started


async def window(
    client: Client, stack: AnyStack, jobs: list[int], seconds: float
) -> dict[str, Any]:
    assert stack.worker is not None
    worker_pid = stack.worker.pid
    temporal = stack.temporal.registry.alive("temporal")
    temporal_pid = temporal.pid if temporal else 0
    h0 = await history_lengths(client, stack.cluster_name, jobs)
    r0, w0, t0, at0 = (
        sdiag_rpcs(stack),
        cpu_seconds(worker_pid),
        cpu_seconds(temporal_pid),
        time.monotonic(),
    )
    rss_peak = rss_mb(worker_pid)
    while time.monotonic() - at0 < seconds:
        await asyncio.sleep(5.0)
        rss_peak = max(rss_peak, rss_mb(worker_pid))
    r1, w1, t1, at1 = (
        sdiag_rpcs(stack),
        cpu_seconds(worker_pid),
        cpu_seconds(temporal_pid),
        time.monotonic(),
    )
    h1 = await history_lengths(client, stack.cluster_name, jobs)
    per_job = [await squeue_one_job_s(stack, jobs[0]) for _ in range(3)]
    single = [await scontrol_one_job_s(stack, jobs[0]) for _ in range(3)]
    elapsed = at1 - at0
    # REQUEST_STATS_INFO is this bench's own sdiag: not load.
    rpcs = {
        k: r1.get(k, 0) - r0.get(k, 0)
        for k in r1
        if r1.get(k, 0) - r0.get(k, 0) and k != "REQUEST_STATS_INFO"
    }
    events = sum(h1[j] - h0[j] for j in h1 if j in h0)
    return {
        "jobs": len(jobs),
        "seconds": round(elapsed, 1),
        "worker_cpu_pct": round(100 * (w1 - w0) / elapsed, 2),
        "worker_rss_mb": round(rss_peak, 1),
        "temporal_cpu_pct": round(100 * (t1 - t0) / elapsed, 2),
        "slurmctld_rpm": round(sum(rpcs.values()) * 60 / elapsed, 1),
        "slurmctld_rpcs": rpcs,
        "history_events": events,
        "history_events_per_job_hour": round(events / len(jobs) / (elapsed / 3600), 2),
        "squeue_json_one_job_s": round(sorted(per_job)[1], 3),
        "scontrol_one_job_s": round(sorted(single)[1], 3),
    }


class ChildSampler:
    """Peak number of the worker's child processes by command name (squeue, scontrol, ...),
    sampled every 0.25 s from /proc: the enrolment storm showed as hundreds of `squeue`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak: dict[str, int] = {}
        self.task: asyncio.Task[None] | None = None

    def start(self) -> ChildSampler:
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self

    def sample(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue
            comm = text[text.index("(") + 1 : text.rindex(")")]
            ppid = int(text.rsplit(")", 1)[1].split()[1])
            if ppid == self.pid:
                counts[comm] = counts.get(comm, 0) + 1
        return counts

    async def _run(self) -> None:
        while True:
            for comm, count in (await asyncio.to_thread(self.sample)).items():
                self.peak[comm] = max(self.peak.get(comm, 0), count)
            await asyncio.sleep(0.25)

    async def stop(self) -> dict[str, int]:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        return self.peak


async def enrolment(
    stack: AnyStack, children: ChildSampler, rpcs_before: dict[str, int], since: float
) -> dict[str, Any]:
    """From submitting the new jobs to every one watched: how long, the worker's peak child
    processes, and slurmctld's RPCs by type (full listings vs single-job reads)."""
    rpcs_after = sdiag_rpcs(stack)
    rpcs = {
        k: rpcs_after.get(k, 0) - rpcs_before.get(k, 0)
        for k in rpcs_after
        if rpcs_after.get(k, 0) - rpcs_before.get(k, 0) and k != "REQUEST_STATS_INFO"
    }
    return {
        "seconds": round(time.monotonic() - since, 1),
        "peak_worker_children": await children.stop(),
        "slurmctld_rpcs": rpcs,
    }


def percentile(values: list[float], p: float) -> float:
    if not values:
        return math.inf
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


async def breakdown(client: Client, stack: AnyStack, crashers: list[Job]) -> dict[str, float]:
    """Where the crash-to-held time goes, from each crasher's workflow history: detect (crash
    line -> watch_attempt completed), decide (-> requeue_job scheduled), dispatch (-> started),
    act (-> requeue_job completed)."""
    parts: dict[str, list[float]] = {"detect": [], "decide": [], "dispatch": [], "act": []}
    for job in crashers:
        if job.crash_written_at is None:
            continue
        handle = client.get_workflow_handle(workflow_id(stack.cluster_name, job.job_id))
        watch_done = scheduled = started = done = None
        names: dict[int, str] = {}
        try:
            async for event in handle.fetch_history_events():
                at = event.event_time.ToDatetime().timestamp() + _utc_offset()
                kind = event.WhichOneof("attributes")
                if kind == "activity_task_scheduled_event_attributes":
                    name = event.activity_task_scheduled_event_attributes.activity_type.name
                    names[event.event_id] = name
                    if name == "requeue_job" and scheduled is None:
                        scheduled = at
                elif kind == "activity_task_started_event_attributes":
                    sid = event.activity_task_started_event_attributes.scheduled_event_id
                    if names.get(sid) == "requeue_job" and started is None:
                        started = at
                elif kind == "activity_task_completed_event_attributes":
                    sid = event.activity_task_completed_event_attributes.scheduled_event_id
                    if names.get(sid) == "watch_attempt" and watch_done is None:
                        watch_done = at
                    if names.get(sid) == "requeue_job" and done is None:
                        done = at
        except RPCError:
            continue
        if None in (watch_done, scheduled, started, done):
            continue
        assert watch_done and scheduled and started and done
        parts["detect"].append(watch_done - job.crash_written_at)
        parts["decide"].append(scheduled - watch_done)
        parts["dispatch"].append(started - scheduled)
        parts["act"].append(done - started)
    return {k: round(percentile(v, 50), 2) for k, v in parts.items() if v}


def _utc_offset() -> float:
    """protobuf's ToDatetime() is naive UTC; .timestamp() reads it as local time: undo that."""
    return -time.timezone if time.localtime().tm_isdst == 0 else -time.altzone


async def squeue_one_job_s(stack: AnyStack, job_id: int) -> float:
    """Seconds one `squeue --json --jobs=<id>` takes (22.05 lists every job)."""
    return await _timed(stack, "squeue", "--json", "--states=all", f"--jobs={job_id}")


async def scontrol_one_job_s(stack: AnyStack, job_id: int) -> float:
    """Seconds one `scontrol -o show job <id>` takes (ajr's per-job read)."""
    return await _timed(stack, "scontrol", "-o", "show", "job", str(job_id))


async def _timed(stack: AnyStack, name: str, *args: str) -> float:
    started = time.monotonic()
    await asyncio.to_thread(
        subprocess.run,
        [slurm_program(stack, name), *args],
        env=slurm_env(stack),
        capture_output=True,
        timeout=60,
        check=False,
    )
    return time.monotonic() - started


async def crashes(
    stack: Stack, workdir: Path, crashers: list[Job], rng: random.Random
) -> dict[str, Any]:
    for job in crashers:
        job.crash_written_at = None
    schedule = sorted((rng.uniform(0, 20), job.job_id) for job in crashers)
    by_id = {job.job_id: job for job in crashers}
    began = time.monotonic()
    pending = list(schedule)
    deadline = began + 20 + 120
    probe_gaps: list[float] = []
    last = time.time()
    while time.monotonic() < deadline:
        now = time.monotonic() - began
        while pending and pending[0][0] <= now:
            _, job_id = pending.pop(0)
            trigger = by_id[job_id].trigger
            assert trigger is not None
            trigger.touch()
        seen = states(stack)
        at = time.time()
        probe_gaps.append(at - last)
        last = at
        for job in crashers:
            view = seen.get(job.job_id)
            if job.held_at is None and view is not None and view[1] >= 1:
                job.held_at = at
        if not pending and all(job.held_at is not None for job in crashers):
            break
        await asyncio.sleep(0.25)
    for job in crashers:
        for log in workdir.glob(f"scale-crash_{job.job_id}_*.log"):
            found = CRASH_RE.findall(log.read_text(errors="replace"))
            if found:
                job.crash_written_at = float(found[0])
    latencies = [
        job.held_at - job.crash_written_at
        for job in crashers
        if job.held_at is not None and job.crash_written_at is not None
    ]
    missed = [job.job_id for job in crashers if job.held_at is None]
    return {
        "crashes": len(crashers),
        "timed": len(latencies),
        "not_requeued": missed,
        "crash_to_held_p50_s": round(percentile(latencies, 50), 2),
        "crash_to_held_p99_s": round(percentile(latencies, 99), 2),
        "crash_to_held_max_s": round(max(latencies), 2) if latencies else None,
        "probe_period_p50_s": round(percentile(probe_gaps, 50), 2),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    cpus = max(2, math.ceil(args.jobs / 4) + 1)
    report: dict[str, Any] = {"target_jobs": args.jobs, "host_cpus": os.cpu_count()}
    with stack_running(
        args.keep,
        cpus_per_node=cpus,
        prefix="ajr-scale-",
        port_shift=50,
        # ajr's production poll intervals (bench/chaos.py's stack polls faster)
        worker_overrides={"AJR_SLURM_POLL_INTERVAL": "2.0", "AJR_LOG_POLL_INTERVAL": "0.5"},
    ) as stack:
        client = await Client.connect(stack.temporal.address)
        workdir = stack.root / "jobs"
        workdir.mkdir()
        workdir.chmod(0o755)
        quiet, crashy = workdir / "quiet.sh", workdir / "crashy.sh"
        quiet.write_text(QUIET_STEP)
        crashy.write_text(IDLE_STEP)
        jobs: list[Job] = []

        def add(count: int, crashers: int) -> None:
            for index in range(count):
                if index < crashers:
                    trigger = workdir / f"trigger-{len(jobs)}"
                    job_id = submit(stack, workdir, "scale-crash", crashy, trigger)
                    jobs.append(Job(job_id, trigger))
                else:
                    jobs.append(Job(submit(stack, workdir, "scale-quiet", quiet, None), None))

        add(args.baseline, 0)
        ok, took = await wait_watched(client, stack, [j.job_id for j in jobs], args.start_timeout)
        report["baseline_started"] = {"ok": ok, "seconds": round(took, 1)}
        await asyncio.sleep(args.settle)
        report["baseline"] = await window(client, stack, [j.job_id for j in jobs], args.window)
        print(json.dumps(report["baseline"]), file=sys.stderr)
        submitted_at = time.monotonic()
        rpcs_before = sdiag_rpcs(stack)
        children = ChildSampler(stack.worker.pid if stack.worker else 0).start()
        add(args.jobs - args.baseline, args.crashes)
        report["submit_seconds"] = round(time.monotonic() - submitted_at, 1)
        ok, took = await wait_watched(client, stack, [j.job_id for j in jobs], args.start_timeout)
        report["enrolment"] = await enrolment(stack, children, rpcs_before, submitted_at)
        running = states(stack)
        report["at_scale_started"] = {
            "ok": ok,
            "seconds": round(took, 1),
            "running": sum(1 for j in jobs if running.get(j.job_id, ("",))[0] == "RUNNING"),
        }
        await asyncio.sleep(args.settle)
        report["at_scale"] = await window(client, stack, [j.job_id for j in jobs], args.window)
        print(json.dumps(report["at_scale"]), file=sys.stderr)
        base, scale = report["baseline"], report["at_scale"]
        report["slurmctld_rpc_ratio"] = round(
            scale["slurmctld_rpm"] / max(base["slurmctld_rpm"], 0.1), 2
        )
        crashers = [j for j in jobs if j.trigger is not None]
        report["crash_under_load"] = await crashes(stack, workdir, crashers, rng)
        report["crash_under_load"]["breakdown_p50_s"] = await breakdown(client, stack, crashers)
        report["worker_alive"] = stack.worker is not None and stack.worker.poll() is None
    report["targets"] = TARGETS
    return report


async def run_simulated(args: argparse.Namespace) -> dict[str, Any]:
    """The same measures on the simulated cluster (bench/simslurm): jobs cost no host memory,
    so N can be 1,000 on this machine; slurmctld's cost is counted (RPCs), not modelled."""
    rng = random.Random(args.seed)
    report: dict[str, Any] = {
        "target_jobs": args.jobs,
        "host_cpus": os.cpu_count(),
        "cluster": "simulated (bench/simslurm)",
    }
    with sim_stack_running(
        args.keep,
        worker_overrides={"AJR_SLURM_POLL_INTERVAL": "2.0", "AJR_LOG_POLL_INTERVAL": "0.5"},
    ) as stack:
        client = await Client.connect(stack.temporal.address)
        jobs: list[Job] = []

        def add(count: int, name: str) -> None:
            ids = stack.control({"control": "submit", "count": count, "name": name})["ids"]
            jobs.extend(Job(int(job_id), None) for job_id in ids)

        add(args.baseline, "scale-quiet")
        ok, took = await wait_watched(client, stack, [j.job_id for j in jobs], args.start_timeout)
        report["baseline_started"] = {"ok": ok, "seconds": round(took, 1)}
        await asyncio.sleep(args.settle)
        report["baseline"] = await window(client, stack, [j.job_id for j in jobs], args.window)
        print(json.dumps(report["baseline"]), file=sys.stderr)
        submitted_at = time.monotonic()
        rpcs_before = sdiag_rpcs(stack)
        children = ChildSampler(stack.worker.pid if stack.worker else 0).start()
        add(args.jobs - args.baseline, "scale-quiet")
        ok, took = await wait_watched(client, stack, [j.job_id for j in jobs], args.start_timeout)
        report["enrolment"] = await enrolment(stack, children, rpcs_before, submitted_at)
        report["at_scale_started"] = {"ok": ok, "seconds": round(took, 1), "running": len(jobs)}
        print(json.dumps(report["enrolment"]), file=sys.stderr)
        report["enrolment_settled"] = await wait_settled(
            client, stack.cluster_name, [j.job_id for j in jobs], args.start_timeout
        )
        report["enrolment_settled"]["since_submit_s"] = round(time.monotonic() - submitted_at, 1)
        print(json.dumps(report["enrolment_settled"]), file=sys.stderr)
        await asyncio.sleep(args.settle)
        report["at_scale"] = await window(client, stack, [j.job_id for j in jobs], args.window)
        print(json.dumps(report["at_scale"]), file=sys.stderr)
        base, scale = report["baseline"], report["at_scale"]
        report["slurmctld_rpc_ratio"] = round(
            scale["slurmctld_rpm"] / max(base["slurmctld_rpm"], 0.1), 2
        )
        crashers = rng.sample(jobs[args.baseline :], args.crashes)
        report["crash_under_load"] = await sim_crashes(stack, crashers, rng)
        report["crash_under_load"]["breakdown_p50_s"] = await breakdown(client, stack, crashers)
        report["worker_alive"] = stack.worker is not None and stack.worker.poll() is None
    report["targets"] = TARGETS
    return report


async def sim_crashes(stack: SimStack, crashers: list[Job], rng: random.Random) -> dict[str, Any]:
    """Crash lines at random moments over 20 s; crash line -> requeuehold received by the
    simulated controller (restart count 1), and -> released, from the controller's own clock."""
    schedule = sorted((rng.uniform(0, 20), job.job_id) for job in crashers)
    by_id = {job.job_id: job for job in crashers}
    began = time.monotonic()
    for at, job_id in schedule:
        await asyncio.sleep(max(0.0, at - (time.monotonic() - began)))
        by_id[job_id].crash_written_at = stack.control({"control": "crash", "job_id": job_id})["at"]
    deadline = time.monotonic() + 120
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen = stack.control({"control": "jobs"})["jobs"]
        if all(seen[str(job.job_id)]["released_at"] for job in crashers):
            break
        await asyncio.sleep(1.0)
    held, released = [], []
    for job in crashers:
        view = seen[str(job.job_id)]
        if view["requeued_at"]:
            held.append(view["requeued_at"][0] - view["crashed_at"])
            job.held_at = view["requeued_at"][0]
        if view["released_at"]:
            released.append(view["released_at"][0] - view["crashed_at"])
    return {
        "crashes": len(crashers),
        "timed": len(held),
        "not_requeued": [job.job_id for job in crashers if job.held_at is None],
        "crash_to_held_p50_s": round(percentile(held, 50), 2),
        "crash_to_held_p99_s": round(percentile(held, 99), 2),
        "crash_to_held_max_s": round(max(held), 2) if held else None,
        "crash_to_released_p50_s": round(percentile(released, 50), 2),
        "crash_to_released_p99_s": round(percentile(released, 99), 2),
    }


TARGETS = {
    "worker_cpu_pct": 20,
    "worker_rss_mb": 1024,
    "slurmctld_rpc_ratio": 1.1,
    "history_events_per_job_hour": 1,
    "crash_to_held_p99_s": 1.0,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--baseline", type=int, default=10)
    parser.add_argument("--crashes", type=int, default=20)
    parser.add_argument("--window", type=float, default=120.0)
    parser.add_argument("--settle", type=float, default=30.0)
    parser.add_argument("--start-timeout", type=float, default=900.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="CI: 20 jobs, 10 s windows, 3 crashes")
    parser.add_argument(
        "--simulated",
        action="store_true",
        help="the simulated cluster (bench/simslurm) behind the same Slurm commands",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.jobs, args.baseline, args.crashes, args.window, args.settle = 20, 10, 3, 10.0, 3.0
    if args.jobs < args.baseline + args.crashes:
        parser.error("--jobs must be at least --baseline + --crashes")
    report = asyncio.run(run_simulated(args) if args.simulated else run(args))
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
