"""Recovery policy: from what an attempt showed, what to do. Pure functions, no Temporal."""

from __future__ import annotations

from collections.abc import Sequence

from models.categories import Category
from models.errors import ErrorType
from models.recovery import (
    CANCEL_ON_STOP,
    LIVE_ANOMALIES,
    Action,
    AttemptRecord,
    Decision,
    Observation,
    Observed,
    Outcome,
    RecoveryConfig,
)
from models.slurm import JobState
from models.suspects import Suspect
from workflows import budgets
from workflows.budgets import Cause, is_continuation

# A failure no retry can change ends recovery with this outcome (every non-retryable type).
STOPS_RECOVERY: dict[ErrorType, Outcome] = {
    ErrorType.JOB_NOT_FOUND: Outcome.VANISHED,
    ErrorType.REQUEUE_REFUSED: Outcome.NOT_REQUEUEABLE,
    ErrorType.INVALID_REQUEST: Outcome.NOT_REQUEUEABLE,
}


def effective_max_requeues(
    config: RecoveryConfig, job_max: int | None, override: int | None = None
) -> int:
    """The most restrictive of the system maximum and the job's own (or operator's) limit."""
    job_limit = override if override is not None else job_max
    if job_limit is None:
        return config.system_max_requeues
    return min(config.system_max_requeues, job_limit)


def exit_text(observation: Observation) -> str:
    return f"signal {observation.signal}" if observation.signal else f"exit {observation.exit_code}"


def describe(observation: Observation) -> str:
    if observation.kind is Observed.EXITED:
        return f"attempt {observation.attempt} ended {observation.state} ({exit_text(observation)})"
    return f"attempt {observation.attempt}: {observation.kind.value} ({observation.detail})"


def failed_without_checkpoint_streak(history: Sequence[AttemptRecord]) -> int:
    """How many of the most recent attempts in a row failed without saving a checkpoint."""
    streak = 0
    for record in reversed(history):
        if not record.failed or record.checkpoints > 0:
            break
        streak += 1
    return streak


def _exclusions(
    observation: Observation, config: RecoveryConfig, extra: Sequence[str]
) -> list[str]:
    nodes = set(observation.culprit_nodes) | set(extra)
    if (
        observation.kind is Observed.EXITED
        and observation.exit_code in config.different_hardware_exit_codes
    ):
        nodes |= set(observation.nodes)
    return sorted(nodes)


def _stop(observation: Observation, outcome: Outcome, reasons: list[str]) -> Decision:
    # A crashed or hung attempt still holds its nodes: cancel it. A straggler is slow, not
    # dead: stopping recovery never kills it.
    action = Action.CANCEL if observation.kind in CANCEL_ON_STOP else Action.STOP
    return Decision(action, outcome, reasons)


def decide(
    observation: Observation,
    *,
    config: RecoveryConfig,
    max_requeues: int,
    history: Sequence[AttemptRecord],
    operator_exclusions: Sequence[str] = (),
    suspects: Sequence[Suspect] = (),
    v2: bool = False,
    in_job_restarter: bool = False,
) -> Decision:
    """The decision for one observation. `history` holds the earlier attempts, oldest first.

    `v2` (recovery policy v2, behind a workflow patch): a failure after training finished is
    not requeued, a crash an in-job restarter handles is left to it, and requeues are charged by
    cause (workflows/budgets.py); a preemption is never a crashloop step.
    """
    what = describe(observation)
    kind = observation.kind
    if kind is Observed.REQUEUED:
        return Decision(Action.WATCH, reasons=[f"{what}: requeued outside ajr; watching it"])
    if kind is Observed.LOG_MISSING:
        return Decision(Action.WATCH, reasons=[f"{what}: watching Slurm state only"])
    if kind is Observed.VANISHED:
        return Decision(
            Action.STOP,
            Outcome.VANISHED,
            [f"{what}: slurmctld has no record of the job any more; nothing to requeue"],
        )
    if kind is Observed.EXITED:
        if observation.state is JobState.COMPLETED and observation.exit_code == 0:
            return Decision(Action.COMPLETE, Outcome.COMPLETED, [f"{what}: success"])
        if observation.state is JobState.CANCELLED:
            return Decision(
                Action.COMPLETE,
                Outcome.CANCELLED_BY_USER,
                [f"{what}: cancelled outside ajr; a cancelled job is never requeued"],
            )
        if observation.exit_code in config.terminal_exit_codes and not observation.signal:
            return Decision(
                Action.STOP,
                Outcome.TERMINAL_EXIT,
                [f"{what}: exit code {observation.exit_code} asks not to be requeued"],
            )

    reasons = [what]
    if observation.evidence:
        reasons.append(f"evidence: {observation.evidence[0][:300]}")
    if v2 and training_finished(observation):
        return _finished(observation, reasons)
    if v2 and kind is Observed.CRASH and (in_job_restarter or observation.cursor.in_job_restarter):
        return Decision(
            Action.WATCH,
            reasons=[
                *reasons,
                "an in-job restarter (NVRx ft_launcher) restarts it in place: ajr acts when "
                "it gives up (the job's exit)",
            ],
        )
    if observation.requeue_warranted is False:
        return _stop(
            observation,
            Outcome.APPLICATION_ERROR,
            [*reasons, f"{observation.category or 'application'} error: a requeue cannot help"],
        )

    continuation = is_continuation(observation)
    cause = budgets.cause_of(observation, config) if v2 else None
    spent = budgets.spent(history) if v2 else None
    used = spent.charged if spent is not None else observation.attempt
    if cause is not Cause.FREE and used >= max_requeues:
        return _stop(
            observation,
            Outcome.MAX_REQUEUES,
            [*reasons, f"requeue limit reached: {used} of {max_requeues} requeues used"],
        )
    if cause is not None and spent is not None:
        spent_reason = budgets.budget_exhausted(cause, spent, config)
        if spent_reason:
            return _stop(observation, Outcome.CAUSE_BUDGET, [*reasons, spent_reason])
    # A preemption is no failure: never a crashloop step (policy v2).
    if not continuation and cause is not Cause.FREE and observation.cursor.checkpoints == 0:
        streak = 1 + failed_without_checkpoint_streak(history)
        if streak >= config.crashloop_threshold:
            return _stop(
                observation,
                Outcome.CRASHLOOP,
                [
                    *reasons,
                    f"crashloop: the last {streak} attempts failed without a new checkpoint "
                    f"(threshold {config.crashloop_threshold})",
                ],
            )
    exclude = _exclusions(observation, config, [*operator_exclusions, *(s.node for s in suspects)])
    for suspect in suspects:
        jobs = ", ".join(map(str, suspect.jobs))
        reasons.append(f"{suspect.node} is suspect: implicated in failures of jobs {jobs}")
    if continuation:
        reasons.append(
            f"time limit after {observation.cursor.checkpoints} checkpoint save(s): continue"
        )
    if exclude:
        reasons.append(f"exclude {','.join(exclude)}")
    if cause is None:
        reasons.append(f"requeue {used + 1} of {max_requeues}")
        return Decision(Action.REQUEUE, Outcome.RUNNING, reasons, exclude)
    delay = budgets.backoff_s(cause, history, config)
    if cause is Cause.FREE:
        why = "preemption" if budgets.is_preemption(observation) else "not a failure"
        reasons.append(f"requeue free of charge ({why}): {used} of {max_requeues} used")
    else:
        reasons.append(f"requeue {used + 1} of {max_requeues} ({cause.value} budget)")
    if delay:
        reasons.append(f"repeated unknown failure: next attempt starts in {delay}s (back-off)")
    return Decision(Action.REQUEUE, Outcome.RUNNING, reasons, exclude, delay, cause.value)


def training_finished(observation: Observation) -> bool:
    """Done means done: the log showed training reach its final iteration (analysis/finish.py)
    before this failure; a straggler report is no failure."""
    return observation.cursor.training_done_at > 0 and observation.kind in (
        Observed.EXITED,
        *CANCEL_ON_STOP,
    )


def _finished(observation: Observation, reasons: list[str]) -> Decision:
    """Training reached its final iteration and then failed (teardown): never requeued; an
    attempt still running (hung or crashed in teardown) is cancelled to free its nodes."""
    why = [*reasons, "training had reached its final iteration: failed in teardown, not requeued"]
    if observation.kind in CANCEL_ON_STOP:
        return Decision(Action.CANCEL, Outcome.TRAINING_FINISHED, why)
    return Decision(Action.COMPLETE, Outcome.TRAINING_FINISHED, why)


def first_attempt_decision(observation: Observation, config: RecoveryConfig) -> Decision:
    """What ajr decides on a job's first attempt, with no history and the system limit.

    `ajr check-log` reports it as its verdict: the decision the watcher's workflow would make.
    """
    return decide(
        observation,
        config=config,
        max_requeues=effective_max_requeues(config, None),
        history=(),
        v2=True,  # the rules a job enrolled today is decided by
    )


def counts_as_failure(observation: Observation, decision: Decision) -> bool:
    """Whether the attempt counts toward the crashloop limit: the job's own failure.

    The scheduler ending it (preemption, a time limit, a cancel by Slurm) is not the job's
    failure: such a restart is never a crashloop step. The requeue limit still counts it.
    """
    if decision.action in (Action.COMPLETE, Action.WATCH):
        return False
    if observation.category is Category.SCHEDULER or observation.state is JobState.PREEMPTED:
        return False
    return not is_continuation(observation) and observation.kind is not Observed.VANISHED


def may_implicate_nodes(observation: Observation) -> bool:
    """A failure whose nodes other jobs' failures may have implicated too (suspects)."""
    failed = observation.kind in LIVE_ANOMALIES or (
        observation.kind is Observed.EXITED
        and observation.state not in (JobState.COMPLETED, JobState.CANCELLED)
    )
    return failed and bool(observation.nodes)


def straggler_wait(observation: Observation, config: RecoveryConfig) -> Decision:
    """A straggler is slow, not dead: wait for its next checkpoint save before requeueing it."""
    where = ",".join(observation.culprit_nodes) or "unknown nodes"
    return Decision(
        Action.WATCH,
        reasons=[
            f"attempt {observation.attempt}: STRAGGLER on {where} ({observation.detail})",
            "requeue after the next checkpoint save, "
            f"or within {config.straggler_checkpoint_wait_s:.0f}s",
        ],
    )
