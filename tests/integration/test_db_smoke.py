"""Smoke: ajr's tables (made by its migrations) round-trip on SQLite and on MariaDB/MySQL."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from activities.database import migrate
from activities.database.engine import make_engine, session_scope
from activities.database.tables import DecisionRecord

pytestmark = pytest.mark.integration


def _record(event_id: str, decided_at: datetime) -> DecisionRecord:
    return DecisionRecord(
        event_id=event_id,
        cluster="ajrtest",
        job_id=4242,
        attempt=2,
        observed="CRASH",
        action="requeue",
        acted=True,
        outcome="running",
        reasons=json.dumps(["NCCL error on node3", "exit 1"]),
        evidence="line 17: NCCL WARN ... ünïcode ✓",
        excluded_nodes="node3",
        decided_at=decided_at,
    )


def test_decision_record_round_trips(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        assert migrate.upgrade(engine) == migrate.head()  # idempotent on an upgraded database
        decided_at = datetime(2026, 11, 21, 23, 59, 58, 123456)
        with session_scope(engine) as session:
            session.add(_record("job-4242/attempt-2/crash", decided_at))

        with session_scope(engine) as session:
            row = session.exec(
                select(DecisionRecord).where(DecisionRecord.event_id == "job-4242/attempt-2/crash")
            ).one()
            assert row.id is not None
            assert row.job_id == 4242 and row.attempt == 2 and row.acted is True
            assert row.reasons_list() == ["NCCL error on node3", "exit 1"]
            assert row.evidence.endswith("ünïcode ✓")
            assert row.decided_at == decided_at  # microseconds kept on MySQL too
            assert row.created_at.tzinfo is None

        with pytest.raises(IntegrityError), session_scope(engine) as session:
            session.add(_record("job-4242/attempt-2/crash", decided_at))

        with session_scope(engine) as session:
            assert len(session.exec(select(DecisionRecord)).all()) == 1
    finally:
        engine.dispose()
