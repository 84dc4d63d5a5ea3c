"""What the workflow records about a decision: the pure builders of workflows/records.py."""

from __future__ import annotations

import pytest

from models.recovery import (
    Action,
    AttemptRecord,
    Decision,
    LogCursor,
    Observation,
    Observed,
    Outcome,
    RecoveryState,
)
from models.slurm import JobState
from workflows import records

pytestmark = pytest.mark.unit

CRASH = Observation(
    kind=Observed.CRASH,
    attempt=1,
    state=JobState.RUNNING,
    signal=11,
    nodes=["node1"],
    culprit_nodes=["node1"],
    evidence=["segfault"],
    cursor=LogCursor(path="/l/a1.log", checkpoints=2),
)
EXIT_OK = Observation(kind=Observed.EXITED, attempt=1, state=JobState.COMPLETED)
REQUEUE = Decision(Action.REQUEUE, reasons=["crash", "requeue 2 of 3"], exclude_nodes=["node1"])
WATCH = Decision(Action.WATCH, reasons=["straggler: wait"])
DONE = Decision(Action.COMPLETE, Outcome.COMPLETED, ["success"])


@pytest.mark.parametrize(
    "decision, acted, observe_only, added",
    [
        (REQUEUE, True, False, None),
        (REQUEUE, False, False, "paused: not acting"),
        (REQUEUE, False, True, "observe-only: not acting"),
        (WATCH, False, False, None),  # waiting is no action withheld
        (DONE, False, True, None),
    ],
)
def test_decision_reasons_say_why_nothing_was_done(
    decision: Decision, acted: bool, observe_only: bool, added: str | None
) -> None:
    reasons = records.decision_reasons(decision, acted=acted, observe_only=observe_only)
    assert reasons == [*decision.reasons, *([added] if added else [])]
    assert reasons is not decision.reasons


@pytest.mark.parametrize(
    "observation, decision, failed, exit_text",
    [
        # decided while it runs: no exit status yet (not "exit 0")
        (CRASH, REQUEUE, True, "running (no exit status)"),
        (EXIT_OK, DONE, False, "exit 0"),
        (CRASH, WATCH, False, "running (no exit status)"),
        (
            Observation(kind=Observed.EXITED, attempt=1, state=JobState.FAILED, signal=11),
            REQUEUE,
            True,
            "signal 11",
        ),
    ],
)
def test_attempt_record(
    observation: Observation, decision: Decision, failed: bool, exit_text: str
) -> None:
    record = records.attempt_record(
        observation, decision, acted=True, reasons=["r"], decided_at=12.5
    )
    assert (record.attempt, record.observed, record.state, record.action) == (
        1,
        observation.kind,
        observation.state,
        decision.action,
    )
    assert (record.failed, record.exit, record.decided_at) == (failed, exit_text, 12.5)
    assert record.checkpoints == observation.cursor.checkpoints


def rec(attempt: int, acted: bool, action: Action = Action.REQUEUE) -> AttemptRecord:
    return AttemptRecord(attempt=attempt, observed=Observed.CRASH, acted=acted, action=action)


@pytest.mark.parametrize(
    "before, new, after",
    [
        ([], rec(0, True), [rec(0, True)]),
        ([rec(0, True)], rec(1, True), [rec(0, True), rec(1, True)]),
        # a paused crash, then the same attempt's exit: one record
        ([rec(0, True), rec(1, False)], rec(1, True), [rec(0, True), rec(1, True)]),
        # an acted record is never replaced
        ([rec(1, True)], rec(1, True), [rec(1, True), rec(1, True)]),
    ],
)
def test_with_record(
    before: list[AttemptRecord], new: AttemptRecord, after: list[AttemptRecord]
) -> None:
    assert records.with_record(before, new) == after


@pytest.mark.parametrize(
    "attempts, observation, weighed",
    [
        ([rec(0, True), rec(1, False)], CRASH, [rec(0, True)]),  # this attempt's unacted record
        ([rec(0, True), rec(1, True)], CRASH, [rec(0, True), rec(1, True)]),
        ([rec(0, False)], CRASH, [rec(0, False)]),  # another attempt's
    ],
)
def test_decision_history(
    attempts: list[AttemptRecord], observation: Observation, weighed: list[AttemptRecord]
) -> None:
    assert records.decision_history(attempts, observation) == weighed


def test_decision_event_is_unique_per_decision_and_remembers_only_failures() -> None:
    def event(observation: Observation, decision: Decision, sequence: int) -> object:
        record = records.attempt_record(
            observation, decision, acted=True, reasons=["r"], decided_at=1.0
        )
        return records.decision_event(
            workflow_id="ajr-c-7",
            cluster="c",
            job_id=7,
            sequence=sequence,
            observation=observation,
            decision=decision,
            record=record,
        )

    failure = event(CRASH, REQUEUE, 3)
    assert failure.event_id == "ajr-c-7/1/3/CRASH/requeue/1"  # type: ignore[attr-defined]
    assert failure.culprit_nodes == ["node1"]  # type: ignore[attr-defined]
    waiting = event(CRASH, WATCH, 2)
    assert waiting.culprit_nodes == []  # type: ignore[attr-defined]


def test_details_markdown() -> None:
    state = RecoveryState(
        attempt=1, attempts=[rec(0, True)], ajr_excluded=["node1"], paused=True, warnings=["w"]
    )
    text = records.details(headline="**job 7**", state=state, max_requeues=3, observe_only=False)
    assert text.split("\n\n") == [
        "**job 7**",
        "requeues 1 of 3, excluded node1, **paused**",
        "| attempt | observed | category | culprit | decision | excluded | reasons |\n"
        "|---|---|---|---|---|---|---|\n"
        "| 0 | CRASH |  |  | requeue |  |  |",
        "- warning: w",
    ]
    assert records.last_anomaly(CRASH) == "CRASH"
    assert records.last_anomaly(Observation(kind=Observed.REQUEUED, attempt=0)) is None
