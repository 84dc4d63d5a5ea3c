"""Fakes at the Slurm boundary for unit tests: no unit test may reach a real `squeue`.

`FakeSlurm` is a `SlurmClient` (activities/slurm/client.py) that models what ajr relies on:
job states, holds, restart counts, exclusions and the partition's nodes, with the answers real
slurmctld gives (tests/integration checks the real ones). Failures are injected per method.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import Any

from activities.slurm.poller import ClusterPoller, ClusterSnapshot
from activities.slurm.runner import CommandResult, SlurmError, SlurmRunner
from models.engine_settings import EngineSettings
from models.slurm import JobState, SlurmJob

OK = CommandResult(0, "", "")
HELD_BY_REQUEUE = "job_requeued_in_held_state"


class NoSlurmRunner(SlurmRunner):
    """A runner that refuses to run anything: a fake that forgot a method fails loudly."""

    async def run(
        self, program: str, *args: str, check: bool = True, bounded: bool = True
    ) -> CommandResult:
        raise AssertionError(f"a unit test tried to run {program} {' '.join(args)}")


def unreachable(what: str) -> SlurmError:
    return SlurmError(f"{what}: Socket timed out on send/recv operation", unavailable=True)


@dataclasses.dataclass
class Injected:
    """What the next call(s) of one method do instead of their work."""

    times: int = 1
    error: Exception | None = None  # raised
    result: CommandResult | None = None  # returned, and nothing changes in Slurm


class FakeSlurm:
    """slurmctld as a dict of jobs; `reachable = False` makes every call fail like an outage."""

    def __init__(
        self, jobs: Iterable[SlurmJob] = (), nodes: Iterable[str] = ("node1", "node2", "node3")
    ) -> None:
        self.jobs = {job.job_id: job for job in jobs}
        self.nodes = dict.fromkeys(nodes, "IDLE")
        self.reachable = True
        self.calls: list[str] = []
        self._injected: dict[str, list[Injected]] = {}
        # Called after a method has done its work: lets a test move the world meanwhile.
        self.after: dict[str, Callable[[FakeSlurm], None]] = {}

    # --- test controls ------------------------------------------------------------------------

    def inject(self, method: str, injected: Injected) -> None:
        self._injected.setdefault(method, []).append(injected)

    def fail(self, method: str, times: int = 1, error: Exception | None = None) -> None:
        """The next `times` calls of `method` raise (by default: slurmctld does not answer)."""
        self.inject(method, Injected(times, error=error or unreachable(method)))

    def ignore(self, method: str, times: int = 1, stderr: str = "") -> None:
        """The next `times` calls of `method` answer but change nothing (`stderr`: rc 1)."""
        self.inject(method, Injected(times, result=CommandResult(1 if stderr else 0, "", stderr)))

    def count(self, method: str) -> int:
        return self.calls.count(method)

    def update(self, job_id: int, **changes: object) -> SlurmJob:
        job = dataclasses.replace(self.jobs[job_id], **changes)  # type: ignore[arg-type]
        self.jobs[job_id] = job
        return job

    def _answer(self, what: str) -> CommandResult | None:
        self.calls.append(what)
        if not self.reachable:
            raise unreachable(what)
        queue = self._injected.get(what)
        if not queue:
            return None
        injected = queue[0]
        injected.times -= 1
        if injected.times <= 0:
            queue.pop(0)
        if injected.error is not None:
            raise injected.error
        return injected.result

    def _done(self, what: str, result: CommandResult = OK) -> CommandResult:
        hook = self.after.get(what)
        if hook is not None:
            hook(self)
        return result

    # --- SlurmClient ----------------------------------------------------------------------------

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

    async def requeue_hold(self, job_id: int) -> CommandResult:
        injected = self._answer("requeue_hold")
        if injected is not None:
            return injected
        job = self.jobs.get(job_id)
        if job is None:
            return CommandResult(1, "", "Invalid job id specified")
        if not job.requeue:
            return CommandResult(1, "", f"Requeue of JobId={job_id} disabled")
        if job.state is JobState.PENDING:
            return CommandResult(1, "", "Job is pending execution")
        # Slurm kills a running attempt, counts a restart and keeps the job pending, held.
        self.update(
            job_id,
            state=JobState.PENDING,
            restart_count=job.restart_count + 1,
            priority=0,
            state_reason=HELD_BY_REQUEUE,
            nodes=(),
        )
        return self._done("requeue_hold")

    async def release(self, job_id: int) -> CommandResult:
        injected = self._answer("release")
        if injected is not None:
            return injected
        job = self.jobs.get(job_id)
        if job is None:
            return CommandResult(1, "", "Invalid job id specified")
        if job.held:
            self.update(job_id, priority=1, state_reason="None")
        return self._done("release")

    async def make_requeueable(self, job_id: int) -> CommandResult:
        injected = self._answer("make_requeueable")
        if injected is not None:
            return injected
        self.update(job_id, requeue=True)
        return self._done("make_requeueable")

    async def set_exclusions_and_start_now(
        self, job_id: int, nodes: list[str], delay_s: int = 0
    ) -> CommandResult:
        injected = self._answer("set_exclusions_and_start_now")
        if injected is not None:
            return injected
        unknown = [node for node in nodes if node not in self.nodes]
        if unknown:  # slurmctld refuses the whole update
            return CommandResult(1, "", "Invalid node name specified")
        self.update(job_id, excluded_nodes=tuple(sorted(nodes)))
        return self._done("set_exclusions_and_start_now")

    async def cancel(self, job_id: int) -> CommandResult:
        injected = self._answer("cancel")
        if injected is not None:
            return injected
        job = self.jobs.get(job_id)
        if job is not None and job.state.is_active:
            self.update(job_id, state=JobState.CANCELLED)
        return self._done("cancel")

    async def partition_nodes(self, partition: str) -> dict[str, str]:
        self._answer("partition_nodes")
        return dict(self.nodes)


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
