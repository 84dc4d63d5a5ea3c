"""One durable workflow per enrolled Slurm job: watch each attempt, decide, act, verify.

History stays small for weeks-long jobs: watching an attempt is one long heartbeating activity
(no events per poll), and the workflow continues as new at every attempt boundary, or earlier
when the server suggests it, carrying where the watch of the attempt stands.

Every change here must replay the histories in tests/histories (`make test` does); a change to
what the workflow schedules, or in which order, goes behind `workflow.patched` (README: "Changing
a workflow safely").
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from datetime import timedelta
from typing import Any, TypeVar

from temporalio import workflow
from temporalio.common import RetryPolicy, SearchAttributeUpdate
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError

with workflow.unsafe.imports_passed_through():
    from models import search_attributes as sa
    from models.activities import ActivityName
    from models.errors import ErrorType
    from models.failure_domains import FailureDomainsRequest, FailureDomainsResult
    from models.notifications import Notice, NoticeKind, NotifyResult
    from models.quarantine import QuarantineRequest, QuarantineResult
    from models.recovery import (
        CANCEL_ON_STOP,
        LIVE_ANOMALIES,
        NOTES,
        Action,
        AttemptRecord,
        CancelRequest,
        CancelResult,
        Decision,
        DecisionEvent,
        ExcludeNodesRequest,
        JobOutcome,
        JobRecoveryInput,
        JobStatus,
        LogCursor,
        MaxRequeuesRequest,
        Observation,
        Observed,
        Outcome,
        PrepareRequest,
        PrepareResult,
        RecordResult,
        RequeueRequest,
        RequeueResult,
        StopRequest,
        SuspectsResult,
        WatchPosition,
        WatchRequest,
    )
    from models.rollback import RollbackRequest, RollbackResult
    from models.slurm import is_valid_node_name
    from models.suspects import Suspect, SuspectQuery
    from workflows import budgets, exclusions, notices, options, records
    from workflows import failure_domains as domain_rule
    from workflows import quarantine as quarantine_rule
    from workflows import rollback as rollback_rule
    from workflows.policy import (
        STOPS_RECOVERY,
        decide,
        effective_max_requeues,
        may_implicate_nodes,
        straggler_wait,
    )

Result = TypeVar("Result")

# Patches (README, "Changing a workflow safely"); retire each with `workflow.deprecate_patch`
# once no running history lacks its marker, then remove it.
# A pending straggler wait no longer holds a run open when the server suggests continue-as-new.
PATCH_STRAGGLER_CONTINUES_AS_NEW = "straggler-wait-survives-continue-as-new"
# Notices (requeued, stopped, not managed, stuck, node suspect) once ajr has acted, for jobs
# enrolled with a notification channel configured.
PATCH_NOTIFY = "notify-after-acting"
# The failure's category and culprit nodes as search attributes (AjrCategory, AjrCulpritNodes).
PATCH_CATEGORY_ATTRIBUTES = "category-culprit-search-attributes"

# Outcomes a person should hear about: recovery ended without the job completing.
_STOPS_TO_TELL = frozenset(
    set(Outcome)
    - {Outcome.RUNNING, Outcome.COMPLETED, Outcome.CANCELLED_BY_USER, Outcome.NOT_MANAGED}
)
# Recovery policy v2: budgets by cause with back-off, done means done (workflows/budgets.py).
PATCH_POLICY_V2 = "recovery-policy-v2"
# The decision records match what Slurm did: a decision the database refused is written later
# (kept in the state, retried with back-off and before the workflow ends), and one recorded as
# acted whose requeue never ran (the attempt ended first) is marked acted=false.
PATCH_RECORDS_MATCH_SLURM = "decision-records-match-slurm"
# A leaf switch excluded after repeated network failures on different nodes of it
# (workflows/failure_domains.py): one `read_failure_domains` activity, only when it may apply.
PATCH_FAILURE_DOMAINS = "failure-domain-exclusion"
# A kept decision marked not acted while the background writer was writing it stays kept and is
# written again: the database then marks the row it just stored acted (activities/records.py).
PATCH_REWRITE_CHANGED_UNWRITTEN = "rewrite-decision-changed-while-written"


def workflow_id(cluster: str, job_id: int) -> str:
    return f"ajr-{cluster}-{job_id}"


def _error_type(error: ActivityError) -> ErrorType | None:
    cause = error.cause
    if isinstance(cause, ApplicationError) and cause.type in set(ErrorType):
        return ErrorType(cause.type)
    return None


@workflow.defn(name="JobRecovery")
class JobRecoveryWorkflow:
    @workflow.init
    def __init__(self, job: JobRecoveryInput) -> None:
        self.job = job
        self.state = job.state
        self.outcome = Outcome.NOT_MANAGED if job.not_managed_reason else Outcome.RUNNING
        self.phase = "enrolled"
        self.position = self._carried_position()
        self._suspects_seen: list[Suspect] = []  # of the last decision: quarantine candidates
        self._last_event_id = ""  # of the last decision recorded (or kept to write later)
        self._writer: asyncio.Task[None] | None = None  # writes state.unwritten, backing off

    def _carried_position(self) -> WatchPosition:
        """Where the watch of this attempt stands: carried from the previous run, or fresh."""
        state = self.state
        position = state.watch or WatchPosition(
            cursor=state.resume_cursor or LogCursor(), ignore=list(state.resume_ignore)
        )
        state.resume_cursor, state.resume_ignore, state.watch = None, [], None
        return position

    # ---- the main loop -------------------------------------------------------------------

    @workflow.run
    async def run(self, job: JobRecoveryInput) -> JobOutcome:
        if job.not_managed_reason:
            refused = self._not_managed(job.not_managed_reason)
            await self._notify_end(NoticeKind.NOT_MANAGED, refused.reason)
            return refused
        if self.state.unwritten and workflow.patched(PATCH_RECORDS_MATCH_SLURM):
            self._write_later()  # carried from the previous run
        outcome = await self._recover()
        await self._write_before_end()
        return outcome

    async def _recover(self) -> JobOutcome:
        """Watch, decide and act until recovery of this job ends (or continues as new)."""
        if not self.state.prepared:
            await self._prepare()
        while True:
            if self.state.stop_requested:
                return self._finish(Outcome.STOPPED_BY_OPERATOR, self.state.stop_reason)
            if self._continue_as_new_due():
                return await self._continue_same_attempt()
            observation = await self._watch()
            if observation is None:
                continue  # stopped: the loop's first check finishes
            outcome = await self._handle(observation)
            if outcome is not None:
                if outcome.outcome in _STOPS_TO_TELL:
                    await self._notify_end(
                        NoticeKind.STOPPED, f"{outcome.outcome}: {outcome.reason}"
                    )
                return outcome

    async def _handle(self, observation: Observation) -> JobOutcome | None:
        """One observation: note it, wait on it, or decide, record and act. None: watch on."""
        if observation.kind in NOTES:
            # Slurm stopped answering (or answers again): say so, decide nothing, watch on.
            self._note(observation.detail)
            self.position.cursor = observation.cursor
            return None
        acting = self._acting()  # as it stands when the observation arrives
        if observation.kind is Observed.STRAGGLER and not await self._straggler_due(
            observation, acting
        ):
            return None
        decision = await self._decide(observation)
        await self._record(
            observation, decision, acted=acting and decision.action not in records.PASSIVE
        )
        await self._quarantine(observation, acting)
        if observation.kind is Observed.LOG_MISSING:
            self._note(observation.detail)
            self._keep_watching(observation)  # the attempt's state is still watched
            return None
        if decision.action is Action.WATCH and observation.kind in LIVE_ANOMALIES:
            # Policy v2: an in-job restarter handles it in place; watch the attempt on.
            self._note(decision.reasons[-1])
            self._keep_watching(observation)
            return None
        if decision.action is Action.WATCH:
            return await self._continue_next_attempt(observation.restart_count)
        if decision.action is Action.COMPLETE:
            return self._finish(decision.outcome, decision.reasons[-1])
        if not acting:
            if observation.kind in LIVE_ANOMALIES:
                self._keep_watching(observation)  # the same attempt, to its end
                return None
            if self.job.config.observe_only:
                return self._finish(Outcome.OBSERVED_ONLY, "; ".join(decision.reasons))
            resumed = await self._decide_after_resume(observation)
            if resumed is None:
                return None  # stopped while paused
            decision = resumed
        if self.state.stop_requested:
            return None  # `stop` arrived while deciding: the job stays untouched
        outcome = await self._act(observation, decision)
        if outcome is None:
            # The attempt ended by other hands before ajr acted: watch its end instead.
            self._keep_watching(observation)
        return outcome

    async def _straggler_due(self, observation: Observation, acting: bool) -> bool:
        """A straggler is requeued after its next checkpoint save: is that now?"""
        position = self.position
        if position.straggler is None:
            if not acting:
                return True  # decided (and not acted on) like any anomaly while paused
            # Slow is not dead: wait for the next checkpoint save, at most straggler_wait.
            position.straggler, position.cursor = observation, observation.cursor
            position.straggler_by = self._straggler_deadline()
            self._keep_watching(observation)
            await self._record(
                observation, straggler_wait(observation, self.job.config), acted=False
            )
            return False
        if not acting:  # paused while waiting: wait for the save after this one
            position.straggler.cursor = position.cursor = observation.cursor
            position.straggler_by = self._straggler_deadline()
            return False
        observation.culprit_nodes = position.straggler.culprit_nodes
        observation.evidence = [*position.straggler.evidence, observation.detail]
        return True

    def _straggler_deadline(self) -> float:
        return workflow.now().timestamp() + self.job.config.straggler_checkpoint_wait_s

    def _keep_watching(self, observation: Observation) -> None:
        """Watch the same attempt on from here, without this kind of finding returning again."""
        if observation.kind not in self.position.ignore:
            self.position.ignore.append(observation.kind)
        self.position.cursor = observation.cursor

    def _acting(self) -> bool:
        return not (self.state.paused or self.job.config.observe_only)

    async def _decide_after_resume(self, observation: Observation) -> Decision | None:
        """Paused over a failure: wait for resume, then decide again (None: stopped meanwhile).

        The operator may have excluded nodes or changed the limit while the job was paused.
        """
        await self._wait_for_resume()
        if self.state.stop_requested:
            return None
        decision = await self._decide(observation)
        await self._record(observation, decision, acted=True)
        return decision

    async def _act(self, observation: Observation, decision: Decision) -> JobOutcome | None:
        """Carry out a decision; None when the attempt ended before ajr could act on it."""
        if decision.action is Action.REQUEUE:
            return await self._requeue_and_continue(observation, decision)
        if decision.action is Action.CANCEL:
            await self._cancel(observation, "; ".join(decision.reasons))
        return self._finish(decision.outcome, decision.reasons[-1])

    async def _requeue_and_continue(
        self, observation: Observation, decision: Decision
    ) -> JobOutcome | None:
        await self._rollback(observation)
        result = await self._requeue(observation, decision)
        last = self.state.attempts[-1]
        last.held_at, last.released_at = result.held_at, result.released_at
        if result.requeued:
            last.steps = list(result.steps)
            self.state.ajr_excluded = sorted(
                set(self.state.ajr_excluded) | set(decision.exclude_nodes)
            )
            # Exclusions the operator added meanwhile stay for the next requeue.
            self.state.operator_excluded = sorted(
                set(self.state.operator_excluded) - set(decision.exclude_nodes)
            )
            if self._notifying():
                await self._notify(
                    notices.requeued(
                        workflow_id=workflow.info().workflow_id,
                        cluster=self.job.cluster,
                        job_id=self.job.job_id,
                        job_name=self.job.job_name,
                        user=self.job.user_name,
                        record=last,
                        excluded=sorted(set(result.excluded_nodes) | set(decision.exclude_nodes)),
                        max_requeues=self._max_requeues(),
                        at=workflow.now().timestamp(),
                    )
                )
            return await self._continue_next_attempt(observation.attempt + 1)
        if result.ended_state is not None:
            last.steps = list(result.steps)
            if result.restart_count > observation.attempt:  # cancelled while held
                reason = f"job {result.ended_state} while held for requeue: not released"
                last.reasons.append(reason)
                return self._finish(Outcome.CANCELLED_BY_USER, reason)
            last.reasons.append(f"not requeued: the attempt was already {result.ended_state}")
            if workflow.patched(PATCH_RECORDS_MATCH_SLURM):
                self._supersede(last)
            return None
        reason = f"not requeued: {result.refused}"
        last.reasons.append(reason)
        self._note(reason)
        if observation.kind in CANCEL_ON_STOP:
            await self._cancel(observation, reason)
        return self._finish(Outcome.WOULD_NOT_FIT, reason)

    # ---- continue-as-new -------------------------------------------------------------------

    def _continue_as_new_due(self) -> bool:
        """The server suggests a fresh history; a straggler wait goes along since its patch."""
        if not workflow.info().is_continue_as_new_suggested():
            return False
        return self.position.straggler is None or workflow.patched(PATCH_STRAGGLER_CONTINUES_AS_NEW)

    async def _continue_same_attempt(self) -> JobOutcome:
        """Same attempt, fresh history: carry the watch's position so nothing is re-read."""
        self.state.watch = self.position
        return await self._continue_as_new()

    async def _continue_next_attempt(self, attempt: int) -> JobOutcome:
        """At the attempt boundary: a fresh history, and the next attempt watched from the top."""
        self.state.attempt = attempt
        self.state.watch = None
        return await self._continue_as_new()

    async def _continue_as_new(self) -> JobOutcome:
        await workflow.wait_condition(workflow.all_handlers_finished)
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()  # state.unwritten goes along; the next run writes it
        workflow.continue_as_new(replace(self.job, state=self.state))

    # ---- steps: each one activity (or none) --------------------------------------------------

    async def _activity(
        self,
        name: ActivityName,
        arg: Any,
        result_type: type[Result],
        *,
        start_to_close: timedelta,
        retry: RetryPolicy,
        heartbeat: timedelta | None = None,
        summary: str | None = None,
    ) -> Result:
        """Call an activity by its name; the workflow never imports the activities' code."""
        result: Result = await workflow.execute_activity(
            name,
            arg,
            result_type=result_type,
            start_to_close_timeout=start_to_close,
            heartbeat_timeout=heartbeat,
            retry_policy=retry,
            summary=summary,
        )
        return result

    async def _prepare(self) -> None:
        if self.job.config.observe_only:
            self.state.prepared = True
            return
        self.phase = "preparing"
        try:
            result = await self._activity(
                ActivityName.PREPARE_JOB,
                PrepareRequest(job_id=self.job.job_id),
                PrepareResult,
                start_to_close=options.ACTION_START_TO_CLOSE,
                heartbeat=options.ACTION_HEARTBEAT,
                retry=options.ACTION_RETRY,
            )
        except ActivityError as error:
            self._note(f"enrolment step failed: {error.cause or error}")
        else:
            if result.detail:
                self._note(result.detail)
        self.state.prepared = True

    async def _watch(self) -> Observation | None:
        self.phase = f"watching attempt {self.state.attempt}"
        self._show()
        position = self.position
        straggler = position.straggler
        handle = workflow.start_activity(
            ActivityName.WATCH_ATTEMPT,
            WatchRequest(
                cluster=self.job.cluster,
                job_id=self.job.job_id,
                attempt=self.state.attempt,
                config=self.job.config,
                ignore=list(position.ignore),
                cursor=position.cursor,
                earlier_logs=sorted({r.log_path for r in self.state.attempts if r.log_path}),
                return_after_checkpoints=straggler.cursor.checkpoints if straggler else -1,
                return_by=position.straggler_by if straggler else 0.0,
            ),
            result_type=Observation,
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
        observation: Observation = await handle
        return observation

    async def _decide(self, observation: Observation) -> Decision:
        self._suspects_seen = await self._suspects(observation)
        history = records.decision_history(self.state.attempts, observation)
        decision = decide(
            observation,
            config=self.job.config,
            max_requeues=self._max_requeues(),
            history=history,
            operator_exclusions=self.state.operator_excluded,
            suspects=self._suspects_seen,
            v2=workflow.patched(PATCH_POLICY_V2),
            in_job_restarter=self.job.in_job_restarter == "nvrx",
        )
        return await self._failure_domains(observation, decision, history)

    async def _failure_domains(
        self, observation: Observation, decision: Decision, history: list[AttemptRecord]
    ) -> Decision:
        """A requeue after repeated network failures on different nodes of one leaf switch
        excludes the whole switch, if the job still fits (policy v2; workflows/failure_domains.py).
        The topology is read only when the rule may apply: no command otherwise."""
        config = self.job.config
        if decision.action is not Action.REQUEUE or not config.failure_domain_exclusion:
            return decision
        failures = domain_rule.network_failures(history, observation)
        if not domain_rule.may_apply(
            failures, observation, config.failure_domain_min_nodes
        ) or not workflow.patched(PATCH_FAILURE_DOMAINS):
            return decision
        try:
            domains = await self._activity(
                ActivityName.READ_FAILURE_DOMAINS,
                FailureDomainsRequest(cluster=self.job.cluster, job_id=self.job.job_id),
                FailureDomainsResult,
                start_to_close=options.RECORD_START_TO_CLOSE,
                retry=options.RECORD_RETRY,
            )
        except ActivityError as error:
            self._note(f"failure domains unknown (topology): {error.cause or error}")
            return decision
        if not domains.switches:
            return decision  # no topology configured: the rule is inert
        plan = domain_rule.plan(
            failures,
            domains.switches,
            min_nodes=config.failure_domain_min_nodes,
            partition=domains.partition,
            partition_nodes=domains.partition_nodes,
            needed=domains.needed,
            excluded=[*domains.excluded, *decision.exclude_nodes],
        )
        if not plan.reasons:
            return decision
        *before, last = decision.reasons
        return replace(
            decision,
            exclude_nodes=sorted({*decision.exclude_nodes, *plan.exclude}),
            reasons=[*before, *plan.reasons, last],
        )

    async def _rollback(self, observation: Observation) -> None:
        """Tell the next attempt to load an older checkpoint when this one keeps failing the
        same way right after loading it (policy v2; workflows/rollback.py)."""
        config = self.job.config
        if not config.checkpoint_rollback or not workflow.patched(PATCH_POLICY_V2):
            return
        now = workflow.now().timestamp()
        plan = rollback_rule.plan(
            rollback_rule.from_observation(observation, now),
            [r for r in self.state.attempts if r.attempt < observation.attempt],
            window_s=config.rollback_window_s,
            rolled_back_from=self.state.rolled_back_from,
        )
        if plan is None:
            return
        avoid = sorted({*self.state.rolled_back_from, plan.bad_step})
        try:
            result = await self._activity(
                ActivityName.WRITE_ROLLBACK,
                RollbackRequest(
                    job_id=self.job.job_id,
                    user_name=self.job.user_name,
                    attempt=observation.attempt,
                    load_before_step=plan.bad_step,
                    load_step=plan.load_step,
                    avoid_steps=avoid,
                    reason=plan.reason,
                    written_at=now,
                ),
                RollbackResult,
                start_to_close=options.ACTION_START_TO_CLOSE,
                retry=options.ACTION_RETRY,
            )
        except ActivityError as error:
            self._note(f"rollback not told to the job: {error.cause or error}")
            return
        # Tried once, whatever came of the write: never planned from this step again.
        self.state.rolled_back_from = avoid
        note = (
            f"checkpoint rollback: {plan.reason} ({result.path})"
            if result.written
            else f"checkpoint rollback not written: {result.detail}"
        )
        self.state.attempts[-1].reasons.append(note)
        self._note(note)

    async def _quarantine(self, observation: Observation, acting: bool) -> None:
        """Drain (or suggest draining) the nodes this failure condemns (policy v2)."""
        config = self.job.config
        if (
            config.node_quarantine == "off"
            or not may_implicate_nodes(observation)
            or not workflow.patched(PATCH_POLICY_V2)
        ):
            return
        mode = quarantine_rule.effective_mode(config.node_quarantine, acting=acting)
        for candidate in quarantine_rule.candidates(observation, self._suspects_seen):
            request = QuarantineRequest(
                cluster=self.job.cluster,
                node=candidate.node,
                category=candidate.category,
                evidence=candidate.evidence,
                job_id=self.job.job_id,
                mode=mode,
                now=workflow.now().timestamp(),
                max_per_day=config.quarantine_max_per_day,
                holdoff_s=config.quarantine_holdoff_s,
                event_id=f"{workflow.info().workflow_id}/{observation.attempt}/{candidate.node}",
            )
            try:
                result = await self._activity(
                    ActivityName.QUARANTINE_NODE,
                    request,
                    QuarantineResult,
                    start_to_close=options.ACTION_START_TO_CLOSE,
                    retry=options.ACTION_RETRY,
                    summary=f"quarantine {candidate.node} ({mode.value})",
                )
            except ActivityError as error:
                self._note(f"quarantine of {candidate.node} failed: {error.cause or error}")
                continue
            note = f"node {result.node} quarantine: {result.action} ({result.detail})"
            self.state.attempts[-1].reasons.append(note)
            self._note(note)
            notice = notices.node_suspect(
                workflow_id=workflow.info().workflow_id,
                cluster=self.job.cluster,
                job_id=self.job.job_id,
                job_name=self.job.job_name,
                user=self.job.user_name,
                attempt=observation.attempt,
                node=result.node,
                action=result.action,
                category=candidate.category,
                detail=result.detail,
                at=workflow.now().timestamp(),
            )
            if notice is not None and self._notifying():
                await self._notify(notice)

    async def _suspects(self, observation: Observation) -> list[Suspect]:
        """Nodes of this failed attempt that other jobs' failures implicated too."""
        if not may_implicate_nodes(observation):
            return []
        config = self.job.config
        try:
            result = await self._activity(
                ActivityName.FIND_SUSPECTS,
                SuspectQuery(
                    cluster=self.job.cluster,
                    job_id=self.job.job_id,
                    nodes=observation.nodes,
                    culprits=observation.culprit_nodes,
                    window_s=config.suspect_window_s,
                    min_jobs=config.suspect_min_jobs,
                    now=workflow.now().timestamp(),
                ),
                SuspectsResult,
                start_to_close=options.RECORD_START_TO_CLOSE,
                retry=options.RECORD_RETRY,
            )
        except ActivityError as error:
            self._note(f"suspect nodes unknown (database): {error.cause or error}")
            return []
        return result.suspects

    async def _record(self, observation: Observation, decision: Decision, *, acted: bool) -> None:
        """Record the decision, its reasons and evidence, before acting on it."""
        reasons = records.decision_reasons(
            decision, acted=acted, observe_only=self.job.config.observe_only
        )
        record = records.attempt_record(
            observation,
            decision,
            acted=acted,
            reasons=reasons,
            decided_at=workflow.now().timestamp(),
        )
        verdict = exclusions.after_exclusion(
            exclusions.previous_requeue(self.state.attempts, observation.attempt),
            record,
            decision.outcome,
        )
        if verdict:
            record.reasons.append(verdict)
        self.state.attempts = records.with_record(self.state.attempts, record)
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
        anomaly = records.last_anomaly(observation)
        if anomaly is not None:
            updates.append(sa.AJR_LAST_ANOMALY.value_set(anomaly))
        if observation.category is not None and workflow.patched(PATCH_CATEGORY_ATTRIBUTES):
            updates.append(sa.AJR_CATEGORY.value_set(observation.category.value))
            if observation.culprit_nodes:
                updates.append(sa.AJR_CULPRIT_NODES.value_set(list(observation.culprit_nodes)))
        workflow.upsert_search_attributes(updates)
        self._show()
        event = records.decision_event(
            supersedes=self.state.superseded,
            workflow_id=workflow.info().workflow_id,
            cluster=self.job.cluster,
            job_id=self.job.job_id,
            sequence=len(self.state.attempts),
            observation=observation,
            decision=decision,
            record=record,
            attempts=self.state.attempts,
            job_name=self.job.job_name,
            user_name=self.job.user_name,
            partition=self.job.partition,
            max_requeues=self._max_requeues(),
        )
        self.state.superseded = []  # travel with this event from here on
        self._last_event_id = event.event_id
        try:
            await self._write_record(event)
        except ActivityError as error:
            if not workflow.patched(PATCH_RECORDS_MATCH_SLURM):
                self._note(
                    "decision not written to the database (kept in history): "
                    f"{error.cause or error}"
                )
                return
            self._note(f"decision not written to the database yet: {error.cause or error}")
            self._keep_unwritten(event)

    async def _write_record(self, event: DecisionEvent) -> None:
        await self._activity(
            ActivityName.RECORD_DECISION,
            event,
            RecordResult,
            start_to_close=options.RECORD_START_TO_CLOSE,
            retry=options.RECORD_RETRY,
        )

    def _keep_unwritten(self, event: DecisionEvent) -> None:
        """Keep a decision the database refused, to write it once it answers again."""
        kept, dropped = records.keep_unwritten(self.state.unwritten, event)
        self.state.unwritten = kept
        if dropped:
            self._note(f"{dropped} unwritten decision(s) dropped: more than the state keeps")
        self._write_later()

    def _write_later(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_unwritten())

    async def _write_unwritten(self) -> None:
        """Write the kept decisions, oldest first, backing off while the database refuses."""
        for delay in records.unwritten_retry_delays():
            await workflow.sleep(delay)
            while self.state.unwritten:
                event = self.state.unwritten[0]
                try:
                    await self._write_record(event)
                except ActivityError as error:
                    if isinstance(error.cause, CancelledError):
                        # Continue-as-new cancelled this write: no timer may follow its
                        # command; the next run writes the rest (state.unwritten goes along).
                        return
                    break
                if workflow.patched(PATCH_REWRITE_CHANGED_UNWRITTEN):
                    # Only the copy written goes: one marked not acted meanwhile stays.
                    self.state.unwritten = [e for e in self.state.unwritten if e != event]
                else:
                    self.state.unwritten = [
                        e for e in self.state.unwritten if e.event_id != event.event_id
                    ]
            if not self.state.unwritten:
                self._note("decisions written to the database after it refused them")
                return

    async def _write_before_end(self) -> None:
        """Recovery is over: give the database a while to take what it refused."""
        if not self.state.unwritten:
            return
        self.phase = "writing decisions the database refused"
        self._show()
        self._write_later()
        try:
            await workflow.wait_condition(
                lambda: not self.state.unwritten, timeout=options.RECORD_WRITE_BEFORE_END
            )
        except TimeoutError:
            self._note(
                f"{len(self.state.unwritten)} decision(s) never written to the database "
                "(kept in history)"
            )

    def _supersede(self, record: AttemptRecord) -> None:
        """The requeue decided for `record` never ran (the attempt ended first): it was not
        acted on, and the database must not count it (the next decision recorded says so)."""
        record.acted = False
        self.state.unwritten, kept = records.unacted(self.state.unwritten, self._last_event_id)
        if not kept:
            self.state.superseded = [*self.state.superseded, self._last_event_id]

    async def _requeue(self, observation: Observation, decision: Decision) -> RequeueResult:
        """Requeue until Slurm confirms it; a step that keeps failing is raised, never dropped."""
        request = RequeueRequest(
            cluster=self.job.cluster,
            job_id=self.job.job_id,
            attempt=observation.attempt,
            exclude_nodes=decision.exclude_nodes,
            release_timeout_s=self.job.config.release_timeout_s,
            live=observation.kind in LIVE_ANOMALIES,
            start_delay_s=decision.start_delay_s,
            detected_at=observation.found_at,
        )
        self.phase = f"requeueing attempt {observation.attempt}"
        self._show()
        rounds = 0
        while True:
            try:
                result = await self._activity(
                    ActivityName.REQUEUE_JOB,
                    request,
                    RequeueResult,
                    start_to_close=options.ACTION_START_TO_CLOSE,
                    heartbeat=options.ACTION_HEARTBEAT,
                    retry=options.ACTION_RETRY,
                    summary=f"requeue job {self.job.job_id} attempt {observation.attempt}",
                )
            except ActivityError as error:
                kind = _error_type(error)
                if kind is not None and kind in STOPS_RECOVERY:
                    self._note(f"requeue impossible: {error.cause}")
                    self._finish(STOPS_RECOVERY[kind], str(error.cause))
                    raise ApplicationError(
                        f"job {self.job.job_id}: {error.cause}", type=kind.value, non_retryable=True
                    ) from error
                rounds += 1
                self._note(
                    f"recovery watchdog: requeue of attempt {observation.attempt} not verified "
                    f"(round {rounds}): {error.cause or error}"
                )
                workflow.logger.warning(
                    "job %s: requeue not verified: %s", self.job.job_id, error.cause
                )
                if rounds == 1 and self._notifying():
                    # Told once per attempt, alongside the pause: never in the way of a retry.
                    await asyncio.gather(
                        workflow.sleep(options.ACTION_ROUND_PAUSE),
                        self._notify_end(
                            NoticeKind.STUCK,
                            f"requeue not verified: {error.cause or error}",
                            attempt=observation.attempt,
                        ),
                    )
                    continue
                await workflow.sleep(options.ACTION_ROUND_PAUSE)
                continue
            for step in result.steps:
                workflow.logger.info("job %s: %s", self.job.job_id, step)
            return result

    async def _cancel(self, observation: Observation, reason: str) -> None:
        self.phase = f"cancelling attempt {observation.attempt}"
        try:
            result = await self._activity(
                ActivityName.CANCEL_JOB,
                CancelRequest(job_id=self.job.job_id, attempt=observation.attempt, reason=reason),
                CancelResult,
                start_to_close=options.ACTION_START_TO_CLOSE,
                heartbeat=options.ACTION_HEARTBEAT,
                retry=options.ACTION_RETRY,
            )
            # ajr's own cancel is a step it took, not a warning.
            if self.state.attempts and self.state.attempts[-1].attempt == observation.attempt:
                self.state.attempts[-1].steps.append(f"cancel: {result.detail}")
            workflow.logger.info(
                "job %s: attempt %s %s", self.job.job_id, observation.attempt, result.detail
            )
        except ActivityError as error:
            self._note(f"could not cancel attempt {observation.attempt}: {error.cause or error}")

    def _notifying(self) -> bool:
        """Notices are sent when a channel was configured at enrolment (and since the patch)."""
        return self.job.config.notify and workflow.patched(PATCH_NOTIFY)

    async def _notify_end(
        self, kind: NoticeKind, reason: str, *, attempt: int | None = None
    ) -> None:
        if not self._notifying():
            return
        await self._notify(
            notices.ended(
                kind=kind,
                workflow_id=workflow.info().workflow_id,
                cluster=self.job.cluster,
                job_id=self.job.job_id,
                job_name=self.job.job_name,
                user=self.job.user_name,
                attempt=self.state.attempt if attempt is None else attempt,
                reason=reason,
                at=workflow.now().timestamp(),
            )
        )

    async def _notify(self, notice: Notice) -> None:
        """Send a notice after acting; a channel that fails is noted, never waited on long."""
        try:
            await workflow.execute_activity(
                ActivityName.NOTIFY,
                notice,
                result_type=NotifyResult,
                schedule_to_close_timeout=options.NOTIFY_SCHEDULE_TO_CLOSE,
                retry_policy=options.NOTIFY_RETRY,
                summary=f"notify {notice.kind.value}",
            )
        except ActivityError as error:
            self._note(f"notification {notice.kind.value} not sent: {error.cause or error}")

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

    def _not_managed(self, reason: str) -> JobOutcome:
        self._show(f"**not managed**: {reason}")
        workflow.logger.warning("job %s not managed: %s", self.job.job_id, reason)
        return self._finish(Outcome.NOT_MANAGED, reason)

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
        label = notices.job_label(self.job.job_id, self.job.job_name, self.job.user_name)
        last = self.state.attempts[-1] if self.state.attempts else None
        story = (
            notices.headline(label, last, last.action.value + (" (acted)" if last.acted else ""))
            if last
            else label
        )
        workflow.set_current_details(
            records.details(
                headline=f"**{story}**\n\n{headline or self.phase}",
                state=self.state,
                max_requeues=self._max_requeues(),
                observe_only=self.job.config.observe_only,
            )
        )

    # ---- steering from the temporal CLI --------------------------------------------------

    @workflow.query
    def status(self) -> JobStatus:
        last = self.state.attempts[-1] if self.state.attempts else None
        spent = budgets.spent(self.state.attempts)
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
            outcome=self.outcome,
            last_action=last.action if last else None,
            last_reasons=last.reasons
            if last
            else [self.job.not_managed_reason]
            if self.job.not_managed_reason
            else [],
            warnings=list(self.state.warnings),
            phase=self.phase,
            infrastructure_requeues=spent.infrastructure,
            application_requeues=spent.application,
            unknown_requeues=spent.unknown,
            free_requeues=spent.free,
            rolled_back_from=list(self.state.rolled_back_from),
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
    def stop(self, request: StopRequest | None = None) -> None:
        """Stop managing the job; the job itself is left untouched."""
        self.state.stop_requested = True
        self.state.stop_reason = (request.reason if request else "") or "stopped by operator"

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
    def set_max_requeues(self, request: MaxRequeuesRequest) -> int:
        """Override the job's max_requeue_times; returns the limit now in force."""
        self.state.max_requeues_override = request.max_requeues
        self._show()
        return self._max_requeues()

    @set_max_requeues.validator
    def _validate_max_requeues(self, request: MaxRequeuesRequest) -> None:
        value = request.max_requeues
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"max requeues must be a non-negative integer, got {value!r}")


__all__ = [
    "PATCH_CATEGORY_ATTRIBUTES",
    "PATCH_FAILURE_DOMAINS",
    "PATCH_NOTIFY",
    "PATCH_POLICY_V2",
    "PATCH_RECORDS_MATCH_SLURM",
    "PATCH_REWRITE_CHANGED_UNWRITTEN",
    "PATCH_STRAGGLER_CONTINUES_AS_NEW",
    "JobRecoveryWorkflow",
    "workflow_id",
]
