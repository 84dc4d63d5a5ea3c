"""What the workflow records and shows about a decision: pure builders, no Temporal."""

from __future__ import annotations

from collections.abc import Sequence

from models.recovery import (
    Action,
    AttemptRecord,
    Decision,
    DecisionEvent,
    Observation,
    Observed,
    RecoveryState,
)
from workflows.policy import counts_as_failure, exit_text

# Decisions that change nothing in Slurm: recorded the same whether ajr acts or not.
PASSIVE = frozenset({Action.WATCH, Action.COMPLETE})


def decision_reasons(decision: Decision, *, acted: bool, observe_only: bool) -> list[str]:
    """The decision's reasons, and why it was not carried out when it was not."""
    reasons = list(decision.reasons)
    if not acted and decision.action not in PASSIVE:
        reasons.append("observe-only: not acting" if observe_only else "paused: not acting")
    return reasons


def attempt_record(
    observation: Observation,
    decision: Decision,
    *,
    acted: bool,
    reasons: list[str],
    decided_at: float,
) -> AttemptRecord:
    return AttemptRecord(
        attempt=observation.attempt,
        observed=observation.kind,
        category=observation.category,
        state=observation.state,
        exit=exit_text(observation),
        checkpoints=observation.cursor.checkpoints,
        log_path=observation.cursor.path,
        nodes=observation.nodes,
        evidence=observation.evidence,
        action=decision.action,
        failed=counts_as_failure(observation, decision),
        acted=acted,
        reasons=reasons,
        excluded_nodes=decision.exclude_nodes,
        decided_at=decided_at,
        first_step_at=observation.cursor.first_step_at,
        loaded_step=observation.cursor.loaded_step,
        loaded_at=observation.cursor.loaded_at,
        last_save_step=observation.cursor.last_save_step,
        last_save_at=observation.cursor.last_save_at,
        interrupted_saves=observation.cursor.interrupted_saves,
    )


def with_record(attempts: Sequence[AttemptRecord], record: AttemptRecord) -> list[AttemptRecord]:
    """The attempts with `record` added: a live anomaly not acted on is followed by the same
    attempt's exit, and the later decision replaces it (one record per attempt and decision)."""
    previous = attempts[-1] if attempts else None
    if previous is not None and previous.attempt == record.attempt and not previous.acted:
        return [*attempts[:-1], record]
    return [*attempts, record]


def decision_history(
    attempts: Sequence[AttemptRecord], observation: Observation
) -> list[AttemptRecord]:
    """The earlier attempts a decision about `observation` weighs: this attempt's own unacted
    record (a paused crash, a straggler wait) is not another failure."""
    last = attempts[-1] if attempts else None
    if last is not None and last.attempt == observation.attempt and not last.acted:
        return list(attempts[:-1])
    return list(attempts)


def decision_event(
    *,
    workflow_id: str,
    cluster: str,
    job_id: int,
    sequence: int,
    observation: Observation,
    decision: Decision,
    record: AttemptRecord,
) -> DecisionEvent:
    return DecisionEvent(
        # Unique per decision: a retried activity or a replay writes it once, and a later
        # decision about the same attempt (straggler wait, then requeue) is a new row.
        event_id=(
            f"{workflow_id}/{observation.attempt}/{sequence}/"
            f"{observation.kind.value}/{decision.action.value}/{int(record.acted)}"
        ),
        cluster=cluster,
        job_id=job_id,
        attempt=observation.attempt,
        observed=observation.kind,
        action=decision.action,
        acted=record.acted,
        outcome=decision.outcome,
        reasons=record.reasons,
        evidence=observation.evidence,
        excluded_nodes=decision.exclude_nodes,
        decided_at=record.decided_at,
        # Remembered across jobs only for real failures (not a wait, a success or a cancel).
        culprit_nodes=observation.culprit_nodes if record.failed else [],
        category=observation.category,
    )


def last_anomaly(observation: Observation) -> str | None:
    """What the AjrLastAnomaly search attribute says after this observation (None: unchanged)."""
    return None if observation.kind is Observed.REQUEUED else observation.kind.value


def details(
    *,
    headline: str,
    state: RecoveryState,
    max_requeues: int,
    observe_only: bool,
) -> str:
    """The markdown the Temporal UI shows for a job."""
    lines = [headline]
    lines.append(
        f"requeues {state.attempt} of {max_requeues}, "
        f"excluded {','.join(state.ajr_excluded) or 'none'}"
        + (", **paused**" if state.paused else "")
        + (", observe-only" if observe_only else "")
    )
    for record in state.attempts[-5:]:
        lines.append(
            f"- attempt {record.attempt}: {record.observed} -> {record.action}: "
            + "; ".join(record.reasons)
        )
    for warning in state.warnings[-3:]:
        lines.append(f"- warning: {warning}")
    return "\n".join(lines)
