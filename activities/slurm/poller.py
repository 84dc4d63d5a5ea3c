"""One cluster-wide `squeue` per poll interval, shared by every job a worker watches.

slurmctld's load must not grow with the number of managed jobs, so no activity queries Slurm
per job while it watches: they all read the latest snapshot taken here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from activities import telemetry
from activities.slurm.parse import ParseError, jobs_from_squeue_json
from activities.slurm.runner import SlurmError, SlurmRunner
from models.slurm import SlurmJob

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClusterSnapshot:
    sequence: int
    taken_at: float  # epoch seconds
    jobs: dict[int, SlurmJob] = field(default_factory=dict)
    error: str = ""  # set when this poll failed; `jobs` then holds the last good poll

    @property
    def ok(self) -> bool:
        return not self.error


class ClusterPoller:
    def __init__(self, runner: SlurmRunner, interval: float) -> None:
        self._runner = runner
        self._interval = interval
        self._snapshot = ClusterSnapshot(sequence=0, taken_at=0.0, error="no poll yet")
        self._changed = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None
        self._answer = ""  # the last good poll's squeue output, to skip parsing it again
        self.polls = 0
        self.parsed = 0

    @property
    def latest(self) -> ClusterSnapshot:
        return self._snapshot

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="ajr-poller")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def poll_once(self) -> ClusterSnapshot:
        self.polls += 1
        previous = self._snapshot
        try:
            # One at a time by construction: not queued behind the activities' commands.
            result = await self._runner.run("squeue", "--json", "--states=all", bounded=False)
            if previous.ok and result.stdout == self._answer:
                # The same bytes as last time (nothing changed): the same jobs. At 1,000 jobs
                # the ~3 MB answer's parse was the worker's largest cost when nothing happened.
                jobs = previous.jobs
            else:
                jobs = {job.job_id: job for job in jobs_from_squeue_json(result.stdout)}
                self.parsed += 1
                self._answer = result.stdout
            snapshot = ClusterSnapshot(previous.sequence + 1, time.time(), jobs)
            telemetry.slurm_answered()
        except (SlurmError, ParseError) as exc:
            if isinstance(exc, ParseError):  # exit 0 but no answer (squeue's `errors` entry)
                telemetry.SLURM_ERRORS.add(
                    1, {"program": "squeue", "command": "", "kind": "no_answer"}
                )
            if previous.ok or previous.sequence == 0:  # the first failure, or no answer yet
                log.warning("cluster poll failed: %s", exc)
            snapshot = ClusterSnapshot(previous.sequence + 1, time.time(), previous.jobs, str(exc))
        async with self._changed:
            self._snapshot = snapshot
            self._changed.notify_all()
        return snapshot

    async def _run(self) -> None:
        while True:
            started = time.monotonic()
            await self.poll_once()
            await asyncio.sleep(max(0.0, self._interval - (time.monotonic() - started)))

    async def wait_newer(self, sequence: int, timeout: float | None = None) -> ClusterSnapshot:
        """The first snapshot after `sequence` (or the latest one when `timeout` passes)."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._changed.wait_for(lambda: self._snapshot.sequence > sequence), timeout
                )
            return self._snapshot

    async def snapshots(self) -> AsyncIterator[ClusterSnapshot]:
        sequence = 0
        while True:
            snapshot = await self.wait_newer(sequence)
            sequence = snapshot.sequence
            yield snapshot
