"""The recovery workflow's orchestration, with stub activities under the time-skipping server.

Only the Slurm/log boundary is stubbed here; tests/integration runs the same workflow for real.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta

import pytest
from temporalio import activity
from temporalio.client import WorkflowFailureError, WorkflowHandle, WorkflowUpdateFailedError
from temporalio.exceptions import ApplicationError
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from devstack import find_executable
from models.errors import ErrorType
from models.notifications import Notice, NoticeKind, NotifyResult
from models.recovery import (
    Action,
    CancelRequest,
    CancelResult,
    DecisionEvent,
    ExcludeNodesRequest,
    JobOutcome,
    JobRecoveryInput,
    LogCursor,
    MaxRequeuesRequest,
    Observation,
    Observed,
    Outcome,
    PrepareRequest,
    PrepareResult,
    RecordResult,
    RecoveryConfig,
    RequeueRequest,
    RequeueResult,
    StopRequest,
    SuspectsResult,
    WatchRequest,
)
from models.search_attributes import ALL_SEARCH_ATTRIBUTES
from models.suspects import Suspect, SuspectQuery
from worker.main import with_ajr_payloads
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.unit


Script = Callable[[WatchRequest], Observation | None]


def crash(attempt: int, nodes: tuple[str, ...] = (), checkpoints: int = 0) -> Observation:
    return Observation(
        kind=Observed.CRASH,
        attempt=attempt,
        state="RUNNING",
        restart_count=attempt,
        nodes=["node1", "node2"],
        culprit_nodes=list(nodes),
        evidence=["segmentation fault"],
        cursor=LogCursor(path=f"/logs/a{attempt}.log", checkpoints=checkpoints),
    )


def exited(attempt: int, state: str = "FAILED", code: int = 1, checkpoints: int = 0) -> Observation:
    return Observation(
        kind=Observed.EXITED,
        attempt=attempt,
        state=state,
        exit_code=code,
        restart_count=attempt,
        nodes=["node1"],
        cursor=LogCursor(path=f"/logs/a{attempt}.log", checkpoints=checkpoints),
    )


@dataclass
class Stubs:
    """Activities registered under the real names, recording what the workflow asked for."""

    script: Script
    requeue_failures: int = 0  # retryable failures before a requeue succeeds
    # What requeue_job reports instead of success: (ended_state, restart_count), e.g. the
    # attempt ended before the hold, or the job was cancelled while held.
    requeue_ended: tuple[str, int] | None = None
    refuse: ErrorType | None = None  # non-retryable error type to raise from requeue
    watches: list[WatchRequest] = field(default_factory=list)
    watch_runs: list[str] = field(default_factory=list)  # the workflow run of each watch
    requeues: list[RequeueRequest] = field(default_factory=list)
    cancels: list[CancelRequest] = field(default_factory=list)
    records: list[DecisionEvent] = field(default_factory=list)
    suspects: list[Suspect] = field(default_factory=list)
    suspect_queries: list[SuspectQuery] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    notify_fails: bool = False  # a dead endpoint: every try fails
    record_failures: int = 0  # database errors before record_decision writes again
    record_tries: int = 0
    # The race of a kept decision's background write and the requeue found not carried out:
    # requeue_job answers once that write has begun, and the write ends once the next
    # decision (made after that answer) is being written.
    race_write_and_requeue: bool = False
    writing: asyncio.Event = field(default_factory=asyncio.Event)

    def activities(self) -> list[Callable[..., object]]:
        stubs = self

        @activity.defn(name="watch_attempt")
        async def watch_attempt(request: WatchRequest) -> Observation:
            stubs.watches.append(request)
            stubs.watch_runs.append(activity.info().workflow_run_id)
            observation = stubs.script(request)
            while observation is None:  # "still running": heartbeat until cancelled
                activity.heartbeat()
                await asyncio.sleep(0.05)
                observation = stubs.script(request)
            return observation

        @activity.defn(name="prepare_job")
        async def prepare_job(request: PrepareRequest) -> PrepareResult:
            return PrepareResult(user_excluded_nodes=["node9"])

        @activity.defn(name="requeue_job")
        async def requeue_job(request: RequeueRequest) -> RequeueResult:
            stubs.requeues.append(request)
            if stubs.race_write_and_requeue and stubs.requeue_ended is not None:
                while not stubs.writing.is_set():
                    activity.heartbeat()  # requeue_job has a heartbeat timeout
                    await asyncio.sleep(0.05)
            if stubs.refuse is not None:
                raise ApplicationError("no", type=stubs.refuse.value, non_retryable=True)
            if stubs.requeue_ended is not None:
                state, restarts = stubs.requeue_ended
                stubs.requeue_ended = None
                return RequeueResult(requeued=False, restart_count=restarts, ended_state=state)
            if stubs.requeue_failures > 0:
                stubs.requeue_failures -= 1
                raise ApplicationError(
                    "job still held after release", type=ErrorType.STEP_NOT_VERIFIED.value
                )
            return RequeueResult(
                requeued=True, restart_count=request.attempt + 1, steps=["requeuehold", "release"]
            )

        @activity.defn(name="cancel_job")
        async def cancel_job(request: CancelRequest) -> CancelResult:
            stubs.cancels.append(request)
            return CancelResult("cancelled")

        @activity.defn(name="record_decision")
        async def record_decision(event: DecisionEvent) -> RecordResult:
            stubs.record_tries += 1
            if stubs.record_failures > 0:
                stubs.record_failures -= 1
                raise ApplicationError(
                    "database or disk is full", type=ErrorType.DATABASE_UNAVAILABLE.value
                )
            if stubs.race_write_and_requeue and not stubs.writing.is_set():
                stubs.writing.set()
                while not stubs.records:
                    await asyncio.sleep(0.02)
            stubs.records.append(event)
            return RecordResult(written=True)

        @activity.defn(name="find_suspects")
        async def find_suspects(query: SuspectQuery) -> SuspectsResult:
            stubs.suspect_queries.append(query)
            return SuspectsResult([s for s in stubs.suspects if s.node in query.nodes])

        @activity.defn(name="notify")
        async def notify(notice: Notice) -> NotifyResult:
            if stubs.notify_fails:
                raise ApplicationError("endpoint down", type=ErrorType.NOTIFY_FAILED.value)
            stubs.notices.append(notice)
            return NotifyResult(sent_to=["webhook"])

        return [
            watch_attempt,
            prepare_job,
            requeue_job,
            cancel_job,
            record_decision,
            find_suspects,
            notify,
        ]


def by_attempt(*observations: Observation | None) -> Script:
    def script(request: WatchRequest) -> Observation | None:
        return observations[request.attempt] if request.attempt < len(observations) else None

    return script


def job(max_requeue_times: int | None = None, **config: object) -> JobRecoveryInput:
    return JobRecoveryInput(
        cluster="t",
        job_id=42,
        job_name="train",
        max_requeue_times=max_requeue_times,
        config=RecoveryConfig(**{"system_max_requeues": 30, "crashloop_threshold": 3, **config}),  # type: ignore[arg-type]
    )


async def start(
    env: WorkflowEnvironment, stubs: Stubs, payload: JobRecoveryInput
) -> tuple[Worker, WorkflowHandle[JobRecoveryWorkflow, JobOutcome]]:
    queue = f"tq-{uuid.uuid4()}"
    worker = Worker(
        with_ajr_payloads(env.client),
        task_queue=queue,
        workflows=[JobRecoveryWorkflow],
        activities=stubs.activities(),
    )
    handle = await env.client.start_workflow(
        JobRecoveryWorkflow.run, payload, id=f"wf-{uuid.uuid4()}", task_queue=queue
    )
    return worker, handle


def hold_first_attempt(stubs: Stubs) -> asyncio.Event:
    """Attempt 0 keeps running until the returned event is set."""
    gate = asyncio.Event()
    original = stubs.script
    stubs.script = lambda r: original(r) if gate.is_set() or r.attempt > 0 else None
    return gate


async def pause_over_failure(
    handle: WorkflowHandle[JobRecoveryWorkflow, JobOutcome], gate: asyncio.Event
) -> None:
    """Pause, let attempt 0 fail, and wait until the workflow waits paused over the failure."""
    await handle.signal(JobRecoveryWorkflow.pause)
    gate.set()
    for _ in range(200):
        if (await handle.query(JobRecoveryWorkflow.status)).phase.startswith("paused"):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the workflow never waited paused")


async def run_to_end(
    env: WorkflowEnvironment, stubs: Stubs, payload: JobRecoveryInput
) -> JobOutcome:
    worker, handle = await start(env, stubs, payload)
    async with worker:
        return await handle.result()


async def test_seed_verification_sequence(time_skipping_env: WorkflowEnvironment) -> None:
    stubs = Stubs(by_attempt(crash(0), crash(1)))
    outcome = await run_to_end(time_skipping_env, stubs, job(max_requeue_times=1))
    assert outcome.outcome is Outcome.MAX_REQUEUES
    assert [r.attempt for r in stubs.requeues] == [0]
    assert [c.attempt for c in stubs.cancels] == [1]
    assert [w.attempt for w in stubs.watches] == [0, 1]
    # the second attempt's watcher is told which log belonged to the first
    assert stubs.watches[1].earlier_logs == ["/logs/a0.log"]
    assert [(e.attempt, e.action) for e in stubs.records] == [(0, "requeue"), (1, "cancel")]


async def test_crashloop_stops_after_threshold_without_checkpoints(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    stubs = Stubs(lambda r: exited(r.attempt))
    outcome = await run_to_end(time_skipping_env, stubs, job(max_requeue_times=10))
    assert outcome.outcome is Outcome.CRASHLOOP
    assert len(stubs.watches) == 3 and len(stubs.requeues) == 2


async def test_checkpointing_job_continues_to_its_maximum(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    stubs = Stubs(lambda r: exited(r.attempt, checkpoints=1))
    outcome = await run_to_end(time_skipping_env, stubs, job(max_requeue_times=5))
    assert outcome.outcome is Outcome.MAX_REQUEUES
    assert len(stubs.requeues) == 5 and len(stubs.watches) == 6


async def test_system_maximum_caps_the_job_limit(time_skipping_env: WorkflowEnvironment) -> None:
    stubs = Stubs(lambda r: exited(r.attempt, checkpoints=1))
    outcome = await run_to_end(
        time_skipping_env, stubs, job(max_requeue_times=50, system_max_requeues=2)
    )
    assert outcome.outcome is Outcome.MAX_REQUEUES and len(stubs.requeues) == 2


async def test_culprit_and_operator_exclusions_reach_the_requeue(
    temporal_env: WorkflowEnvironment,
) -> None:
    # Updates run on the real dev server: the time-skipping server does not skip for them.
    release_first = asyncio.Event()

    def script(request: WatchRequest) -> Observation | None:
        if request.attempt == 0:
            return crash(0, nodes=("node2",)) if release_first.is_set() else None
        return exited(1, state="COMPLETED", code=0)

    stubs = Stubs(script)
    worker, handle = await start(temporal_env, stubs, job(max_requeue_times=3))
    async with worker:
        assert await handle.execute_update(
            JobRecoveryWorkflow.exclude_nodes, ExcludeNodesRequest(["node4"], "ECC")
        ) == ["node4"]
        with pytest.raises(WorkflowUpdateFailedError):
            await handle.execute_update(
                JobRecoveryWorkflow.exclude_nodes, ExcludeNodesRequest(["bad;name"])
            )
        with pytest.raises(WorkflowUpdateFailedError):
            await handle.execute_update(
                JobRecoveryWorkflow.set_max_requeues, MaxRequeuesRequest(-1)
            )
        assert (
            await handle.execute_update(JobRecoveryWorkflow.set_max_requeues, MaxRequeuesRequest(2))
            == 2
        )
        release_first.set()
        outcome = await handle.result()
    assert outcome.outcome is Outcome.COMPLETED
    assert stubs.requeues[0].exclude_nodes == ["node2", "node4"]


async def test_observe_only_records_but_never_acts(time_skipping_env: WorkflowEnvironment) -> None:
    seen: list[list[str]] = []

    def script(request: WatchRequest) -> Observation:
        seen.append(list(request.ignore))
        return crash(0) if not request.ignore else exited(0)

    stubs = Stubs(script)
    outcome = await run_to_end(time_skipping_env, stubs, job(observe_only=True))
    assert outcome.outcome is Outcome.OBSERVED_ONLY
    assert stubs.requeues == [] and stubs.cancels == []
    assert seen == [[], ["CRASH"]]  # keeps watching the same attempt, not re-reporting the crash
    assert all(not e.acted for e in stubs.records)


async def test_stop_leaves_the_job_alone(time_skipping_env: WorkflowEnvironment) -> None:
    stubs = Stubs(by_attempt(None))
    worker, handle = await start(time_skipping_env, stubs, job())
    async with worker:
        await handle.signal(JobRecoveryWorkflow.stop, StopRequest("maintenance"))
        outcome = await handle.result()
    assert outcome.outcome is Outcome.STOPPED_BY_OPERATOR and outcome.reason == "maintenance"
    assert stubs.requeues == [] and stubs.cancels == []


async def test_paused_failure_waits_days_for_resume_then_acts(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    stubs = Stubs(by_attempt(exited(0), exited(1, state="COMPLETED", code=0)))
    gate = hold_first_attempt(stubs)
    worker, handle = await start(time_skipping_env, stubs, job())
    async with worker:
        await pause_over_failure(handle, gate)
        await time_skipping_env.sleep(timedelta(days=3))
        assert stubs.requeues == []
        await handle.signal(JobRecoveryWorkflow.resume)
        outcome = await handle.result()
    assert outcome.outcome is Outcome.COMPLETED
    assert [r.attempt for r in stubs.requeues] == [0]


async def test_requeue_watchdog_retries_and_raises_a_warning(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    # 5 tries per round (ACTION_RETRY): 7 failures means a second round after a watchdog warning.
    stubs = Stubs(by_attempt(exited(0), exited(1, state="COMPLETED", code=0)), requeue_failures=7)
    worker, handle = await start(time_skipping_env, stubs, job())
    async with worker:
        outcome = await handle.result()
        status = await handle.query(JobRecoveryWorkflow.status)
    assert outcome.outcome is Outcome.COMPLETED
    assert len(stubs.requeues) == 8
    assert any("recovery watchdog" in w for w in status.warnings)


async def test_requeue_refused_fails_the_workflow_with_its_type(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    stubs = Stubs(by_attempt(exited(0)), refuse=ErrorType.REQUEUE_REFUSED)
    with pytest.raises(WorkflowFailureError) as failure:
        await run_to_end(time_skipping_env, stubs, job())
    assert isinstance(failure.value.cause, ApplicationError)
    assert failure.value.cause.type == "RequeueRefused"


async def test_invalid_directive_is_recorded_not_managed(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    payload = job()
    payload.not_managed_reason = (
        "invalid APS comment: max_requeue_times must be a non-negative integer"
    )
    stubs = Stubs(by_attempt())
    outcome = await run_to_end(time_skipping_env, stubs, payload)
    assert outcome.outcome is Outcome.NOT_MANAGED and "non-negative" in outcome.reason
    assert stubs.watches == []


async def test_requeued_outside_ajr_watches_the_next_attempt(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    moved = Observation(kind=Observed.REQUEUED, attempt=0, state="PENDING", restart_count=1)
    stubs = Stubs(by_attempt(moved, exited(1, state="COMPLETED", code=0)))
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.COMPLETED
    assert [w.attempt for w in stubs.watches] == [0, 1] and stubs.requeues == []


async def test_missing_log_warns_and_keeps_watching(time_skipping_env: WorkflowEnvironment) -> None:
    def script(request: WatchRequest) -> Observation:
        if "LOG_MISSING" not in request.ignore:
            return Observation(
                kind=Observed.LOG_MISSING, attempt=0, state="RUNNING", detail="no log"
            )
        return exited(0, state="COMPLETED", code=0)

    stubs = Stubs(script)
    worker, handle = await start(time_skipping_env, stubs, job())
    async with worker:
        outcome = await handle.result()
        status = await handle.query(JobRecoveryWorkflow.status)
    assert outcome.outcome is Outcome.COMPLETED
    assert stubs.requeues == [] and stubs.cancels == []
    assert "no log" in status.warnings


async def test_straggler_is_requeued_after_its_next_checkpoint(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    slow = Observation(
        kind=Observed.STRAGGLER,
        attempt=0,
        state="RUNNING",
        culprit_nodes=["node3"],
        evidence=["STRAGGLER DETECTION WARNING: ranks [5]"],
        cursor=LogCursor(checkpoints=3),
    )

    def script(request: WatchRequest) -> Observation:
        if request.attempt == 1:
            return exited(1, state="COMPLETED", code=0)
        if request.return_after_checkpoints < 0:
            return slow
        saved = Observation(
            kind=Observed.STRAGGLER,
            attempt=0,
            state="RUNNING",
            detail="checkpoint save 4 completed",
            cursor=LogCursor(checkpoints=4),
        )
        return saved

    stubs = Stubs(script)
    outcome = await run_to_end(time_skipping_env, stubs, job(straggler_checkpoint_wait_s=600.0))
    assert outcome.outcome is Outcome.COMPLETED
    waiting = stubs.watches[1]
    assert waiting.return_after_checkpoints == 3 and waiting.ignore == ["STRAGGLER"]
    assert waiting.return_by > 0
    (requeue,) = stubs.requeues
    assert requeue.attempt == 0 and requeue.exclude_nodes == ["node3"]
    assert [e.action for e in stubs.records] == ["watch", "requeue", "complete"]


async def test_suspect_nodes_from_other_jobs_are_excluded(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    stubs = Stubs(by_attempt(crash(0), exited(1, state="COMPLETED", code=0)))
    stubs.suspects = [Suspect("node1", [7, 9])]
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.COMPLETED
    assert stubs.requeues[0].exclude_nodes == ["node1"]
    assert stubs.suspect_queries[0].nodes == ["node1", "node2"]
    assert any("node1 is suspect" in r for r in stubs.records[0].reasons)
    assert stubs.records[1].culprit_nodes == []  # the success names no culprit


@contextlib.asynccontextmanager
async def eager_server() -> AsyncIterator[WorkflowEnvironment]:
    """A dev server that suggests continue-as-new after 8 events."""
    async with await WorkflowEnvironment.start_local(
        dev_server_existing_path=find_executable("temporal"),
        search_attributes=ALL_SEARCH_ATTRIBUTES,
        dev_server_extra_args=[
            "--dynamic-config-value",
            "limit.historyCount.suggestContinueAsNew=8",
        ],
    ) as env:
        yield env


async def test_continue_as_new_when_suggested_keeps_the_watch_position() -> None:
    """A server that suggests continue-as-new early: the same attempt goes on in a fresh run."""

    def script(request: WatchRequest) -> Observation:
        if "LOG_MISSING" not in request.ignore:
            return Observation(
                kind=Observed.LOG_MISSING,
                attempt=0,
                state="RUNNING",
                detail="no log yet",
                cursor=LogCursor(path="/logs/a0.log", offset=4096, lines=12),
            )
        return exited(0, state="COMPLETED", code=0)

    stubs = Stubs(script)
    async with eager_server() as env:
        worker, handle = await start(env, stubs, job())
        async with worker:
            outcome = await handle.result()
            final_run = (await handle.describe()).run_id
    assert outcome.outcome is Outcome.COMPLETED
    assert handle.first_execution_run_id is not None
    assert final_run != handle.first_execution_run_id  # a new run took over mid-attempt
    assert [(w.attempt, w.ignore, w.cursor.offset) for w in stubs.watches] == [
        (0, [], 0),
        (0, ["LOG_MISSING"], 4096),  # resumed where the watch stood, not from the top
    ]


async def test_live_decision_on_an_attempt_that_ended_meanwhile_is_not_acted(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    """The user scancels just as a crash is decided: ajr watches the ending, never requeues."""
    stubs = Stubs(lambda r: crash(0) if not r.ignore else exited(0, state="CANCELLED", code=0))
    stubs.requeue_ended = ("CANCELLED", 0)  # requeue_job found the attempt no longer running
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.CANCELLED_BY_USER
    assert len(stubs.requeues) == 1 and stubs.requeues[0].live
    assert stubs.watches[1].ignore == ["CRASH"]


async def test_cancelled_while_held_is_not_released(time_skipping_env: WorkflowEnvironment) -> None:
    stubs = Stubs(by_attempt(exited(0)))
    stubs.requeue_ended = ("CANCELLED", 1)  # the user cancelled it between hold and release
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.CANCELLED_BY_USER
    assert not stubs.requeues[0].live


async def test_a_straggler_is_never_cancelled(time_skipping_env: WorkflowEnvironment) -> None:
    slow = Observation(kind=Observed.STRAGGLER, attempt=0, state="RUNNING", culprit_nodes=["node2"])
    stubs = Stubs(lambda r: slow)
    outcome = await run_to_end(time_skipping_env, stubs, job(max_requeue_times=0))
    assert outcome.outcome is Outcome.MAX_REQUEUES
    assert stubs.cancels == [] and stubs.requeues == []


async def test_paused_crash_then_exit_counts_once_toward_crashloop(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    gate = asyncio.Event()

    def script(request: WatchRequest) -> Observation | None:
        if request.attempt == 0:
            return exited(0)
        if request.attempt == 2:
            return exited(2, state="COMPLETED", code=0)
        if not request.ignore:
            return crash(1)  # seen while paused
        return exited(1) if gate.is_set() else None

    stubs = Stubs(script)
    worker, handle = await start(time_skipping_env, stubs, job(max_requeue_times=5))
    async with worker:
        await handle.signal(JobRecoveryWorkflow.pause)
        for _ in range(200):
            if any(w.attempt == 1 and w.ignore for w in stubs.watches):
                break
            await asyncio.sleep(0.05)
        await handle.signal(JobRecoveryWorkflow.resume)
        gate.set()
        outcome = await handle.result()
    # attempts 0 and 1 failed (2 < threshold 3): attempt 1 is requeued, attempt 2 completes
    assert outcome.outcome is Outcome.COMPLETED
    assert [r.attempt for r in stubs.requeues] == [0, 1]


async def test_operator_exclusion_during_a_pause_is_used_after_resume(
    temporal_env: WorkflowEnvironment,
) -> None:
    stubs = Stubs(by_attempt(exited(0), exited(1, state="COMPLETED", code=0)))
    gate = hold_first_attempt(stubs)
    worker, handle = await start(temporal_env, stubs, job())
    async with worker:
        await pause_over_failure(handle, gate)
        await handle.execute_update(
            JobRecoveryWorkflow.exclude_nodes, ExcludeNodesRequest(["node7"])
        )
        await handle.signal(JobRecoveryWorkflow.resume)
        outcome = await handle.result()
    assert outcome.outcome is Outcome.COMPLETED
    assert stubs.requeues[0].exclude_nodes == ["node7"]


async def test_a_pending_straggler_wait_survives_continue_as_new() -> None:
    """The wait for the next checkpoint save goes on in a fresh run with the same deadline."""

    def script(request: WatchRequest) -> Observation:
        if request.attempt == 1:
            return exited(1, state="COMPLETED", code=0)
        checkpoints = 3 if request.return_after_checkpoints < 0 else 4
        return Observation(
            kind=Observed.STRAGGLER,
            attempt=0,
            state="RUNNING",
            culprit_nodes=["node3"] if checkpoints == 3 else [],
            cursor=LogCursor(checkpoints=checkpoints),
        )

    stubs = Stubs(script)
    async with eager_server() as env:
        worker, handle = await start(env, stubs, job(straggler_checkpoint_wait_s=600.0))
        async with worker:
            outcome = await handle.result()
    assert outcome.outcome is Outcome.COMPLETED
    slow, waiting, after = stubs.watches[:3]
    assert slow.return_after_checkpoints == -1
    assert stubs.watch_runs[1] != stubs.watch_runs[0]  # the wait went on in a new run
    assert (waiting.attempt, waiting.return_after_checkpoints) == (0, 3)
    assert waiting.return_by > 0 and waiting.ignore == ["STRAGGLER"]
    assert after.attempt == 1
    (requeue,) = stubs.requeues
    assert requeue.exclude_nodes == ["node3"]


async def test_notices_after_acting(time_skipping_env: WorkflowEnvironment) -> None:
    """Requeued (with the culprit and exclusions), then stopped: sent after each action."""
    stubs = Stubs(by_attempt(crash(0, nodes=("node3",)), crash(1)))
    outcome = await run_to_end(time_skipping_env, stubs, job(max_requeue_times=1, notify=True))
    assert outcome.outcome is Outcome.MAX_REQUEUES
    assert [(n.kind, n.attempt) for n in stubs.notices] == [
        (NoticeKind.REQUEUED, 0),
        (NoticeKind.STOPPED, 1),
    ]
    requeued, stopped = stubs.notices
    assert requeued.culprit_nodes == ["node3"] and "node3" in requeued.excluded_nodes
    assert requeued.text.startswith("job 42 train attempt 0: CRASH") and "(requeue 1 of 1)" in (
        requeued.text
    )
    assert "stopped_max_requeues" in stopped.reason
    assert len(stubs.requeues) == 1  # the notice came after the requeue, not instead of it


async def test_no_notices_without_a_channel(time_skipping_env: WorkflowEnvironment) -> None:
    stubs = Stubs(by_attempt(crash(0), crash(1)))
    await run_to_end(time_skipping_env, stubs, job(max_requeue_times=1))
    assert stubs.notices == []


async def test_not_managed_and_stuck_notices(time_skipping_env: WorkflowEnvironment) -> None:
    refused = Stubs(by_attempt())
    payload = replace(job(notify=True), not_managed_reason="max_requeue_times must be >= 0")
    assert (await run_to_end(time_skipping_env, refused, payload)).outcome is Outcome.NOT_MANAGED
    assert [(n.kind, n.reason) for n in refused.notices] == [
        (NoticeKind.NOT_MANAGED, "max_requeue_times must be >= 0")
    ]
    stuck = Stubs(by_attempt(crash(0), exited(1, "COMPLETED", 0)), requeue_failures=7)
    outcome = await run_to_end(time_skipping_env, stuck, job(max_requeue_times=1, notify=True))
    assert outcome.outcome is Outcome.COMPLETED
    kinds = [n.kind for n in stuck.notices]
    assert kinds == [NoticeKind.STUCK, NoticeKind.REQUEUED]  # once per attempt, not per round


async def test_a_dead_endpoint_never_stops_recovery(time_skipping_env: WorkflowEnvironment) -> None:
    stubs = Stubs(by_attempt(crash(0), exited(1, "COMPLETED", 0)), notify_fails=True)
    worker, handle = await start(time_skipping_env, stubs, job(max_requeue_times=1, notify=True))
    async with worker:
        outcome = await handle.result()
        status = await handle.query(JobRecoveryWorkflow.status)
    assert outcome.outcome is Outcome.COMPLETED and len(stubs.requeues) == 1
    assert any("notification requeued not sent" in w for w in status.warnings)


def crash_then_end_before_requeue(r: WatchRequest) -> Observation:
    """Attempt 0 crashes, then (its crash line ignored) is seen ended; attempt 1 completes."""
    if r.attempt == 0:
        return crash(0) if not r.ignore else exited(0)
    return exited(1, "COMPLETED", 0)


async def test_a_requeue_that_never_ran_is_recorded_as_not_acted(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    """The crash is decided (recorded acted) but the attempt ends before requeue_job runs: the
    records count the one requeue Slurm does, not two (chaos: temporal-restart, worker-kill)."""
    stubs = Stubs(crash_then_end_before_requeue)
    stubs.requeue_ended = ("FAILED", 0)  # the attempt exited by itself meanwhile
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.COMPLETED
    assert [(r.attempt, r.live) for r in stubs.requeues] == [(0, True), (0, False)]
    first, second = stubs.records[0], stubs.records[1]
    assert (first.observed, first.action, first.acted) == (Observed.CRASH, Action.REQUEUE, True)
    assert (second.observed, second.action, second.acted) == (Observed.EXITED, Action.REQUEUE, True)
    assert second.supersedes == [first.event_id]  # the database marks the first not acted
    assert not any(r.supersedes for r in stubs.records[2:])


async def test_decisions_the_database_refused_are_written_later(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    """Disk full: the decision is not written when made (recovery does not wait for it), and is
    written, once, when the database takes writes again; the same before the workflow ends."""
    stubs = Stubs(by_attempt(crash(0), exited(1, "COMPLETED", 0)))
    stubs.record_failures = 3 + 3 * 2  # the decision's own tries, then two background rounds
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.COMPLETED
    assert [r.attempt for r in stubs.requeues] == [0]  # acted without waiting on the database
    written = [(r.attempt, r.observed, r.action, r.acted) for r in stubs.records]
    assert sorted(written) == [
        (0, Observed.CRASH, Action.REQUEUE, True),
        (1, Observed.EXITED, Action.COMPLETE, False),  # passive: nothing to act on
    ]
    assert len({r.event_id for r in stubs.records}) == len(stubs.records)  # each once


async def test_an_unwritten_decision_that_never_ran_is_written_as_not_acted(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    stubs = Stubs(crash_then_end_before_requeue)
    stubs.requeue_ended = ("FAILED", 0)
    stubs.record_failures = 3  # the crash decision is refused, the later ones are not
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.COMPLETED
    acted_requeues = [r for r in stubs.records if r.action is Action.REQUEUE and r.acted]
    assert [(r.attempt, r.observed) for r in acted_requeues] == [(0, Observed.EXITED)]
    crash_record = next(r for r in stubs.records if r.observed is Observed.CRASH)
    assert not crash_record.acted and crash_record.record is not None
    assert not crash_record.record.acted


async def test_a_decision_superseded_while_its_late_write_runs_is_written_again(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    """The database refused the crash decision; its background write is under way when the
    requeue is found not carried out. The write stores it acted; the copy marked meanwhile is
    written again, not acted (the database then marks the row), so the records count one
    requeue."""
    stubs = Stubs(crash_then_end_before_requeue)
    stubs.requeue_ended = ("FAILED", 0)
    stubs.record_failures = 3  # the crash decision's own tries
    stubs.race_write_and_requeue = True
    outcome = await run_to_end(time_skipping_env, stubs, job())
    assert outcome.outcome is Outcome.COMPLETED
    crash_writes = [r for r in stubs.records if r.observed is Observed.CRASH]
    assert [w.acted for w in crash_writes] == [True, False], crash_writes
    assert len({w.event_id for w in crash_writes}) == 1
    final = {r.event_id: r for r in stubs.records}  # a write not acted marks the stored row
    acted = [r.observed for r in final.values() if r.action is Action.REQUEUE and r.acted]
    assert acted == [Observed.EXITED]  # the one requeue Slurm did
