"""What the workflow records and shows about a decision: pure builders, no Temporal."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import timedelta

from models.recovery import (
    Action,
    AttemptRecord,
    Decision,
    DecisionEvent,
    Observation,
    Observed,
    RecoveryState,
)
from models.slurm import JobState
from workflows import options
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
        # A live anomaly is decided while the attempt runs: it has no exit status (yet).
        exit="running (no exit status)"
        if observation.kind is not Observed.EXITED and observation.state is JobState.RUNNING
        else exit_text(observation),
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
        confidence=observation.confidence,
        culprit_nodes=list(observation.culprit_nodes),
        submitted_at=observation.submitted_at,
        started_at=observation.started_at,
        ended_at=observation.ended_at,
        anomaly_at=observation.cursor.anomaly_at,
        seen_at=observation.seen_at,
        saves=[list(save) for save in observation.cursor.saves],
        charge=decision.charge,
        training_done_at=observation.cursor.training_done_at,
    )


def with_record(attempts: Sequence[AttemptRecord], record: AttemptRecord) -> list[AttemptRecord]:
    """The attempts with `record` added: a live anomaly not acted on is followed by the same
    attempt's exit, and the later decision replaces it (one record per attempt and decision)."""
    previous = attempts[-1] if attempts else None
    if previous is not None and previous.attempt == record.attempt and not previous.acted:
        attempts = attempts[:-1]
    # Earlier attempts' saves went to the database with their own decisions: the state that
    # continue-as-new carries stays small however often a job checkpoints.
    return [*(replace(a, saves=[]) if a.saves else a for a in attempts), record]


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
    supersedes: Sequence[str] = (),
    workflow_id: str,
    cluster: str,
    job_id: int,
    sequence: int,
    observation: Observation,
    decision: Decision,
    record: AttemptRecord,
    attempts: Sequence[AttemptRecord] = (),
    job_name: str = "",
    user_name: str = "",
    partition: str = "",
    max_requeues: int = 0,
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
        record=record,
        earlier=[_timeline(a) for a in attempts if a.attempt < record.attempt],
        job_name=job_name,
        user_name=user_name,
        partition=partition,
        max_requeues=max_requeues,
        category=observation.category,
        supersedes=list(supersedes),
    )


# Decisions kept for the database at most: the state travels through every continue-as-new.
UNWRITTEN_CAP = 20


def keep_unwritten(
    unwritten: Sequence[DecisionEvent], event: DecisionEvent
) -> tuple[list[DecisionEvent], int]:
    """`unwritten` with `event` added (once), and how many of the oldest were dropped for it."""
    kept = [e for e in unwritten if e.event_id != event.event_id] + [event]
    dropped = max(0, len(kept) - UNWRITTEN_CAP)
    return kept[dropped:], dropped


def unwritten_retry_delays() -> Iterator[timedelta]:
    """When to try the database again: doubling from the first delay up to the longest."""
    delay = options.RECORD_LATER_FIRST_DELAY
    while True:
        yield delay
        delay = min(delay * 2, options.RECORD_LATER_MAX_DELAY)


def unacted(unwritten: Sequence[DecisionEvent], event_id: str) -> tuple[list[DecisionEvent], bool]:
    """`unwritten` with the decision `event_id` marked not acted on, and whether it was there
    (then it is written as not acted; otherwise the database row is changed later)."""
    found = False
    marked: list[DecisionEvent] = []
    for event in unwritten:
        if event.event_id == event_id:
            found = True
            record = replace(event.record, acted=False) if event.record else None
            event = replace(event, acted=False, record=record)
        marked.append(event)
    return marked, found


def _timeline(record: AttemptRecord) -> AttemptRecord:
    """An earlier attempt's record without its bulk (evidence, saves): its kill and release
    times are known only after its own decision was written, so they travel with the next."""
    return replace(record, evidence=[], saves=[], steps=[], reasons=record.reasons[-3:])


def last_anomaly(observation: Observation) -> str | None:
    """What the AjrLastAnomaly search attribute says after this observation (None: unchanged)."""
    return None if observation.kind is Observed.REQUEUED else observation.kind.value


def _cell(text: str) -> str:
    """Text safe inside a markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")[:200]


def details(
    *,
    headline: str,
    state: RecoveryState,
    max_requeues: int,
    observe_only: bool,
) -> str:
    """The markdown the Temporal UI shows for a job: paragraphs separated by blank lines (the
    UI renders nothing else as markdown) and the attempts as a table."""
    status = (
        f"requeues {state.attempt} of {max_requeues}, "
        f"excluded {','.join(state.ajr_excluded) or 'none'}"
        + (", **paused**" if state.paused else "")
        + (", observe-only" if observe_only else "")
    )
    blocks = [headline, status]
    if state.attempts:
        rows = [
            "| attempt | observed | category | culprit | decision | excluded | reasons |",
            "|---|---|---|---|---|---|---|",
        ]
        for record in state.attempts[-8:]:
            category = record.category.value if record.category else ""
            rows.append(
                f"| {record.attempt} | {record.observed.value} | {category} | "
                f"{','.join(record.culprit_nodes)} | {record.action.value} | "
                f"{','.join(record.excluded_nodes)} | {_cell('; '.join(record.reasons))} |"
            )
        blocks.append("\n".join(rows))
    if state.warnings:
        blocks.append("\n".join(f"- warning: {_cell(w)}" for w in state.warnings[-3:]))
    return "\n\n".join(blocks)
