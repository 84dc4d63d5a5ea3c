"""Writing ajr's decisions to the database, once each (retries and replays write nothing twice)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, select
from temporalio import activity

from activities import telemetry
from activities.database.engine import create_tables
from activities.database.tables import DecisionRecord, NodeIncident
from activities.errors import activity_error
from models.activities import ActivityName
from models.errors import ErrorType
from models.recovery import DecisionEvent, RecordResult, SuspectsResult
from models.suspects import SuspectQuery, suspects


def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC).replace(tzinfo=None)


@contextmanager
def _database(operation: str) -> Iterator[None]:
    """A database failure crosses the boundary as its error type, never as a driver's class."""
    try:
        yield
    except SQLAlchemyError as exc:
        telemetry.DB_ERRORS.add(1, {"operation": operation, "error": type(exc).__name__})
        raise activity_error(ErrorType.DATABASE_UNAVAILABLE, str(exc)[:500]) from exc


class RecordActivities:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._tables_ready = False
        self._tables_lock = threading.Lock()

    def _ensure_tables(self) -> None:
        """Create tables on first use (the database may be down when the worker starts).

        Sync activities run on a thread pool, so concurrent first writes would otherwise race
        to CREATE TABLE ("table already exists").
        """
        with self._tables_lock:
            if not self._tables_ready:
                create_tables(self._engine)
                self._tables_ready = True

    def _write(self, event: DecisionEvent) -> bool:
        self._ensure_tables()
        with Session(self._engine) as session:
            existing = session.exec(
                select(DecisionRecord).where(DecisionRecord.event_id == event.event_id)
            ).first()
            if existing is not None:
                return False
            session.add(
                DecisionRecord(
                    event_id=event.event_id,
                    cluster=event.cluster,
                    job_id=event.job_id,
                    attempt=event.attempt,
                    observed=event.observed.value,
                    action=event.action.value,
                    acted=event.acted,
                    outcome=event.outcome.value,
                    reasons=json.dumps(event.reasons),
                    evidence=json.dumps(event.evidence),
                    excluded_nodes=json.dumps(event.excluded_nodes),
                    decided_at=_utc(event.decided_at),
                )
            )
            for node in event.culprit_nodes:
                session.add(
                    NodeIncident(
                        incident_id=f"{event.event_id}/{node}",
                        cluster=event.cluster,
                        node=node,
                        job_id=event.job_id,
                        attempt=event.attempt,
                        observed=event.observed.value,
                        at=_utc(event.decided_at),
                    )
                )
            try:
                session.commit()
            except IntegrityError:  # a concurrent retry won the race: written once all the same
                session.rollback()
                return False
            return True

    @activity.defn(name=ActivityName.RECORD_DECISION)
    def record_decision(self, event: DecisionEvent) -> RecordResult:
        """Written, or already there (a retry or a replay): never twice."""
        with _database("record_decision"):
            written = self._write(event)
        if written:  # counted once per decision, whichever worker wrote it
            telemetry.DECISIONS.add(
                1,
                {
                    "observed": event.observed.value,
                    "action": event.action.value,
                    "outcome": event.outcome.value,
                    "category": event.category.value if event.category else "none",
                    "acted": str(event.acted).lower(),
                },
            )
        return RecordResult(written=written)

    @activity.defn(name=ActivityName.FIND_SUSPECTS)
    def find_suspects(self, query: SuspectQuery) -> SuspectsResult:
        """Nodes of a failed attempt that other jobs' failures also implicated recently."""
        with _database("find_suspects"):
            self._ensure_tables()
            return SuspectsResult(suspects(query, self._incidents(query)))

    def _incidents(self, query: SuspectQuery) -> list[tuple[str, int]]:
        since = _utc(query.now - query.window_s)
        with Session(self._engine) as session:
            rows = session.exec(
                select(NodeIncident.node, NodeIncident.job_id).where(
                    NodeIncident.cluster == query.cluster,
                    NodeIncident.at >= since,
                    NodeIncident.node.in_(query.nodes),  # type: ignore[attr-defined]
                )
            ).all()
        return [(node, job_id) for node, job_id in rows]
