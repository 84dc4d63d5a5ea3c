"""Decision records on both databases: written once each, even by concurrent first writers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlmodel import Session, select

from activities.database.engine import make_engine
from activities.database.tables import DecisionRecord
from activities.records import RecordActivities
from models.recovery import Action, DecisionEvent, Observed, Outcome

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
    # a fresh database, 8 threads racing to create the table first
    assert sum(result.written for result in written) == 8
    with Session(engine) as session:
        rows = session.exec(select(DecisionRecord)).all()
    assert sorted(r.event_id for r in rows) == sorted({e.event_id for e in events})
    assert rows[0].excluded_nodes == '["node2"]'
