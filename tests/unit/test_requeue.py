"""The requeue state machine: every step's failure, and the retry that finishes the job once.

Runs the real activities in Temporal's ActivityEnvironment against FakeSlurm (tests/fakes.py), a
model of slurmctld's job states, holds and restart counts. The same sequence runs on real Slurm
in tests/integration (a worker SIGKILLed between requeuehold and release, among others).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities import actions as actions_module
from activities.actions import SlurmActions
from activities.slurm.runner import CommandResult
from models.errors import ErrorType
from models.recovery import (
    CancelRequest,
    PrepareRequest,
    RequeueRequest,
    RequeueResult,
)
from models.slurm import JobState, SlurmJob
from tests.fakes import FakePoller, FakeSlurm, Injected, unreachable

pytestmark = pytest.mark.unit

JOB = SlurmJob(
    job_id=7,
    name="train",
    state=JobState.RUNNING,
    partition="gpu",
    nodes=("node1",),
    node_count=1,
    excluded_nodes=("node3",),  # the user's own exclusion
)


@pytest.fixture(autouse=True)
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real waits shrunk to test speed; what is waited for is unchanged."""

    async def no_wait(_pending_seen_at: float) -> None:
        return None

    monkeypatch.setattr(actions_module, "_past_credential_revocation", no_wait)
    monkeypatch.setattr(actions_module, "STEP_POLL_S", 0.01)
    monkeypatch.setattr(actions_module, "RELEASE_AGAIN_AFTER_S", 0.01)
    monkeypatch.setattr(actions_module, "REQUEUE_SETTLE_TIMEOUT_S", 0.2)


def request(**changes: Any) -> RequeueRequest:
    values: dict[str, Any] = {
        "cluster": "c",
        "job_id": 7,
        "attempt": 0,
        "exclude_nodes": ["node1"],
        "release_timeout_s": 0.2,
        "live": True,
    }
    return RequeueRequest(**{**values, **changes})


async def requeue(slurm: FakeSlurm, req: RequeueRequest | None = None) -> RequeueResult:
    result: RequeueResult = await ActivityEnvironment().run(
        SlurmActions(slurm).requeue_job, req or request()
    )
    return result


async def failing(call: Callable[[], Any]) -> ApplicationError:
    """The typed error a failing activity raised; its retryability is its type's own."""
    with pytest.raises(ApplicationError) as raised:
        await call()
    error = raised.value
    assert error.type in set(ErrorType), error
    assert error.non_retryable is not ErrorType(error.type).retryable, error
    return error


def requeued_once(slurm: FakeSlurm, excluded: tuple[str, ...] = ("node1", "node3")) -> None:
    job = slurm.jobs[7]
    assert job.restart_count == 1, "requeued exactly once"
    assert job.state is JobState.PENDING and not job.held, "released"
    assert job.excluded_nodes == excluded


async def test_requeue_holds_excludes_and_releases() -> None:
    slurm = FakeSlurm([JOB])
    result = await requeue(slurm)
    assert result.requeued and result.restart_count == 1
    assert result.steps == [
        "requeuehold: attempt 0 -> 1",
        "update: ExcNodeList=node1,node3, StartTime=now",
        "release",
    ]
    requeued_once(slurm)


@dataclass(frozen=True)
class StepFailure:
    method: str
    inject: Callable[[FakeSlurm], None]
    error: ErrorType
    held_meanwhile: bool  # the hold happened before the failure


STEP_FAILURES = {
    "slurmctld silent on the first read": StepFailure(
        "show_job", lambda s: s.fail("show_job"), ErrorType.SLURM_UNAVAILABLE, False
    ),
    "partition unreadable for the fit check": StepFailure(
        "partition_nodes", lambda s: s.fail("partition_nodes"), ErrorType.SLURM_UNAVAILABLE, False
    ),
    "requeuehold times out": StepFailure(
        "requeue_hold", lambda s: s.fail("requeue_hold"), ErrorType.SLURM_UNAVAILABLE, False
    ),
    "requeuehold answers but does not take": StepFailure(
        "requeue_hold", lambda s: s.ignore("requeue_hold"), ErrorType.STEP_NOT_VERIFIED, False
    ),
    "the exclusion update times out": StepFailure(
        "set_exclusions_and_start_now",
        lambda s: s.fail("set_exclusions_and_start_now"),
        ErrorType.SLURM_UNAVAILABLE,
        True,
    ),
    "release times out": StepFailure(
        "release", lambda s: s.fail("release"), ErrorType.SLURM_UNAVAILABLE, True
    ),
    "release does not take before the release timeout": StepFailure(
        "release", lambda s: s.ignore("release", times=1000), ErrorType.STEP_NOT_VERIFIED, True
    ),
}


@pytest.mark.parametrize("case", STEP_FAILURES.values(), ids=STEP_FAILURES.keys())
async def test_a_failed_step_is_retried_and_the_job_requeued_once(case: StepFailure) -> None:
    slurm = FakeSlurm([JOB])
    case.inject(slurm)
    error = await failing(lambda: requeue(slurm))
    assert error.type == case.error
    job = slurm.jobs[7]
    assert (job.restart_count == 1 and job.held) is case.held_meanwhile
    slurm.reachable = True
    slurm._injected.clear()  # the retry finds Slurm working again

    result = await requeue(slurm)  # Temporal's retry: the same request
    assert result.requeued
    if case.held_meanwhile:
        assert result.steps[0] == "requeuehold already done (restart count 1)"
    requeued_once(slurm)
    assert slurm.count("requeue_hold") == 1 + (case.method == "requeue_hold")


async def test_a_job_not_yet_pending_after_the_hold_is_not_verified_then_released() -> None:
    slurm = FakeSlurm([JOB])
    slurm.after["requeue_hold"] = lambda s: s.update(7, state=JobState.REQUEUED)
    error = await failing(lambda: requeue(slurm))
    assert error.type == ErrorType.STEP_NOT_VERIFIED and "pending after requeue" in str(error)
    slurm.update(7, state=JobState.PENDING)  # Slurm finished the requeue meanwhile
    assert (await requeue(slurm)).requeued
    requeued_once(slurm)


async def test_a_worker_that_died_after_the_release_is_not_released_again() -> None:
    slurm = FakeSlurm([JOB])
    await requeue(slurm)
    result = await requeue(slurm)  # a retry of a call whose result never reached Temporal
    assert result.requeued and result.steps[-1].startswith("already released")
    assert slurm.count("requeue_hold") == 1 and slurm.count("release") == 1


STOPS = {
    "slurmctld has no record of the job": (
        lambda: FakeSlurm(),
        request(),
        ErrorType.JOB_NOT_FOUND,
    ),
    "requeue disabled for the job": (
        lambda: FakeSlurm([SlurmJob(7, "t", JobState.FAILED, partition="gpu", requeue=False)]),
        request(live=False),
        ErrorType.REQUEUE_REFUSED,
    ),
    "an attempt Slurm has not reached": (
        lambda: FakeSlurm([JOB]),
        request(attempt=3),
        ErrorType.INVALID_REQUEST,
    ),
    "a node name that is no node name": (
        lambda: FakeSlurm([JOB]),
        request(exclude_nodes=["node1;rm -rf /"]),
        ErrorType.INVALID_REQUEST,
    ),
}


@pytest.mark.parametrize("make, req, expected", STOPS.values(), ids=STOPS.keys())
async def test_what_no_retry_can_change_stops_at_once(
    make: Callable[[], FakeSlurm], req: RequeueRequest, expected: ErrorType
) -> None:
    slurm = make()
    error = await failing(lambda: requeue(slurm, req))
    assert error.type == expected and error.non_retryable
    assert all(job.restart_count == 0 for job in slurm.jobs.values())


async def test_a_live_decision_on_an_attempt_that_ended_meanwhile_is_not_acted_on() -> None:
    slurm = FakeSlurm([JOB])
    slurm.update(7, state=JobState.CANCELLED)
    result = await requeue(slurm, request(live=True))
    assert not result.requeued and result.ended_state is JobState.CANCELLED
    assert slurm.count("requeue_hold") == 0


async def test_cancelled_while_held_is_left_cancelled() -> None:
    slurm = FakeSlurm([JOB])
    slurm.after["requeue_hold"] = lambda s: s.update(7, state=JobState.CANCELLED)
    result = await requeue(slurm)
    assert not result.requeued and result.ended_state is JobState.CANCELLED
    assert result.restart_count == 1 and slurm.count("release") == 0


async def test_exclusions_that_would_not_fit_are_refused_before_any_change() -> None:
    slurm = FakeSlurm([SlurmJob(7, "t", JobState.RUNNING, partition="gpu", node_count=3)])
    result = await requeue(slurm, request(exclude_nodes=["node2"]))
    assert not result.requeued and "leaves 2 usable node(s)" in result.refused
    assert slurm.count("requeue_hold") == 0


async def test_an_unknown_node_is_dropped_and_the_job_released() -> None:
    slurm = FakeSlurm([JOB])
    result = await requeue(slurm, request(exclude_nodes=["node1", "node9.example.com"]))
    assert "not excluded, unknown to Slurm: node9.example.com" in result.steps
    requeued_once(slurm)


async def test_an_exclusion_slurm_refuses_never_keeps_the_job_held() -> None:
    slurm = FakeSlurm([JOB])
    slurm.inject(
        "set_exclusions_and_start_now",
        Injected(result=CommandResult(1, "", "Invalid node name specified")),
    )
    result = await requeue(slurm)
    assert any(step.startswith("ExcNodeList refused for node1") for step in result.steps)
    requeued_once(slurm, excluded=("node3",))


async def test_prepare_makes_a_no_requeue_job_requeueable() -> None:
    slurm = FakeSlurm([SlurmJob(7, "t", JobState.PENDING, requeue=False)])
    env = ActivityEnvironment()
    result = await env.run(SlurmActions(slurm).prepare_job, PrepareRequest(job_id=7))
    assert result.made_requeueable and slurm.jobs[7].requeue
    slurm.ignore("make_requeueable")
    slurm.update(7, requeue=False)
    error = await failing(lambda: env.run(SlurmActions(slurm).prepare_job, PrepareRequest(7)))
    assert error.type == ErrorType.STEP_NOT_VERIFIED


@pytest.mark.parametrize(
    ("listed", "poll_failed", "reads_slurm", "made_requeueable"),
    [
        (None, False, True, False),  # not in the snapshot yet: asked of Slurm
        (SlurmJob(7, "t", JobState.PENDING, excluded_nodes=("node3",)), False, False, False),
        (SlurmJob(7, "t", JobState.PENDING, requeue=False), False, True, True),  # work to do
        (SlurmJob(7, "t", JobState.PENDING, excluded_nodes=("node3",)), True, True, False),
    ],
)
async def test_prepare_reads_slurm_only_when_the_snapshot_cannot_answer(
    listed: SlurmJob | None, poll_failed: bool, reads_slurm: bool, made_requeueable: bool
) -> None:
    slurm = FakeSlurm([SlurmJob(7, "t", JobState.PENDING, excluded_nodes=("node3",))])
    if listed is not None and not listed.requeue:
        slurm.update(7, requeue=False)
    poller = FakePoller([listed] if listed is not None else [])
    if poll_failed:
        poller.fail()
    result = await ActivityEnvironment().run(
        SlurmActions(slurm, poller).prepare_job, PrepareRequest(job_id=7)
    )
    assert (slurm.count("show_job") > 0) == reads_slurm
    assert result.made_requeueable == made_requeueable
    assert result.user_excluded_nodes == ["node3"]


async def test_cancel_only_the_attempt_it_was_asked_to() -> None:
    slurm = FakeSlurm([JOB])
    env, actions = ActivityEnvironment(), SlurmActions(slurm)
    later = await env.run(actions.cancel_job, CancelRequest(job_id=7, attempt=1))
    assert later.detail == "not cancelled: job is at attempt 0"
    done = await env.run(actions.cancel_job, CancelRequest(job_id=7, attempt=0))
    assert done.detail == "cancelled (CANCELLED)"
    again = await env.run(actions.cancel_job, CancelRequest(job_id=7, attempt=0))
    assert again.detail == "nothing to cancel: attempt already CANCELLED"
    slurm.fail("show_job", error=unreachable("squeue"))
    error = await failing(lambda: env.run(actions.cancel_job, CancelRequest(7, 0)))
    assert error.type == ErrorType.SLURM_UNAVAILABLE
