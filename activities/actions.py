"""Acting on a job in Slurm, idempotently, verifying every step from Slurm's own state.

Each action is keyed by the attempt (Slurm's restart count) it replaces, so a retried activity or
a worker killed half-way never acts twice: it reads where the job stands and does only what is left.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable

from temporalio import activity

from activities.errors import ErrorType, non_retryable, retryable
from activities.slurm.control import InvalidNodeName, SlurmControl, validate_node_names
from activities.slurm.runner import SlurmError
from models.placement import fit_after_exclusion
from models.recovery import (
    CancelRequest,
    PrepareRequest,
    PrepareResult,
    RequeueRequest,
    RequeueResult,
)
from models.slurm import JobState, SlurmJob

log = logging.getLogger(__name__)

STEP_POLL_S = 0.1
REQUEUE_SETTLE_TIMEOUT_S = 60.0


# slurmd revokes the killed attempt's job credential with one-second granularity; an attempt
# allocated within that same second dies at once with "Job credential revoked". The revocation
# happened before the job showed PENDING, so releasing after the next full second (plus margin
# for clock skew between hosts) is always safe, where Slurm itself waits about two minutes.
REVOCATION_MARGIN_S = 0.2


async def _past_credential_revocation(pending_seen_at: float) -> None:
    safe_at = math.floor(pending_seen_at) + 1 + REVOCATION_MARGIN_S
    await asyncio.sleep(max(0.0, safe_at - time.time()))


def _beat(step: str) -> None:
    if activity.in_activity():
        activity.heartbeat(step)


class SlurmActions:
    def __init__(self, control: SlurmControl, *, chaos_step_delay: float = 0.0) -> None:
        self._control = control
        self._chaos_step_delay = chaos_step_delay

    async def _job(self, job_id: int) -> SlurmJob:
        try:
            job = await self._control.show_job(job_id)
        except SlurmError as exc:
            raise retryable(str(exc), ErrorType.SLURM_UNAVAILABLE) from exc
        if job is None:
            raise non_retryable(f"slurmctld has no record of job {job_id}", ErrorType.JOB_NOT_FOUND)
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
                raise retryable(
                    f"job {job_id} did not reach '{done}' within {timeout:.0f}s "
                    f"(state {job.state}, reason {job.state_reason}, restarts {job.restart_count})",
                    ErrorType.STEP_NOT_VERIFIED,
                )
            _beat(f"waiting: {done}")
            await asyncio.sleep(STEP_POLL_S)

    @activity.defn(name="prepare_job")
    async def prepare_job(self, request: PrepareRequest) -> PrepareResult:
        """At enrolment: make a `--no-requeue` job requeueable while Slurm still allows it."""
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
            raise retryable(
                f"could not set Requeue=1 on job {request.job_id}: {outcome.stderr.strip()}",
                ErrorType.STEP_NOT_VERIFIED,
            )
        result.made_requeueable = True
        result.detail = "job was submitted with --no-requeue; set Requeue=1"
        return result

    @activity.defn(name="requeue_job")
    async def requeue_job(self, request: RequeueRequest) -> RequeueResult:
        """requeuehold -> (PENDING, held) -> ExcNodeList + StartTime=now -> release -> verified."""
        try:
            validate_node_names(request.exclude_nodes)
        except InvalidNodeName as exc:
            raise non_retryable(str(exc), ErrorType.INVALID_REQUEST) from exc
        job_id, attempt = request.job_id, request.attempt
        steps: list[str] = []
        job = await self._job(job_id)

        if job.restart_count < attempt:
            raise non_retryable(
                f"job {job_id} is at attempt {job.restart_count}, before attempt {attempt}",
                ErrorType.INVALID_REQUEST,
            )
        if job.restart_count == attempt:
            wanted = sorted(set(job.excluded_nodes) | set(request.exclude_nodes))
            refusal = await self._refuse_if_no_fit(job, wanted)
            if refusal:
                return RequeueResult(
                    requeued=False, restart_count=job.restart_count, refused=refusal
                )
            if not job.requeue and job.state.is_active:
                await self._control.make_requeueable(job_id)
            _beat("requeuehold")
            outcome = await self._control.requeue_hold(job_id)
            job = await self._job(job_id)
            if job.restart_count == attempt:
                message = outcome.stderr.strip() or "restart count did not move"
                if "disabled" in message or "already finished" in message:
                    raise non_retryable(
                        f"Slurm refused to requeue job {job_id}: {message}",
                        ErrorType.REQUEUE_REFUSED,
                    )
                raise retryable(
                    f"requeuehold of job {job_id} not verified: {message}",
                    ErrorType.STEP_NOT_VERIFIED,
                )
            steps.append(f"requeuehold: attempt {attempt} -> {job.restart_count}")
            if self._chaos_step_delay:  # lets tests kill a worker between hold and release
                _beat("chaos delay")
                await asyncio.sleep(self._chaos_step_delay)
        else:
            steps.append(f"requeuehold already done (restart count {job.restart_count})")

        # StartTime=now only sticks once the requeue has finished and the job is PENDING again.
        job = await self._wait_for(
            job_id,
            "pending after requeue",
            lambda j: j.state is JobState.PENDING or j.state is JobState.RUNNING,
            REQUEUE_SETTLE_TIMEOUT_S,
        )
        wanted = sorted(set(job.excluded_nodes) | set(request.exclude_nodes))
        if job.state is JobState.PENDING and job.held:
            await _past_credential_revocation(time.time())
            _beat("update")
            outcome = await self._control.set_exclusions_and_start_now(job_id, wanted)
            job = await self._job(job_id)
            missing = set(wanted) - set(job.excluded_nodes)
            if missing:
                raise retryable(
                    f"ExcNodeList of job {job_id} lacks {sorted(missing)}: "
                    f"{outcome.stderr.strip()}",
                    ErrorType.STEP_NOT_VERIFIED,
                )
            steps.append(f"update: ExcNodeList={','.join(wanted) or '(none)'}, StartTime=now")
            _beat("release")
            await self._release_verified(job_id, request.release_timeout_s)
            steps.append("release")
        else:
            steps.append(f"already released ({job.state}, {job.state_reason})")
        job = await self._job(job_id)
        return RequeueResult(
            requeued=True,
            restart_count=job.restart_count,
            excluded_nodes=list(job.excluded_nodes),
            steps=steps,
        )

    async def _refuse_if_no_fit(self, job: SlurmJob, excluded: list[str]) -> str:
        if not excluded or not job.partition:
            return ""
        try:
            states = await self._control.partition_nodes(job.partition)
        except SlurmError as exc:
            raise retryable(str(exc), ErrorType.SLURM_UNAVAILABLE) from exc
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
                raise retryable(
                    f"job {job_id} still held {timeout:.0f}s after release",
                    ErrorType.STEP_NOT_VERIFIED,
                )
            _beat("release not yet effective")
            await asyncio.sleep(1.0)

    @activity.defn(name="cancel_job")
    async def cancel_job(self, request: CancelRequest) -> str:
        """scancel the attempt ajr gave up on; never a later attempt, never twice."""
        job = await self._job(request.job_id)
        if job.restart_count != request.attempt:
            return f"not cancelled: job is at attempt {job.restart_count}"
        if not job.state.is_active:
            return f"nothing to cancel: attempt already {job.state}"
        await self._control.cancel(request.job_id)
        job = await self._wait_for(
            request.job_id,
            "ended after scancel",
            lambda j: not j.state.is_active,
            REQUEUE_SETTLE_TIMEOUT_S,
        )
        log.info("cancelled job %s attempt %s: %s", request.job_id, request.attempt, request.reason)
        return f"cancelled ({job.state})"
