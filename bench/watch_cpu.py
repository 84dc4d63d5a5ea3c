"""The watch activities' own CPU without Temporal or Slurm: N watches of N quiet logs.

Each job's log gets one iteration line every `--line-every` seconds (at random phases); the
watches run the production code (`WatchActivities.watch_attempt`, the engine analyzer, the
shared log reader) under Temporal's `ActivityEnvironment` (heartbeats go to a callback: their
encoding and the SDK's share are not here), with a snapshot that always lists the jobs RUNNING.
Prints the process's CPU over the window (utime + stime, % of one core), and with `--profile`
the top of a cProfile of the window.

    PYTHONPATH=. .venv/bin/python bench/watch_cpu.py --jobs 1000 --window 30
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import random
import tempfile
import time
from pathlib import Path
from typing import cast

from temporalio.testing import ActivityEnvironment

from activities.slurm.client import SlurmClient
from activities.slurm.poller import ClusterPoller, ClusterSnapshot
from activities.slurm.runner import SlurmRunner
from activities.watch import WatchActivities
from analysis.analyzer import AnalyzerContext, LogAnalyzer
from analysis.engine import LogEngine
from models.recovery import RecoveryConfig, WatchRequest
from models.slurm import JobState, SlurmJob

LINE = "iteration {i}/1000000 | elapsed time per iteration (ms): 30000.0 | lm loss: 2.0\n"


def engine(context: AnalyzerContext) -> LogAnalyzer:
    return LogEngine(context)


class Snapshot(ClusterPoller):
    def __init__(self, jobs: list[SlurmJob]) -> None:
        super().__init__(SlurmRunner(), interval=2.0)
        self._snapshot = ClusterSnapshot(1, time.time(), {job.job_id: job for job in jobs})


async def run(args: argparse.Namespace) -> dict[str, float | int]:
    root = Path(tempfile.mkdtemp(prefix="ajr-watchcpu-"))
    started = time.time() - 5
    stamp = time.strftime("date_%y-%m-%d_time_%H-%M-%S", time.localtime(started + 1))
    jobs, logs = [], []
    for job_id in range(1, args.jobs + 1):
        log = root / f"quiet_{job_id}_{stamp}.log"
        log.write_text(LINE.format(i=0))
        logs.append(log)
        jobs.append(
            SlurmJob(
                job_id=job_id,
                name="quiet",
                state=JobState.RUNNING,
                nodes=("node1",),
                start_time=started,
                work_dir=str(root),
                stdout_path=str(root / f"slurm-{job_id}.out"),
                user_id=os.getuid(),
                group_id=os.getgid(),
            )
        )
    # Nothing asks slurmctld in this window: the snapshot lists every job RUNNING, no log ends.
    control = cast(SlurmClient, object())
    watch = WatchActivities(Snapshot(jobs), control, engine, poll_interval=args.poll)
    config = RecoveryConfig()
    beats = [0]

    def beat(*_: object) -> None:
        beats[0] += 1

    tasks = []
    for job in jobs:
        env = ActivityEnvironment()
        env.on_heartbeat = beat
        request = WatchRequest(cluster="c", job_id=job.job_id, attempt=0, config=config)
        tasks.append(asyncio.create_task(env.run(watch.watch_attempt, request)))
        await asyncio.sleep(random.uniform(0, args.poll / args.jobs))

    async def writer() -> None:
        due = [time.monotonic() + random.uniform(0, args.line_every) for _ in logs]
        i = 0
        while True:
            i += 1
            now = time.monotonic()
            for n, log in enumerate(logs):
                if due[n] <= now:
                    with log.open("a") as out:
                        out.write(LINE.format(i=i))
                    due[n] = now + args.line_every
            await asyncio.sleep(0.1)

    lines = asyncio.create_task(writer())
    await asyncio.sleep(args.settle)
    profile = cProfile.Profile() if args.profile else None
    before, wall, beats0 = os.times(), time.monotonic(), beats[0]
    if profile:
        profile.enable()
    await asyncio.sleep(args.window)
    if profile:
        profile.disable()
    after, wall = os.times(), time.monotonic() - wall
    cpu = (after.user - before.user) + (after.system - before.system)
    for task in [*tasks, lines]:
        task.cancel()
    await asyncio.gather(*tasks, lines, return_exceptions=True)
    report: dict[str, float | int] = {
        "jobs": args.jobs,
        "window_s": round(wall, 1),
        "cpu_pct": round(100 * cpu / wall, 1),
        "user_s": round(after.user - before.user, 2),
        "system_s": round(after.system - before.system, 2),
        "heartbeats_per_s": round((beats[0] - beats0) / wall, 1),
        # (absent before the shared reader: run against an older checkout for a comparison)
        "reader_batches": getattr(getattr(watch, "_reader", None), "batches", -1),
        "reader_reads": getattr(getattr(watch, "_reader", None), "reads", -1),
        "load_avg_1m": os.getloadavg()[0],
    }
    if profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--poll", type=float, default=0.5)
    parser.add_argument("--line-every", type=float, default=30.0)
    parser.add_argument("--settle", type=float, default=10.0)
    parser.add_argument("--window", type=float, default=30.0)
    parser.add_argument("--profile", action="store_true")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
