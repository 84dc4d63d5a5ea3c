"""The attempt watcher resumes from its heartbeated log cursor after a worker dies.

Boundary stub: a fixed cluster snapshot instead of slurmctld. The log file, the scanner and
the analyzer are real.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest
from temporalio.testing import ActivityEnvironment

from activities.logs.signatures import SignatureAnalyzer
from activities.slurm.control import SlurmControl
from activities.slurm.poller import ClusterPoller, ClusterSnapshot
from activities.slurm.runner import SlurmRunner
from activities.watch import WatchActivities
from models.recovery import LogCursor, Observed, RecoveryConfig, WatchRequest
from models.slurm import JobState, SlurmJob

pytestmark = pytest.mark.unit


class FixedPoller(ClusterPoller):
    def __init__(self, job: SlurmJob) -> None:
        super().__init__(SlurmRunner(), interval=1.0)
        self._snapshot = ClusterSnapshot(sequence=1, taken_at=time.time(), jobs={job.job_id: job})


def running_job(tmp_path: Path) -> tuple[SlurmJob, Path, int]:
    started = time.time() - 10
    stamp = time.strftime("date_%y-%m-%d_time_%H-%M-%S", time.localtime(started + 1))
    log = tmp_path / f"train_7_{stamp}.log"
    head = "0: iteration 1\n0: Saved checkpoint to /ckpt/1\n0: Segmentation fault (core dumped)\n"
    log.write_text(head + "0: iteration 2 after a DataLoader worker restart\n")
    job = SlurmJob(
        job_id=7,
        name="train",
        state=JobState.RUNNING,
        nodes=("node1",),
        start_time=started,
        work_dir=str(tmp_path),
        stdout_path=str(tmp_path / "slurm-7.out"),
    )
    return job, log, len(head.encode())


def request(tmp_path: Path) -> WatchRequest:
    config = RecoveryConfig(hang_timeout_s=0.5, checkpoint_patterns=["Saved checkpoint to"])
    return WatchRequest(cluster="c", job_id=7, attempt=0, config=config)


def watcher(job: SlurmJob) -> WatchActivities:
    return WatchActivities(
        FixedPoller(job), SlurmControl(SlurmRunner()), SignatureAnalyzer, poll_interval=0.05
    )


async def test_fresh_watch_reads_from_the_top(tmp_path: Path) -> None:
    job, log, _ = running_job(tmp_path)
    observation = await ActivityEnvironment().run(watcher(job).watch_attempt, request(tmp_path))
    assert observation.kind is Observed.CRASH
    assert observation.cursor.path == str(log) and observation.cursor.checkpoints == 1


async def test_resumed_watch_continues_from_the_heartbeated_offset(tmp_path: Path) -> None:
    job, log, offset = running_job(tmp_path)
    beats: list[object] = []
    env = ActivityEnvironment()
    env.on_heartbeat = lambda *details: beats.append(details[0])
    # What the dead worker last heartbeated: the crash line was already reported and acted on.
    cursor = LogCursor(
        path=str(log),
        offset=offset,
        lines=3,
        checkpoints=1,
        last_line_at=time.time(),
        running_since=job.start_time,
    )
    env.info = dataclasses.replace(env.info, heartbeat_details=[dataclasses.asdict(cursor)])
    req = request(tmp_path)
    req.ignore = []
    observation = await env.run(watcher(job).watch_attempt, req)
    # Not the old crash line again: only the new line was read, then silence -> HANG.
    assert observation.kind is Observed.HANG
    assert observation.cursor.offset == log.stat().st_size
    assert observation.cursor.lines == 4
    assert observation.cursor.checkpoints == 1  # carried over, not counted twice
    assert beats, "the watcher heartbeats its cursor"
