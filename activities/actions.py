"""Acting on a job in Slurm, idempotently, verifying every step from Slurm's own state.

Each action is keyed by the attempt (Slurm's restart count) it replaces, so a retried activity or
a worker killed half-way never acts twice: it reads where the job stands and does only what is left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import AsyncIterator, Callable

from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities import telemetry
from activities.errors import activity_error
from activities.slurm.client import SlurmClient
from activities.slurm.control import InvalidNodeName, validate_node_names
from activities.slurm.poller import ClusterPoller
from activities.slurm.runner import SlurmError
from models.activities import ActivityName
from models.errors import ErrorType
from models.placement import fit_after_exclusion
from models.recovery import (
    CancelRequest,
    CancelResult,
    PrepareRequest,
    PrepareResult,
    RequeueRequest,
    RequeueResult,
)
from models.slurm import JobState, SlurmJob

log = logging.getLogger(__name__)

STEP_POLL_S = 0.1
REQUEUE_SETTLE_TIMEOUT_S = 60.0
RELEASE_AGAIN_AFTER_S = 1.0


# slurmd revokes the killed attempt's job credential with one-second granularity; an attempt
# allocated within that same second dies at once with "Job credential revoked". The revocation
# happened before the job showed PENDING, so releasing after the next full second (plus margin
# for clock skew between hosts) is always safe, where Slurm itself waits about two minutes.
REVOCATION_MARGIN_S = 0.2


async def _past_credential_revocation(pending_seen_at: float) -> None:
    safe_at = math.floor(pending_seen_at) + 1 + REVOCATION_MARGIN_S
    await asyncio.sleep(max(0.0, safe_at - time.time()))


class _PartitionNodes:
    """The partition's node states, asked of Slurm at most once per activity call."""

    def __init__(self, control: SlurmClient, partition: str) -> None:
        self._control = control
        self._partition = partition
        self._states: dict[str, str] | None = None
        self._error: SlurmError | None = None

    async def states(self) -> dict[str, str]:
        if self._states is None and self._error is None:
            try:
                self._states = await self._control.partition_nodes(self._partition)
            except SlurmError as exc:
                self._error = exc
        if self._error is not None:
            raise self._error
        assert self._states is not None
        return self._states


async def _known_exclusions(
    job: SlurmJob, requested: list[str], partition: _PartitionNodes
) -> tuple[list[str], list[str]]:
    """The job's exclusions plus those of `requested` Slurm knows; and the unknown ones.

    An operator's typo or an FQDN would make `scontrol update` fail and the job stay held.
    """
    known: set[str] = set()
    if job.partition:
        try:
            known = set(await partition.states())
        except SlurmError:
            known = set()
    if not known:  # cannot tell: let Slurm judge (a refusal is handled above)
        return sorted(set(job.excluded_nodes) | set(requested)), []
    unknown = sorted(set(requested) - known - set(job.excluded_nodes))
    return sorted(set(job.excluded_nodes) | (set(requested) - set(unknown))), unknown


def _beat(step: str) -> None:
    if activity.in_activity():
        activity.heartbeat(step)


HEARTBEAT_EVERY_S = 2.0


@contextlib.asynccontextmanager
async def _slurm_action() -> AsyncIterator[None]:
    """Heartbeat while Slurm commands run (one slow RPC must not look like a dead worker), and
    let no Slurm failure leave the activity without its error type."""

    async def beat() -> None:
        while True:
            _beat("working")
            await asyncio.sleep(HEARTBEAT_EVERY_S)

    ticker = asyncio.get_running_loop().create_task(beat())
    try:
        yield
    except SlurmError as exc:
        kind = ErrorType.SLURM_UNAVAILABLE if exc.unavailable else ErrorType.SLURM_COMMAND_FAILED
        raise activity_error(kind, str(exc)) from exc
    finally:
        ticker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticker


class SlurmActions:
    def __init__(self, control: SlurmClient, poller: ClusterPoller | None = None) -> None:
        self._control = control
        self._poller = poller  # the shared snapshot, for reads it can answer (prepare_job)

    async def _job(self, job_id: int) -> SlurmJob:
        try:
            job = await self._control.show_job(job_id)
            known = True if job is not None else await self._control.job_known(job_id)
        except SlurmError as exc:
            raise activity_error(ErrorType.SLURM_UNAVAILABLE, str(exc)) from exc
        if job is None:
            if known:  # listed by scontrol, not by squeue: ask again, never conclude "gone"
                raise activity_error(
                    ErrorType.SLURM_UNAVAILABLE, f"job {job_id} not listed by squeue"
                )
            raise activity_error(
                ErrorType.JOB_NOT_FOUND, f"slurmctld answered 'Invalid job id' for job {job_id}"
            )
        return job

    async def _wait_for(
        self, job_id: int, done: str, predicate: Callable[[SlurmJob], bool], timeout: float
    ) -> SlurmJob:
        """Re-read the job until `predicate(job)` holds; raise a retryable error on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            job = await self._job(job_id)
            if predicate(job):
                return job
            if time.monotonic() >= deadline:
                raise activity_error(
                    ErrorType.STEP_NOT_VERIFIED,
                    f"job {job_id} did not reach '{done}' within {timeout:.0f}s "
                    f"(state {job.state}, reason {job.state_reason}, restarts {job.restart_count})",
                )
            _beat(f"waiting: {done}")
            await asyncio.sleep(STEP_POLL_S)

    @activity.defn(name=ActivityName.PREPARE_JOB)
    async def prepare_job(self, request: PrepareRequest) -> PrepareResult:
        """At enrolment: make a `--no-requeue` job requeueable while Slurm still allows it."""
        async with _slurm_action():
            return await self._prepare(request)

    def _listed_requeueable(self, job_id: int) -> SlurmJob | None:
        """The job as the latest good cluster poll lists it, when that says Requeue=1: then
        enrolment has nothing to change, and 1,000 new jobs cost no 1,000 single-job reads.
        (Read from squeue's JSON, whose fields an owner cannot forge.)"""
        snapshot = self._poller.latest if self._poller is not None else None
        if snapshot is None or not snapshot.ok:
            return None
        job = snapshot.jobs.get(job_id)
        return job if job is not None and job.requeue else None

    async def _prepare(self, request: PrepareRequest) -> PrepareResult:
        listed = self._listed_requeueable(request.job_id)
        if listed is not None:
            return PrepareResult(user_excluded_nodes=list(listed.excluded_nodes))
        job = await self._job(request.job_id)
        result = PrepareResult(user_excluded_nodes=list(job.excluded_nodes))
        if job.requeue:
            return result
        if not job.state.is_active:
            result.detail = f"job was submitted with --no-requeue and is already {job.state}"
            return result
        outcome = await self._control.make_requeueable(request.job_id)
        job = await self._job(request.job_id)
        if not job.requeue:
            raise activity_error(
                ErrorType.STEP_NOT_VERIFIED,
                f"could not set Requeue=1 on job {request.job_id}: {outcome.stderr.strip()}",
            )
        result.made_requeueable = True
        result.detail = "job was submitted with --no-requeue; set Requeue=1"
        return result

    @activity.defn(name=ActivityName.REQUEUE_JOB)
    async def requeue_job(self, request: RequeueRequest) -> RequeueResult:
        """requeuehold -> (PENDING, held) -> ExcNodeList + StartTime=now -> release -> verified."""
        try:
            validate_node_names(request.exclude_nodes)
        except InvalidNodeName as exc:
            raise activity_error(ErrorType.INVALID_REQUEST, str(exc)) from exc
        started = time.monotonic()
        with (
            telemetry.REQUEUES_IN_PROGRESS.track(),
            telemetry.tracer.start_as_current_span(
                "requeue_job", attributes={"job.id": request.job_id, "attempt": request.attempt}
            ),
        ):
            try:
                async with _slurm_action():
                    result = await self._requeue(request)
            except ApplicationError as exc:
                telemetry.REQUEUE_ERRORS.add(1, {"type": exc.type or "unknown"})
                raise
        if result.requeued:
            telemetry.REQUEUE_DURATION.record(time.monotonic() - started)
        return result

    async def _requeue(self, request: RequeueRequest) -> RequeueResult:
        job_id, attempt = request.job_id, request.attempt
        steps: list[str] = []
        job = await self._job(job_id)
        partition = _PartitionNodes(self._control, job.partition)

        if job.restart_count < attempt:
            raise activity_error(
                ErrorType.INVALID_REQUEST,
                f"job {job_id} is at attempt {job.restart_count}, before attempt {attempt}",
            )
        if job.restart_count == attempt:
            if request.live and job.state is not JobState.RUNNING:
                # Decided on a running attempt, but it ended meanwhile (its user cancelled it,
                # it completed): requeuehold would resurrect it. Let the watch see the end.
                return RequeueResult(
                    requeued=False, restart_count=job.restart_count, ended_state=job.state
                )
            wanted = sorted(set(job.excluded_nodes) | set(request.exclude_nodes))
            refusal = await self._refuse_if_no_fit(job, wanted, partition)
            if refusal:
                return RequeueResult(
                    requeued=False, restart_count=job.restart_count, refused=refusal
                )
            if not job.requeue and job.state.is_active:
                await self._control.make_requeueable(job_id)
            outcome = await self._control.requeue_hold(job_id)
            job = await self._job(job_id)
            if job.restart_count == attempt:
                message = outcome.stderr.strip() or "restart count did not move"
                if "disabled" in message or "already finished" in message:
                    raise activity_error(
                        ErrorType.REQUEUE_REFUSED,
                        f"Slurm refused to requeue job {job_id}: {message}",
                    )
                raise activity_error(
                    ErrorType.STEP_NOT_VERIFIED,
                    f"requeuehold of job {job_id} not verified: {message}",
                )
            steps.append(f"requeuehold: attempt {attempt} -> {job.restart_count}")
        else:
            steps.append(f"requeuehold already done (restart count {job.restart_count})")
        try:
            return await self._exclude_and_release(request, steps, partition)
        except asyncio.CancelledError:
            # Cancelled after the hold (the workflow was cancelled): never leave the job held.
            with contextlib.suppress(Exception):
                await self._control.release(job_id)
            raise

    async def _exclude_and_release(
        self, request: RequeueRequest, steps: list[str], partition: _PartitionNodes
    ) -> RequeueResult:
        job_id = request.job_id
        # StartTime=now only sticks once the requeue has finished and the job is PENDING again.
        job = await self._wait_for(
            job_id,
            "pending after requeue",
            lambda j: j.state in (JobState.PENDING, JobState.RUNNING) or j.state.is_ended,
            REQUEUE_SETTLE_TIMEOUT_S,
        )
        held_at = time.time()  # the attempt is gone: the end of its shutdown, for the records
        released_at = 0.0
        if job.state.is_ended:  # cancelled by its user while ajr held it
            steps.append(f"job {job.state.value} while held: not released")
            return RequeueResult(
                requeued=False,
                restart_count=job.restart_count,
                steps=steps,
                ended_state=job.state,
            )
        if job.state is JobState.PENDING and job.held:
            if request.live and request.detected_at and steps[0].startswith("requeuehold: "):
                # Measured once: by the call that did the requeuehold (not a retry's).
                telemetry.CRASH_TO_HELD.record(max(0.0, time.time() - request.detected_at))
            await _past_credential_revocation(time.time())
            wanted, unknown = await _known_exclusions(job, request.exclude_nodes, partition)
            if unknown:
                steps.append(f"not excluded, unknown to Slurm: {','.join(unknown)}")
            delay = max(0, request.start_delay_s)
            outcome = await self._control.set_exclusions_and_start_now(job_id, wanted, delay)
            job = await self._job(job_id)
            missing = set(wanted) - set(job.excluded_nodes)
            if missing:
                # Never keep a job held over an exclusion Slurm refuses: release without it.
                steps.append(
                    f"ExcNodeList refused for {','.join(sorted(missing))}: "
                    f"{outcome.stderr.strip() or 'no reason given'}"
                )
                await self._control.set_exclusions_and_start_now(
                    job_id, list(job.excluded_nodes), delay
                )
            else:
                start = f"now+{delay}" if delay else "now"
                steps.append(
                    f"update: ExcNodeList={','.join(wanted) or '(none)'}, StartTime={start}"
                )
            await self._release_verified(job_id, request.release_timeout_s)
            released_at = time.time()
            steps.append("release")
        else:
            steps.append(f"already released ({job.state}, {job.state_reason})")
        job = await self._job(job_id)
        return RequeueResult(
            requeued=True,
            restart_count=job.restart_count,
            excluded_nodes=list(job.excluded_nodes),
            steps=steps,
            held_at=held_at,
            released_at=released_at or held_at,
        )

    async def _refuse_if_no_fit(
        self, job: SlurmJob, excluded: list[str], partition: _PartitionNodes
    ) -> str:
        if not excluded or not job.partition:
            return ""
        try:
            states = await partition.states()
        except SlurmError as exc:
            raise activity_error(ErrorType.SLURM_UNAVAILABLE, str(exc)) from exc
        fit = fit_after_exclusion(states, excluded, job.node_count)
        return "" if fit.fits else fit.explain(job.partition)

    async def _release_verified(self, job_id: int, timeout: float) -> None:
        """Release, and keep releasing until Slurm shows the job no longer held."""
        deadline = time.monotonic() + timeout
        while True:
            await self._control.release(job_id)
            job = await self._job(job_id)
            if not job.held:
                return
            if time.monotonic() >= deadline:
                raise activity_error(
                    ErrorType.STEP_NOT_VERIFIED,
                    f"job {job_id} still held {timeout:.0f}s after release",
                )
            _beat("release not yet effective")
            await asyncio.sleep(RELEASE_AGAIN_AFTER_S)

    @activity.defn(name=ActivityName.CANCEL_JOB)
    async def cancel_job(self, request: CancelRequest) -> CancelResult:
        """scancel the attempt ajr gave up on; never a later attempt, never twice."""
        async with _slurm_action():
            return await self._cancel(request)

    async def _cancel(self, request: CancelRequest) -> CancelResult:
        job = await self._job(request.job_id)
        if job.restart_count != request.attempt:
            return CancelResult(f"not cancelled: job is at attempt {job.restart_count}")
        if not job.state.is_active:
            return CancelResult(f"nothing to cancel: attempt already {job.state}")
        await self._control.cancel(request.job_id)
        job = await self._wait_for(
            request.job_id,
            "ended after scancel",
            lambda j: not j.state.is_active,
            REQUEUE_SETTLE_TIMEOUT_S,
        )
        log.info("cancelled job %s attempt %s: %s", request.job_id, request.attempt, request.reason)
        return CancelResult(f"cancelled ({job.state})")
