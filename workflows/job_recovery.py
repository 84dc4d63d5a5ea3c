"""One durable workflow per enrolled Slurm job: watch each attempt, decide, act, verify.

History stays small for weeks-long jobs: watching an attempt is one long heartbeating activity
(no events per poll), and the workflow continues as new at every attempt boundary.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import Any

from temporalio import workflow
from temporalio.common import SearchAttributeUpdate
from temporalio.exceptions import ActivityError, ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.actions import SlurmActions
    from activities.records import RecordActivities
    from activities.watch import WatchActivities
    from models import search_attributes as sa
    from models.recovery import (
        CANCEL_ON_STOP,
        LIVE_ANOMALIES,
        NOTES,
        Action,
        AttemptRecord,
        CancelRequest,
        Decision,
        DecisionEvent,
        ExcludeNodesRequest,
        JobOutcome,
        JobRecoveryInput,
        JobStatus,
        LogCursor,
        Observation,
        Observed,
        Outcome,
        PrepareRequest,
        RequeueRequest,
        RequeueResult,
        WatchRequest,
    )
    from models.slurm import is_valid_node_name
    from models.suspects import Suspect, SuspectQuery
    from workflows import options
    from workflows.policy import counts_as_failure, decide, effective_max_requeues


def workflow_id(cluster: str, job_id: int) -> str:
    return f"ajr-{cluster}-{job_id}"


def _keep_watching(ignore: list[str], observation: Observation) -> None:
    """Watch the same attempt on, without this kind of finding returning again."""
    if observation.kind.value not in ignore:
        ignore.append(observation.kind.value)


def _error_type(error: ActivityError) -> str:
    cause = error.cause
    return cause.type or "" if isinstance(cause, ApplicationError) else ""


@workflow.defn(name="JobRecovery")
class JobRecoveryWorkflow:
    @workflow.init
    def __init__(self, job: JobRecoveryInput) -> None:
        self.job = job
        self.state = job.state
        self.outcome = Outcome.NOT_MANAGED if job.not_managed_reason else Outcome.RUNNING
        self.phase = "enrolled"

    # ---- the main loop -------------------------------------------------------------------

    @workflow.run
    async def run(self, job: JobRecoveryInput) -> JobOutcome:
        if job.not_managed_reason:
            self._show(f"**not managed**: {job.not_managed_reason}")
            workflow.logger.warning("job %s not managed: %s", job.job_id, job.not_managed_reason)
            return self._finish(Outcome.NOT_MANAGED, job.not_managed_reason)
        if not self.state.prepared:
            await self._prepare()

        ignore: list[str] = list(self.state.resume_ignore)
        cursor = self.state.resume_cursor or LogCursor()
        self.state.resume_cursor, self.state.resume_ignore = None, []
        straggler: Observation | None = None  # a straggler waiting for its checkpoint
        straggler_by = 0.0  # ... at most until then (epoch seconds)
        while True:
            if self.state.stop_requested:
                return self._finish(Outcome.STOPPED_BY_OPERATOR, self.state.stop_reason)
            if workflow.info().is_continue_as_new_suggested() and straggler is None:
                # Same attempt, fresh history: carry the watch's position so nothing is re-read.
                self.state.resume_cursor, self.state.resume_ignore = cursor, ignore
                return await self._next_run()
            observation = await self._watch(ignore, cursor, straggler, straggler_by)
            if observation is None:
                continue  # stopped: the loop's first check finishes
            if observation.kind in NOTES:
                # Slurm stopped answering (or answers again): say so, decide nothing, watch on.
                self._note(observation.detail)
                cursor = observation.cursor
                continue
            acting = self._acting()
            if observation.kind is Observed.STRAGGLER:
                if straggler is None and acting:
                    # Slow is not dead: requeue once the next checkpoint is saved.
                    straggler, cursor = observation, observation.cursor
                    straggler_by = (
                        workflow.now().timestamp() + self.job.config.straggler_checkpoint_wait_s
                    )
                    _keep_watching(ignore, observation)
                    await self._record(observation, self._straggler_wait(observation), acted=False)
                    continue
                if straggler is not None:
                    if not acting:  # paused while waiting: wait for the save after this one
                        straggler.cursor = cursor = observation.cursor
                        straggler_by = (
                            workflow.now().timestamp() + self.job.config.straggler_checkpoint_wait_s
                        )
                        continue
                    observation.culprit_nodes = straggler.culprit_nodes
                    observation.evidence = [*straggler.evidence, observation.detail]
            decision = await self._decide(observation)
            await self._record(
                observation,
                decision,
                acted=acting and decision.action not in (Action.WATCH, Action.COMPLETE),
            )

            if observation.kind is Observed.LOG_MISSING:
                self._note(observation.detail)
                _keep_watching(ignore, observation)  # the attempt's state is still watched
                cursor = observation.cursor
                continue
            if decision.action is Action.WATCH:
                self.state.attempt = observation.restart_count
                return await self._next_run()
            if decision.action is Action.COMPLETE:
                return self._finish(decision.outcome, decision.reasons[-1])
            if not acting:
                if observation.kind in LIVE_ANOMALIES:
                    _keep_watching(ignore, observation)  # the same attempt, to its end
                    cursor = observation.cursor
                    continue
                if self.job.config.observe_only:
                    return self._finish(Outcome.OBSERVED_ONLY, "; ".join(decision.reasons))
                await self._wait_for_resume()
                if self.state.stop_requested:
                    continue
                # Decide again: the operator may have excluded nodes or changed the limit.
                decision = await self._decide(observation)
                await self._record(observation, decision, acted=True)
            if self.state.stop_requested:
                continue  # `stop` arrived while deciding: the job stays untouched
            outcome = await self._act(observation, decision)
            if outcome is not None:
                return outcome
            # The attempt ended by other hands before ajr acted: watch its end instead.
            _keep_watching(ignore, observation)
            cursor = observation.cursor

    def _acting(self) -> bool:
        return not (self.state.paused or self.job.config.observe_only)

    async def _act(self, observation: Observation, decision: Decision) -> JobOutcome | None:
        """Carry out a decision; None when the attempt ended before ajr could act on it."""
        if decision.action is Action.REQUEUE:
            result = await self._requeue(observation, decision)
            if result.requeued:
                self.state.attempts[-1].steps = list(result.steps)
                self.state.ajr_excluded = sorted(
                    set(self.state.ajr_excluded) | set(decision.exclude_nodes)
                )
                # Exclusions the operator added meanwhile stay for the next requeue.
                self.state.operator_excluded = sorted(
                    set(self.state.operator_excluded) - set(decision.exclude_nodes)
                )
                self.state.attempt = observation.attempt + 1
                return await self._next_run()
            if result.ended_state:
                self.state.attempts[-1].steps = list(result.steps)
                if result.restart_count > observation.attempt:  # cancelled while held
                    reason = f"job {result.ended_state} while held for requeue: not released"
                    self.state.attempts[-1].reasons.append(reason)
                    return self._finish(Outcome.CANCELLED_BY_USER, reason)
                self.state.attempts[-1].reasons.append(
                    f"not requeued: the attempt was already {result.ended_state}"
                )
                return None
            reason = f"not requeued: {result.refused}"
            self.state.attempts[-1].reasons.append(reason)
            self._note(reason)
            if observation.kind in CANCEL_ON_STOP:
                await self._cancel(observation, reason)
            return self._finish(Outcome.WOULD_NOT_FIT, reason)
        if decision.action is Action.CANCEL:
            await self._cancel(observation, "; ".join(decision.reasons))
        return self._finish(decision.outcome, decision.reasons[-1])

    async def _next_run(self) -> JobOutcome:
        """Continue as new at the attempt boundary: a fresh history per attempt."""
        await workflow.wait_condition(workflow.all_handlers_finished)
        workflow.continue_as_new(replace(self.job, state=self.state))

    # ---- steps --------------------------------------------------------------------------

    async def _prepare(self) -> None:
        if self.job.config.observe_only:
            self.state.prepared = True
            return
        self.phase = "preparing"
        try:
            result = await workflow.execute_activity_method(
                SlurmActions.prepare_job,
                PrepareRequest(job_id=self.job.job_id),
                start_to_close_timeout=options.ACTION_START_TO_CLOSE,
                heartbeat_timeout=options.ACTION_HEARTBEAT,
                retry_policy=options.ACTION_RETRY,
            )
        except ActivityError as error:
            self._note(f"enrolment step failed: {error.cause or error}")
        else:
            if result.detail:
                self._note(result.detail)
        self.state.prepared = True

    def _straggler_wait(self, observation: Observation) -> Decision:
        wait = self.job.config.straggler_checkpoint_wait_s
        where = ",".join(observation.culprit_nodes) or "unknown nodes"
        return Decision(
            Action.WATCH,
            reasons=[
                f"attempt {observation.attempt}: STRAGGLER on {where} ({observation.detail})",
                f"requeue after the next checkpoint save, or within {wait:.0f}s",
            ],
        )

    async def _watch(
        self,
        ignore: list[str],
        cursor: LogCursor,
        straggler: Observation | None = None,
        straggler_by: float = 0.0,
    ) -> Observation | None:
        self.phase = f"watching attempt {self.state.attempt}"
        self._show()
        handle = workflow.start_activity_method(
            WatchActivities.watch_attempt,
            WatchRequest(
                cluster=self.job.cluster,
                job_id=self.job.job_id,
                attempt=self.state.attempt,
                config=self.job.config,
                ignore=list(ignore),
                cursor=cursor,
                earlier_logs=sorted({r.log_path for r in self.state.attempts if r.log_path}),
                return_after_checkpoints=straggler.cursor.checkpoints if straggler else -1,
                return_by=straggler_by if straggler else 0.0,
            ),
            start_to_close_timeout=options.WATCH_START_TO_CLOSE,
            heartbeat_timeout=options.WATCH_HEARTBEAT,
            retry_policy=options.WATCH_RETRY,
            summary=f"watch job {self.job.job_id} attempt {self.state.attempt}",
        )
        await workflow.wait_condition(lambda: handle.done() or self.state.stop_requested)
        if self.state.stop_requested and not handle.done():
            handle.cancel()
            with contextlib.suppress(ActivityError, asyncio.CancelledError):
                await handle
            return None
        return await handle

    async def _decide(self, observation: Observation) -> Decision:
        history = self.state.attempts
        if history and history[-1].attempt == observation.attempt and not history[-1].acted:
            history = history[:-1]  # this attempt's earlier, unacted record is not another failure
        return decide(
            observation,
            config=self.job.config,
            max_requeues=self._max_requeues(),
            history=history,
            operator_exclusions=self.state.operator_excluded,
            suspects=await self._suspects(observation),
        )

    async def _suspects(self, observation: Observation) -> list[Suspect]:
        """Nodes of this failed attempt that other jobs' failures implicated too."""
        failed = observation.kind in LIVE_ANOMALIES or (
            observation.kind is Observed.EXITED
            and observation.state not in ("COMPLETED", "CANCELLED")
        )
        if not failed or not observation.nodes:
            return []
        config = self.job.config
        try:
            return await workflow.execute_activity_method(
                RecordActivities.find_suspects,
                SuspectQuery(
                    cluster=self.job.cluster,
                    job_id=self.job.job_id,
                    nodes=observation.nodes,
                    culprits=observation.culprit_nodes,
                    window_s=config.suspect_window_s,
                    min_jobs=config.suspect_min_jobs,
                    now=workflow.now().timestamp(),
                ),
                start_to_close_timeout=options.RECORD_START_TO_CLOSE,
                retry_policy=options.RECORD_RETRY,
            )
        except ActivityError as error:
            self._note(f"suspect nodes unknown (database): {error.cause or error}")
            return []

    async def _record(self, observation: Observation, decision: Decision, *, acted: bool) -> None:
        """Record the decision, its reasons and evidence, before acting on it."""
        now = workflow.now().timestamp()
        reasons = list(decision.reasons)
        if not acted and decision.action not in (Action.WATCH, Action.COMPLETE):
            reasons.append(
                "observe-only: not acting" if self.job.config.observe_only else "paused: not acting"
            )
        record = AttemptRecord(
            attempt=observation.attempt,
            observed=observation.kind.value,
            category=str(observation.category),
            state=observation.state,
            exit=f"signal {observation.signal}"
            if observation.signal
            else f"exit {observation.exit_code}",
            checkpoints=observation.cursor.checkpoints,
            log_path=observation.cursor.path,
            nodes=observation.nodes,
            evidence=observation.evidence,
            action=decision.action.value,
            failed=counts_as_failure(observation, decision),
            acted=acted,
            reasons=reasons,
            excluded_nodes=decision.exclude_nodes,
            decided_at=now,
            first_step_at=observation.cursor.first_step_at,
            loaded_step=observation.cursor.loaded_step,
            loaded_at=observation.cursor.loaded_at,
            last_save_step=observation.cursor.last_save_step,
            last_save_at=observation.cursor.last_save_at,
            interrupted_saves=observation.cursor.interrupted_saves,
        )
        # A live anomaly not acted on is followed by the same attempt's exit: keep one record.
        previous = self.state.attempts[-1] if self.state.attempts else None
        if previous is not None and previous.attempt == record.attempt and not previous.acted:
            self.state.attempts[-1] = record
        else:
            self.state.attempts.append(record)
        workflow.logger.info(
            "job %s attempt %s: %s -> %s (%s)",
            self.job.job_id,
            observation.attempt,
            observation.kind.value,
            decision.action.value,
            "; ".join(reasons),
        )
        updates: list[SearchAttributeUpdate[Any]] = [
            sa.SLURM_RESTART_COUNT.value_set(observation.restart_count or observation.attempt)
        ]
        if observation.kind is not Observed.REQUEUED:
            updates.append(sa.AJR_LAST_ANOMALY.value_set(observation.kind.value))
        workflow.upsert_search_attributes(updates)
        self._show()
        sequence = len(self.state.attempts)
        event = DecisionEvent(
            # Unique per decision: a retried activity or a replay writes it once, and a later
            # decision about the same attempt (straggler wait, then requeue) is a new row.
            event_id=(
                f"{workflow.info().workflow_id}/{observation.attempt}/{sequence}/"
                f"{observation.kind.value}/{decision.action.value}/{int(acted)}"
            ),
            cluster=self.job.cluster,
            job_id=self.job.job_id,
            attempt=observation.attempt,
            observed=observation.kind.value,
            action=decision.action.value,
            acted=acted,
            outcome=decision.outcome.value,
            reasons=reasons,
            evidence=observation.evidence,
            excluded_nodes=decision.exclude_nodes,
            decided_at=now,
            # Remembered across jobs only for real failures (not a wait, a success or a cancel).
            culprit_nodes=observation.culprit_nodes if record.failed else [],
        )
        try:
            await workflow.execute_activity_method(
                RecordActivities.record_decision,
                event,
                start_to_close_timeout=options.RECORD_START_TO_CLOSE,
                retry_policy=options.RECORD_RETRY,
            )
        except ActivityError as error:
            self._note(
                f"decision not written to the database (kept in history): {error.cause or error}"
            )

    async def _requeue(self, observation: Observation, decision: Decision) -> RequeueResult:
        """Requeue until Slurm confirms it; a step that keeps failing is raised, never dropped."""
        request = RequeueRequest(
            cluster=self.job.cluster,
            job_id=self.job.job_id,
            attempt=observation.attempt,
            exclude_nodes=decision.exclude_nodes,
            release_timeout_s=self.job.config.release_timeout_s,
            live=observation.kind in LIVE_ANOMALIES,
        )
        self.phase = f"requeueing attempt {observation.attempt}"
        self._show()
        rounds = 0
        while True:
            try:
                result = await workflow.execute_activity_method(
                    SlurmActions.requeue_job,
                    request,
                    start_to_close_timeout=options.ACTION_START_TO_CLOSE,
                    heartbeat_timeout=options.ACTION_HEARTBEAT,
                    retry_policy=options.ACTION_RETRY,
                    summary=f"requeue job {self.job.job_id} attempt {observation.attempt}",
                )
            except ActivityError as error:
                kind = _error_type(error)
                if kind in ("JobNotFound", "RequeueRefused", "InvalidRequest"):
                    self._note(f"requeue impossible: {error.cause}")
                    outcome = Outcome.VANISHED if kind == "JobNotFound" else Outcome.NOT_REQUEUEABLE
                    self._finish(outcome, str(error.cause))
                    raise ApplicationError(
                        f"job {self.job.job_id}: {error.cause}", type=kind, non_retryable=True
                    ) from error
                rounds += 1
                self._note(
                    f"recovery watchdog: requeue of attempt {observation.attempt} not verified "
                    f"(round {rounds}): {error.cause or error}"
                )
                workflow.logger.warning(
                    "job %s: requeue not verified: %s", self.job.job_id, error.cause
                )
                await workflow.sleep(options.ACTION_ROUND_PAUSE)
                continue
            for step in result.steps:
                workflow.logger.info("job %s: %s", self.job.job_id, step)
            return result

    async def _cancel(self, observation: Observation, reason: str) -> None:
        self.phase = f"cancelling attempt {observation.attempt}"
        try:
            detail = await workflow.execute_activity_method(
                SlurmActions.cancel_job,
                CancelRequest(job_id=self.job.job_id, attempt=observation.attempt, reason=reason),
                start_to_close_timeout=options.ACTION_START_TO_CLOSE,
                heartbeat_timeout=options.ACTION_HEARTBEAT,
                retry_policy=options.ACTION_RETRY,
            )
            self._note(f"attempt {observation.attempt} {detail}")
        except ActivityError as error:
            self._note(f"could not cancel attempt {observation.attempt}: {error.cause or error}")

    async def _wait_for_resume(self) -> None:
        self.phase = "paused: waiting for resume"
        self._show()
        await workflow.wait_condition(lambda: not self.state.paused or self.state.stop_requested)

    # ---- bookkeeping ---------------------------------------------------------------------

    def _max_requeues(self) -> int:
        return effective_max_requeues(
            self.job.config, self.job.max_requeue_times, self.state.max_requeues_override
        )

    def _note(self, warning: str) -> None:
        self.state.warnings = [*self.state.warnings[-19:], warning]
        workflow.logger.warning("job %s: %s", self.job.job_id, warning)

    def _finish(self, outcome: Outcome, reason: str) -> JobOutcome:
        self.outcome = outcome
        self.phase = "done"
        workflow.upsert_search_attributes([sa.AJR_OUTCOME.value_set(outcome.value)])
        self._show(f"**{outcome.value}**: {reason}")
        return JobOutcome(
            job_id=self.job.job_id,
            outcome=outcome,
            reason=reason,
            attempts=len(self.state.attempts),
        )

    def _show(self, headline: str = "") -> None:
        """Markdown shown by the Temporal UI; writes no history event."""
        lines = [headline or f"**job {self.job.job_id}**: {self.phase}"]
        lines.append(
            f"requeues {self.state.attempt} of {self._max_requeues()}, "
            f"excluded {','.join(self.state.ajr_excluded) or 'none'}"
            + (", **paused**" if self.state.paused else "")
            + (", observe-only" if self.job.config.observe_only else "")
        )
        for record in self.state.attempts[-5:]:
            lines.append(
                f"- attempt {record.attempt}: {record.observed} -> {record.action}: "
                + "; ".join(record.reasons)
            )
        for warning in self.state.warnings[-3:]:
            lines.append(f"- warning: {warning}")
        workflow.set_current_details("\n".join(lines))

    # ---- steering from the temporal CLI --------------------------------------------------

    @workflow.query
    def status(self) -> JobStatus:
        last = self.state.attempts[-1] if self.state.attempts else None
        return JobStatus(
            job_id=self.job.job_id,
            cluster=self.job.cluster,
            managed=not self.job.not_managed_reason,
            attempt=self.state.attempt,
            requeues_used=self.state.attempt,
            max_requeues=self._max_requeues(),
            paused=self.state.paused,
            observe_only=self.job.config.observe_only,
            excluded_nodes=sorted(set(self.state.ajr_excluded) | set(self.state.operator_excluded)),
            outcome=self.outcome.value,
            last_action=last.action if last else "",
            last_reasons=last.reasons
            if last
            else [self.job.not_managed_reason]
            if self.job.not_managed_reason
            else [],
            warnings=list(self.state.warnings),
            phase=self.phase,
        )

    @workflow.query
    def attempts(self) -> list[AttemptRecord]:
        return list(self.state.attempts)

    @workflow.signal
    def pause(self) -> None:
        """Keep watching and recording, but change nothing in Slurm."""
        self.state.paused = True
        self._show()

    @workflow.signal
    def resume(self) -> None:
        self.state.paused = False
        self._show()

    @workflow.signal
    def stop(self, reason: str = "") -> None:
        """Stop managing the job; the job itself is left untouched."""
        self.state.stop_requested = True
        self.state.stop_reason = reason or "stopped by operator"

    @workflow.update
    def exclude_nodes(self, request: ExcludeNodesRequest) -> list[str]:
        """Add nodes to exclude at the next requeue; returns every node ajr will exclude."""
        self.state.operator_excluded = sorted(
            set(self.state.operator_excluded) | set(request.nodes)
        )
        self._note(
            f"operator excludes {','.join(request.nodes)}: {request.reason or 'no reason given'}"
        )
        return sorted(set(self.state.ajr_excluded) | set(self.state.operator_excluded))

    @exclude_nodes.validator
    def _validate_exclude_nodes(self, request: ExcludeNodesRequest) -> None:
        if not request.nodes:
            raise ValueError("nodes must be a non-empty list")
        bad = [
            node
            for node in request.nodes
            if not isinstance(node, str) or not is_valid_node_name(node)
        ]
        if bad:
            raise ValueError(f"invalid node name(s): {bad}")

    @workflow.update
    def set_max_requeues(self, value: int) -> int:
        """Override the job's max_requeue_times; returns the limit now in force."""
        self.state.max_requeues_override = value
        self._show()
        return self._max_requeues()

    @set_max_requeues.validator
    def _validate_max_requeues(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"max requeues must be a non-negative integer, got {value!r}")


__all__ = ["JobRecoveryWorkflow", "workflow_id"]
