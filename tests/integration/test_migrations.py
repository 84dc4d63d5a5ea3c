"""The schema is Alembic's: migrations equal the tables, and a database that the release
before migrations created (with decisions in it) upgrades in place, its rows kept."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Boolean, Column, DateTime, Integer, MetaData, String, Table, Text, insert
from sqlalchemy.dialects import mysql
from sqlmodel import Session, SQLModel, select

from activities.database import migrate
from activities.database.engine import make_engine
from activities.database.tables import AttemptRow, DecisionRecord, NodeIncident
from activities.records import RecordActivities
from models.recovery import Action, AttemptRecord, DecisionEvent, Observed, Outcome

pytestmark = pytest.mark.integration

_DT = DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def _schema_before_migrations() -> MetaData:
    """The tables exactly as `create_all` made them before Alembic (the baseline's shape)."""
    meta = MetaData()
    Table(
        "decision_records",
        meta,
        Column("id", Integer, primary_key=True),
        Column("event_id", String(200), nullable=False, unique=True, index=True),
        Column("cluster", String(64), nullable=False),
        Column("job_id", Integer, nullable=False, index=True),
        Column("attempt", Integer, nullable=False),
        Column("observed", String(32), nullable=False),
        Column("action", String(32), nullable=False),
        Column("acted", Boolean, nullable=False),
        Column("outcome", String(64), nullable=False),
        Column("reasons", Text, nullable=False),
        Column("evidence", Text, nullable=False),
        Column("excluded_nodes", Text, nullable=False),
        Column("decided_at", _DT, nullable=False),
        Column("created_at", _DT, nullable=False),
    )
    Table(
        "node_incidents",
        meta,
        Column("id", Integer, primary_key=True),
        Column("incident_id", String(300), nullable=False, unique=True),
        Column("cluster", String(64), nullable=False, index=True),
        Column("node", String(64), nullable=False, index=True),
        Column("job_id", Integer, nullable=False),
        Column("attempt", Integer, nullable=False),
        Column("observed", String(32), nullable=False),
        Column("at", _DT, nullable=False),
    )
    return meta


def test_migrations_create_exactly_the_tables(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    assert migrate.current(engine) == ""
    assert migrate.upgrade(engine) == migrate.head()
    with engine.connect() as connection:
        diff = compare_metadata(
            MigrationContext.configure(connection, opts={"compare_type": True}),
            SQLModel.metadata,
        )
    assert diff == []
    engine.dispose()


def test_upgrade_keeps_the_data_of_the_schema_before_migrations(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    old = _schema_before_migrations()
    old.create_all(engine)
    at = datetime(2026, 11, 20, 12, 0, 0, 250000)
    with engine.begin() as connection:
        connection.execute(
            insert(old.tables["decision_records"]).values(
                event_id="ajr-local-7/0/1/CRASH/requeue/1",
                cluster="local",
                job_id=7,
                attempt=0,
                observed="CRASH",
                action="requeue",
                acted=True,
                outcome="running",
                reasons=json.dumps(["requeue 1 of 3"]),
                evidence="[]",
                excluded_nodes='["node2"]',
                decided_at=at,
                created_at=at,
            )
        )
        connection.execute(
            insert(old.tables["node_incidents"]).values(
                incident_id="x/node2",
                cluster="local",
                node="node2",
                job_id=7,
                attempt=0,
                observed="CRASH",
                at=at,
            )
        )
    assert migrate.current(engine) == ""
    assert migrate.upgrade(engine) == migrate.head()
    with Session(engine) as session:
        kept = session.exec(select(DecisionRecord)).one()
        assert kept.reasons_list() == ["requeue 1 of 3"] and kept.decided_at == at
        assert session.exec(select(NodeIncident)).one().node == "node2"
    # ... and the new tables take the next decision of the same job.
    event = DecisionEvent(
        event_id="ajr-local-7/1/2/EXITED/complete/0",
        cluster="local",
        job_id=7,
        attempt=1,
        observed=Observed.EXITED,
        action=Action.COMPLETE,
        acted=False,
        outcome=Outcome.COMPLETED,
        decided_at=1_800_000_100.0,
        record=AttemptRecord(attempt=1, observed=Observed.EXITED, action=Action.COMPLETE),
    )
    assert RecordActivities(engine).record_decision(event).written
    with Session(engine) as session:
        assert session.exec(select(AttemptRow)).one().attempt == 1
    engine.dispose()
