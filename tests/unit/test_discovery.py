"""Discovery: one job's surprise never stops the round; every other job is still enrolled."""

from __future__ import annotations

import time
from typing import Any

import pytest

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
