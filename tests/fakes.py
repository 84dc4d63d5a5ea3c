"""Fakes at the Slurm boundary for unit tests: no unit test may reach a real `squeue`."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable
from typing import Any

from activities.slurm.control import SlurmControl
from activities.slurm.poller import ClusterPoller, ClusterSnapshot
from activities.slurm.runner import CommandResult, SlurmError, SlurmRunner
from models.engine_settings import EngineSettings
from models.slurm import SlurmJob


class NoSlurmRunner(SlurmRunner):
    """A runner that refuses to run anything: a fake that forgot a method fails loudly."""

    async def run(self, program: str, *args: str, check: bool = True) -> CommandResult:
        raise AssertionError(f"a unit test tried to run {program} {' '.join(args)}")


class FakeSlurmControl(SlurmControl):
    """slurmctld as a dict of jobs; `reachable = False` makes every call fail like an outage."""

    def __init__(self, jobs: Iterable[SlurmJob] = ()) -> None:
        super().__init__(NoSlurmRunner())
        self.jobs = {job.job_id: job for job in jobs}
        self.reachable = True
        self.calls: list[str] = []

    def _answer(self, what: str) -> None:
        self.calls.append(what)
        if not self.reachable:
            raise SlurmError(f"{what}: Socket timed out on send/recv operation", unavailable=True)

    async def show_job(self, job_id: int) -> SlurmJob | None:
        self._answer("show_job")
        return self.jobs.get(job_id)

    async def job_known(self, job_id: int) -> bool:
        self._answer("job_known")
        return job_id in self.jobs

    async def job_paths(self, job_id: int) -> tuple[str, str]:
        self._answer("job_paths")
        job = self.jobs.get(job_id)
        return (job.stdout_path, job.work_dir) if job else ("", "")

    async def partition_nodes(self, partition: str) -> dict[str, str]:
        self._answer("partition_nodes")
        return {}


class FakePoller(ClusterPoller):
    """The shared cluster snapshot, set by the test: `publish(jobs)` or `fail(error)`."""

    def __init__(self, jobs: Iterable[SlurmJob] = ()) -> None:
        super().__init__(NoSlurmRunner(), interval=1.0)
        self.publish(jobs)

    def publish(self, jobs: Iterable[SlurmJob]) -> None:
        self._snapshot = ClusterSnapshot(
            self._snapshot.sequence + 1, time.time(), {job.job_id: job for job in jobs}
        )

    def fail(self, error: str = "Socket timed out on send/recv operation") -> None:
        previous = self._snapshot
        self._snapshot = ClusterSnapshot(previous.sequence + 1, time.time(), previous.jobs, error)


_OLD_NAMES = {
    "tflops_warmup": "throughput_warmup",
    "tflops_window": "throughput_window",
    "tflops_drop": "throughput_drop",
    "tflops_sustained": "throughput_sustained",
    "tflops_quiet": "throughput_quiet",
}


def engine_settings(**knobs: object) -> EngineSettings:
    """EngineSettings from test-friendly keyword values ("30" or 30), the old knob names too."""
    fields = {f.name: f.type for f in dataclasses.fields(EngineSettings)}
    values: dict[str, Any] = {}
    for key, value in knobs.items():
        name = _OLD_NAMES.get(key, key)
        default = getattr(EngineSettings(), name)
        if isinstance(default, tuple):
            values[name] = tuple(value)  # type: ignore[call-overload]
        elif isinstance(default, int):
            values[name] = int(float(value))  # type: ignore[arg-type]
        else:
            values[name] = float(value)  # type: ignore[arg-type]
    assert set(values) <= set(fields), set(values) - set(fields)
    return EngineSettings(**values)
