"""Decision records on both databases: written once each, even by concurrent first writers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from sqlalchemy import Engine
from sqlalchemy import event as sa_event
from sqlmodel import Session, select

from activities.database.engine import make_engine
from activities.database.tables import (
    AttemptRow,
    CheckpointSave,
    DecisionRecord,
    JobEfficiencyRecord,
)
from activities.records import SUPERSEDED_REASON, RecordActivities
from models.categories import Category
from models.recovery import Action, AttemptRecord, DecisionEvent, Observed, Outcome
from models.slurm import JobState

pytestmark = pytest.mark.integration


def event(n: int) -> DecisionEvent:
    return DecisionEvent(
        event_id=f"ajr-t-7/0/{n}/CRASH",
        cluster="t",
        job_id=7,
        attempt=0,
        observed=Observed.CRASH,
        action=Action.REQUEUE,
        acted=True,
        outcome=Outcome.RUNNING,
        reasons=["attempt 0: CRASH"],
        evidence=["Rank0: segmentation fault"],
        excluded_nodes=["node2"],
        decided_at=1_800_000_000.0,
    )


def test_records_written_once_with_concurrent_first_writers(db_url: str) -> None:
    engine = make_engine(db_url)
    records = RecordActivities(engine)
    events = [event(n) for n in range(8)] * 2  # every event twice, as a retried activity would
    with ThreadPoolExecutor(max_workers=8) as pool:
        written = list(pool.map(records.record_decision, events))
    # a fresh database, 8 threads racing to write first
    assert sum(result.written for result in written) == 8
    with Session(engine) as session:
        rows = session.exec(select(DecisionRecord)).all()
    assert sorted(r.event_id for r in rows) == sorted({e.event_id for e in events})
    assert rows[0].excluded_nodes == '["node2"]'


def _attempt(n: int, **times: float) -> AttemptRecord:
    return AttemptRecord(
        attempt=n,
        observed=Observed.CRASH if n == 0 else Observed.EXITED,
        category=Category.GPU if n == 0 else None,
        confidence=0.9 if n == 0 else None,
        culprit_nodes=["node2"] if n == 0 else [],
        evidence=["Xid 79 on node2"] if n == 0 else [],
        action=Action.REQUEUE if n == 0 else Action.COMPLETE,
        failed=n == 0,
        acted=n == 0,
        reasons=["requeue 1 of 3"],
        excluded_nodes=["node2"] if n == 0 else [],
        saves=[[100, T0 + 100, 2.0], [200, T0 + 400, 3.5]] if n == 0 else [[300, T0 + 600, 2.5]],
        **times,
    )


T0 = 1_800_000_000.0


def test_attempts_saves_and_kpis_upserted_once_each(db_url: str) -> None:
    """A crash, its requeue, the completion: every event written twice (retries) gives one
    attempt row each, the saves once, and the job's KPI row computed from them."""
    engine = make_engine(db_url)
    records = RecordActivities(engine)
    crash = _attempt(0, started_at=T0, anomaly_at=T0 + 450, seen_at=T0 + 452, decided_at=T0 + 452)
    crash_event = DecisionEvent(
        event_id="ajr-t-8/0/1/CRASH/requeue/1",
        cluster="t",
        job_id=8,
        attempt=0,
        observed=Observed.CRASH,
        action=Action.REQUEUE,
        acted=True,
        outcome=Outcome.RUNNING,
        decided_at=T0 + 452,
        record=crash,
        job_name="train",
        user_name="alice",
        partition="gpu",
    )
    # After the requeue the workflow knows when the attempt was held; the next event says so.
    held = replace(crash, held_at=T0 + 455, released_at=T0 + 456, evidence=[], saves=[])
    done = _attempt(1, started_at=T0 + 470, loaded_at=T0 + 480, ended_at=T0 + 900)
    done_event = replace(
        crash_event,
        event_id="ajr-t-8/1/2/EXITED/complete/0",
        attempt=1,
        observed=Observed.EXITED,
        action=Action.COMPLETE,
        acted=False,
        outcome=Outcome.COMPLETED,
        decided_at=T0 + 901,
        record=done,
        earlier=[held],
    )
    for event in (crash_event, crash_event, done_event, done_event):
        records.record_decision(event)
    with Session(engine) as session:
        rows = session.exec(select(AttemptRow).order_by(AttemptRow.attempt)).all()
        saves = session.exec(select(CheckpointSave)).all()
        kpi = session.exec(select(JobEfficiencyRecord)).one()
    assert [r.attempt for r in rows] == [0, 1]
    first = rows[0]
    assert (first.category, first.confidence, first.culprit_nodes) == ("GPU", 0.9, '["node2"]')
    assert first.evidence == '["Xid 79 on node2"]'  # kept: the earlier record only sets times
    assert first.held_at is not None and first.held_at.second == (T0 + 455) % 60
    assert sorted((s.attempt, s.step, s.duration_s) for s in saves) == [
        (0, 100, 2.0),
        (0, 200, 3.5),
        (1, 300, 2.5),
    ]
    assert (kpi.job_name, kpi.user_name, kpi.outcome) == ("train", "alice", "completed")
    assert kpi.failures == 1 and kpi.restart_successes == 1
    # last save 400 -> crash line 450 -> seen 452 -> held 455 -> start 470 -> load 480
    assert kpi.downtime_s == pytest.approx(80)
    assert (kpi.recomputed_s, kpi.detection_s, kpi.shutdown_s) == pytest.approx((50, 2, 3))
    assert (kpi.requeue_s, kpi.restart_s) == pytest.approx((15, 10))
    assert kpi.efficiency_pct == pytest.approx(100 * 820 / 900)


def test_a_decision_that_never_ran_is_marked_not_acted(db_url: str) -> None:
    """The requeue decided on a crash never ran (the attempt ended first); the decision made on
    its exit says so: one acted requeue in the table for the one requeue Slurm did."""
    engine = make_engine(db_url)
    records = RecordActivities(engine)
    crash = replace(event(0), job_id=8, event_id="ajr-t-8/0/1/CRASH/requeue/1")
    exited = replace(
        crash,
        event_id="ajr-t-8/0/1/EXITED/requeue/1",
        observed=Observed.EXITED,
        supersedes=[crash.event_id],
    )
    assert records.record_decision(crash).written
    assert records.record_decision(exited).written
    assert not records.record_decision(exited).written  # a retry changes nothing more

    with Session(engine) as session:
        rows = {
            r.event_id: r
            for r in session.exec(select(DecisionRecord).where(DecisionRecord.job_id == 8)).all()
        }
    assert {(r.observed, r.acted) for r in rows.values()} == {("CRASH", False), ("EXITED", True)}
    crash_reasons = rows[crash.event_id].reasons_list()
    assert crash_reasons[0] == "attempt 0: CRASH"
    assert crash_reasons.count(SUPERSEDED_REASON) == 1


# --- a superseding decision and the superseded one's late write (issue 11) ----------------------


def _crash_and_exit(job_id: int) -> tuple[DecisionEvent, DecisionEvent]:
    """D: the requeue decided on a crash (acted, never carried out: the attempt ended first);
    E: the decision on the attempt's exit, which supersedes D."""
    crash = replace(event(0), job_id=job_id, event_id=f"ajr-t-{job_id}/0/1/CRASH/requeue/1")
    exited = replace(
        crash,
        event_id=f"ajr-t-{job_id}/0/2/EXITED/requeue/1",
        observed=Observed.EXITED,
        supersedes=[crash.event_id],
    )
    return crash, exited


def _decisions(engine: Engine, job_id: int) -> dict[str, DecisionRecord]:
    with Session(engine) as session:
        rows = session.exec(select(DecisionRecord).where(DecisionRecord.job_id == job_id)).all()
    return {r.event_id: r for r in rows}


def _assert_superseded_once(engine: Engine, crash: DecisionEvent, exited: DecisionEvent) -> None:
    rows = _decisions(engine, crash.job_id)
    assert sorted(rows) == sorted([crash.event_id, exited.event_id])  # one row each
    assert (rows[crash.event_id].acted, rows[exited.event_id].acted) == (False, True)
    reasons = rows[crash.event_id].reasons_list()
    assert reasons[0] == "attempt 0: CRASH" and reasons.count(SUPERSEDED_REASON) == 1


def test_a_decision_written_after_the_one_superseding_it_lands_not_acted(db_url: str) -> None:
    """E before D: the database refused D (acted=true); E, which supersedes D, is written
    first; the background writer writes D later. D must land not acted, and stay so when the
    writes are replayed (retries, a replayed workflow): one row each, the reason once."""
    engine = make_engine(db_url)
    records = RecordActivities(engine)
    crash, exited = _crash_and_exit(9)
    assert records.record_decision(exited).written  # D's row is not there yet
    assert records.record_decision(crash).written  # the background writer's late write
    _assert_superseded_once(engine, crash, exited)
    for replayed in (crash, exited, crash):
        assert not records.record_decision(replayed).written
    _assert_superseded_once(engine, crash, exited)
    engine.dispose()


def _attempt_state(engine: Engine, job_id: int) -> tuple[str, str]:
    with Session(engine) as session:
        rows = session.exec(select(AttemptRow).where(AttemptRow.job_id == job_id)).all()
    assert len(rows) == 1
    return rows[0].observed, rows[0].state


@pytest.mark.parametrize("late", [True, False])
def test_a_late_write_never_puts_an_older_attempt_state_over_a_newer_one(
    db_url: str, late: bool
) -> None:
    """D (the crash's requeue, decided at T) and E (the exit that superseded it, at T+5) both
    carry attempt 0's record. Whichever lands last, the attempt row holds E's: the background
    writer's late D never rolls the attempt back to the state E replaced."""
    engine = make_engine(db_url)
    records = RecordActivities(engine)
    crash, exited = _crash_and_exit(12 if late else 13)
    crash = replace(crash, record=_attempt(0, decided_at=T0))
    newer = replace(_attempt(0, decided_at=T0 + 5), observed=Observed.EXITED, state=JobState.FAILED)
    exited = replace(exited, decided_at=T0 + 5, record=newer)
    for written in (exited, crash) if late else (crash, exited):
        records.record_decision(written)
    assert _attempt_state(engine, crash.job_id) == ("EXITED", "FAILED")
    records.record_decision(crash)  # a retry of the older one, after all: still E's
    assert _attempt_state(engine, crash.job_id) == ("EXITED", "FAILED")
    engine.dispose()


@pytest.mark.parametrize("moment", ["before_flush", "after_flush"])
def test_a_superseding_decision_written_while_the_superseded_one_is_inserted(
    db_url: str, moment: str
) -> None:
    """D before E: E is written in full while D's write is in flight, after D found no row
    of its own (before_flush) or with D's row inserted but not committed (after_flush, E
    cannot see it). Either way D ends not acted, and replays change nothing more."""
    if moment == "after_flush" and db_url.startswith("sqlite"):
        pytest.skip("SQLite serialises writers: E cannot be written while D's insert is open")
    engine = make_engine(db_url)
    records = RecordActivities(engine)
    crash, exited = _crash_and_exit(10)
    results: list[bool] = []

    def write_exited_meanwhile(session: Session, *_: object) -> None:
        inserting = any(
            isinstance(row, DecisionRecord) and row.event_id == crash.event_id
            for row in session.new
        )
        if inserting and not results:
            with ThreadPoolExecutor(max_workers=1) as pool:  # its own connection
                results.append(pool.submit(records.record_decision, exited).result().written)

    sa_event.listen(Session, moment, write_exited_meanwhile)
    try:
        assert records.record_decision(crash).written
    finally:
        sa_event.remove(Session, moment, write_exited_meanwhile)
    assert results == [True]
    _assert_superseded_once(engine, crash, exited)
    for replayed in (exited, crash, exited):
        assert not records.record_decision(replayed).written
    _assert_superseded_once(engine, crash, exited)
    engine.dispose()


def test_a_decision_stored_acted_then_written_not_acted_is_marked(db_url: str) -> None:
    """A try of D's write committed but was reported failed (the database came back as it
    timed out); the workflow, learning that D never ran, marks its kept copy not acted (same
    event_id, no `supersedes` on the next decision) and writes it again: D ends not acted."""
    engine = make_engine(db_url)
    records = RecordActivities(engine)
    crash, _ = _crash_and_exit(11)
    assert records.record_decision(crash).written  # the try reported failed
    unacted = replace(crash, acted=False)
    for _ in range(2):  # the background writer's write, and a replay
        assert not records.record_decision(unacted).written
        rows = _decisions(engine, crash.job_id)
        assert list(rows) == [crash.event_id] and not rows[crash.event_id].acted
        assert rows[crash.event_id].reasons_list().count(SUPERSEDED_REASON) == 1
    assert not records.record_decision(crash).written  # never back to acted
    assert not _decisions(engine, crash.job_id)[crash.event_id].acted
    engine.dispose()
