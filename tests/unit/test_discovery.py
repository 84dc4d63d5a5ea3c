"""Discovery: one job's surprise never stops the round; every other job is still enrolled."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.service import RPCError, RPCStatusCode

from activities.slurm.poller import ClusterSnapshot
from models.recovery import RecoveryConfig
from models.slurm import JobState, SlurmJob
from tests.fakes import FakePoller
from worker import discovery
from worker.discovery import Discoverer, DiscoveryPolicy

pytestmark = pytest.mark.unit

APS = '{"APS": {"max_requeue_times": 2}}'


class FakeClient:
    """Temporal's client at the boundary: records starts, refuses the jobs it is told to."""

    def __init__(self, refuse: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        self.started: dict[int, Any] = {}
        self.refuse = refuse

    async def start_workflow(self, _run: Any, arg: Any, **kwargs: Any) -> None:
        if arg.job_id in self.refuse and not arg.not_managed_reason:
            raise ValueError("payload refused")
        self.started[arg.job_id] = arg


def snapshot(*jobs: SlurmJob) -> ClusterSnapshot:
    return ClusterSnapshot(1, time.time(), {job.job_id: job for job in jobs})


def job(job_id: int, comment: str = APS) -> SlurmJob:
    return SlurmJob(job_id=job_id, name=f"j{job_id}", state=JobState.PENDING, comment=comment)


def discoverer(client: FakeClient) -> Discoverer:
    policy = DiscoveryPolicy(cluster="c", config=RecoveryConfig())
    return Discoverer(FakePoller(), client, policy, "q")  # type: ignore[arg-type]


async def test_a_pathological_comment_is_not_managed_and_the_next_job_is_enrolled() -> None:
    client = FakeClient()
    d = discoverer(client)
    await d.discover(snapshot(job(1, '{"APS": ' + "[" * 1016), job(2)))
    assert client.started[1].not_managed_reason.startswith("invalid APS comment")
    assert client.started[2].not_managed_reason == ""


async def test_an_unexpected_failure_on_one_job_marks_it_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = discovery.plan_enrolment

    def plan(job: SlurmJob, policy: DiscoveryPolicy) -> Any:
        if job.job_id == 1:
            raise RecursionError("surprise")
        return real(job, policy)

    monkeypatch.setattr(discovery, "plan_enrolment", plan)
    client = FakeClient(refuse={3})
    d = discoverer(client)
    await d.discover(snapshot(job(1), job(2), job(3)))
    assert "could not read it" in client.started[1].not_managed_reason
    assert client.started[2].not_managed_reason == ""
    assert "could not start its workflow" in client.started[3].not_managed_reason


class SlowClient(FakeClient):
    """Each start takes a while; counts how many are in flight at once."""

    def __init__(self, fail: dict[int, Exception] | None = None) -> None:
        super().__init__()
        self.fail = fail or {}
        self.in_flight = 0
        self.peak = 0
        self.calls: list[int] = []

    async def start_workflow(self, _run: Any, arg: Any, **kwargs: Any) -> None:
        self.calls.append(arg.job_id)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(0.01)
            error = self.fail.get(arg.job_id)
            if error is not None and not arg.not_managed_reason:
                raise error
            self.started[arg.job_id] = arg
        finally:
            self.in_flight -= 1


def concurrent_discoverer(client: FakeClient, concurrency: int) -> Discoverer:
    policy = DiscoveryPolicy(cluster="c", config=RecoveryConfig())
    return Discoverer(FakePoller(), client, policy, "q", concurrency=concurrency)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("concurrency", "jobs", "peak"),
    [(1, 5, 1), (3, 10, 3), (16, 4, 4), (16, 40, 16)],
)
async def test_starts_run_concurrently_up_to_the_bound(
    concurrency: int, jobs: int, peak: int
) -> None:
    client = SlowClient()
    d = concurrent_discoverer(client, concurrency)
    await d.discover(snapshot(*(job(i) for i in range(1, jobs + 1))))
    assert client.peak == peak
    assert sorted(client.started) == list(range(1, jobs + 1))
    assert d.stats.enrolled == jobs


RPC_DOWN = RPCError("unavailable", RPCStatusCode.UNAVAILABLE, b"")


@pytest.mark.parametrize(
    ("failure", "recorded", "retried_next_round"),
    [
        (None, "managed", False),
        (RPC_DOWN, None, True),  # Temporal unreachable: nothing recorded, retried
        (ValueError("payload refused"), "not managed", False),
        (WorkflowAlreadyStartedError("wf", "JobRecovery"), None, False),  # started elsewhere
    ],
)
async def test_each_jobs_outcome_under_concurrency(
    failure: Exception | None, recorded: str | None, retried_next_round: bool
) -> None:
    """Job 5 meets `failure`; the nine others are enrolled in the same round whatever it is."""
    client = SlowClient(fail={5: failure} if failure else {})
    d = concurrent_discoverer(client, 4)
    jobs = [job(i) for i in range(1, 11)] + [job(11, comment="")]  # 11 did not opt in
    await d.discover(snapshot(*jobs))
    assert set(client.started) - {5} == set(range(1, 11)) - {5}
    if recorded is None:
        assert 5 not in client.started
    else:
        assert (client.started[5].not_managed_reason == "") == (recorded == "managed")
    client.calls.clear()
    await d.discover(snapshot(*jobs))  # the next round: only what must be retried
    assert client.calls == ([5] if retried_next_round else [])


async def test_a_surprise_escaping_one_job_does_not_stop_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = SlowClient()
    d = concurrent_discoverer(client, 2)
    real = d._discover_one

    async def one(j: SlurmJob) -> None:
        if j.job_id == 2:
            raise RuntimeError("surprise")
        await real(j)

    monkeypatch.setattr(d, "_discover_one", one)
    await d.discover(snapshot(*(job(i) for i in range(1, 6))))
    assert sorted(client.started) == [1, 3, 4, 5]
    monkeypatch.setattr(d, "_discover_one", real)
    await d.discover(snapshot(*(job(i) for i in range(1, 6))))  # not marked seen: retried
    assert sorted(client.started) == [1, 2, 3, 4, 5]


async def test_jobs_that_left_the_snapshot_are_forgotten() -> None:
    client = SlowClient()
    d = concurrent_discoverer(client, 4)
    await d.discover(snapshot(job(1), job(2)))
    await d.discover(snapshot(job(2)))
    client.calls.clear()
    await d.discover(snapshot(job(1), job(2)))  # 1 came back (same id): asked again
    assert client.calls == [1]
