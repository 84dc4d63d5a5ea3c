"""Writing ajr's decisions to the database, once each (retries and replays write nothing twice)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, Table
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, SQLModel, select
from temporalio import activity

from activities import telemetry
from activities.database import efficiency
from activities.database.tables import (
    AttemptRow,
    CheckpointSave,
    DecisionRecord,
    NodeIncident,
    utc_now_naive,
)
from activities.database.upsert import upsert
from activities.errors import activity_error
from models.activities import ActivityName
from models.errors import ErrorType
from models.recovery import AttemptRecord, DecisionEvent, Outcome, RecordResult, SuspectsResult
from models.suspects import SuspectQuery, suspects


def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC).replace(tzinfo=None)


_ATTEMPT_KEY = ["cluster", "job_id", "attempt"]
SUPERSEDED_REASON = "not carried out: the attempt ended before the requeue (decided again)"


def supersedes_json(event_ids: Sequence[str]) -> str | None:
    """The `supersedes` column of a decision: its superseded decisions' ids, NULL for none."""
    return json.dumps(list(event_ids)) if event_ids else None


def superseded_by(event_id: str, stored: Iterable[str | None]) -> bool:
    """Whether any of these stored `supersedes` columns names the decision `event_id`."""
    return any(event_id in json.loads(column) for column in stored if column)


def not_carried_out(reasons: str) -> str:
    """A superseded decision's `reasons` (JSON list): why it was not carried out, once."""
    listed = json.loads(reasons or "[]")
    return json.dumps(listed if SUPERSEDED_REASON in listed else [*listed, SUPERSEDED_REASON])


def _table(model: type[SQLModel]) -> Table:
    table: Table = model.__table__  # type: ignore[attr-defined]
    return table


def _attempt_values(event: DecisionEvent, record: AttemptRecord) -> dict[str, Any]:
    return {
        "cluster": event.cluster,
        "job_id": event.job_id,
        "attempt": record.attempt,
        "job_name": event.job_name[:200],
        "user_name": event.user_name[:64],
        "partition": event.partition[:64],
        "nodes": json.dumps(record.nodes),
        "state": str(record.state.value)[:32],
        "exit": record.exit[:64],
        "observed": record.observed.value,
        "category": record.category.value if record.category else None,
        "confidence": record.confidence,
        "culprit_nodes": json.dumps(record.culprit_nodes),
        "evidence": json.dumps(record.evidence),
        "action": record.action.value,
        "acted": record.acted,
        "failed": record.failed,
        "outcome": event.outcome.value if record.attempt == event.attempt else "",
        "reasons": json.dumps(record.reasons),
        "excluded_nodes": json.dumps(record.excluded_nodes),
        "checkpoints": record.checkpoints,
        "interrupted_saves": record.interrupted_saves,
        "loaded_step": record.loaded_step,
        "last_save_step": record.last_save_step,
        "submitted_at": efficiency.utc(record.submitted_at),
        "started_at": efficiency.utc(record.started_at),
        "ended_at": efficiency.utc(record.ended_at),
        "anomaly_at": efficiency.utc(record.anomaly_at),
        "seen_at": efficiency.utc(record.seen_at),
        "decided_at": efficiency.utc(record.decided_at),
        "held_at": efficiency.utc(record.held_at),
        "released_at": efficiency.utc(record.released_at),
        "first_step_at": efficiency.utc(record.first_step_at),
        "loaded_at": efficiency.utc(record.loaded_at),
        "last_save_at": efficiency.utc(record.last_save_at),
        "updated_at": utc_now_naive(),
    }


@contextmanager
def _database(operation: str) -> Iterator[None]:
    """A database failure crosses the boundary as its error type, never as a driver's class."""
    try:
        yield
    except SQLAlchemyError as exc:
        telemetry.DB_ERRORS.add(1, {"operation": operation, "error": type(exc).__name__})
        raise activity_error(ErrorType.DATABASE_UNAVAILABLE, str(exc)[:500]) from exc


class RecordActivities:
    """The schema is `ajr db upgrade`'s (activities/database/migrate.py): nothing is created
    here; a missing table is a database error, retried like a server that is down."""

    def __init__(self, engine: Engine, *, restart_success_window_s: float = 3600.0) -> None:
        self._engine = engine
        self._window_s = restart_success_window_s

    def _write(self, event: DecisionEvent) -> bool:
        written = self._write_decision(event)
        # The attempt rows, saves and KPIs are upserts: rewritten identically on a retry.
        with Session(self._engine) as session:
            self._write_attempts(session, event)
            efficiency.refresh(
                session,
                event.cluster,
                event.job_id,
                outcome=event.outcome.value,
                now=0.0 if event.outcome is not Outcome.RUNNING else event.decided_at,
                window_s=self._window_s,
            )
            session.commit()
        return written

    def _write_attempts(self, session: Session, event: DecisionEvent) -> None:
        for earlier in event.earlier:
            # Only what is learnt after a decision: when ajr killed, held and released it.
            upsert(
                session,
                _table(AttemptRow),
                _attempt_values(event, earlier),
                keys=_ATTEMPT_KEY,
                update=["held_at", "released_at"],
            )
        record = event.record
        if record is None:  # written by a release before attempt records
            return
        # A late write (the background writer's, of a decision since superseded) never puts an
        # older state of the attempt over a newer one: ordered by the record's decision time.
        upsert(
            session,
            _table(AttemptRow),
            _attempt_values(event, record),
            keys=_ATTEMPT_KEY,
            unless_newer="decided_at",
        )
        for step, at, duration in (save[:3] for save in record.saves if len(save) >= 2):
            upsert(
                session,
                _table(CheckpointSave),
                {
                    "cluster": event.cluster,
                    "job_id": event.job_id,
                    "attempt": record.attempt,
                    "saved_at": _utc(float(at)),
                    "step": step,
                    "duration_s": duration,
                },
                keys=["cluster", "job_id", "attempt", "saved_at"],
                update=[],
            )

    def _settle(self, event: DecisionEvent) -> None:
        """Insert, then verify: in a transaction after the insert's commit, mark what `event`
        supersedes, and `event` itself when a stored decision supersedes it. A superseded
        decision D and the one superseding it, E, written at the same moment (the background
        writer's D as the database comes back) each check after their own commit: at least
        one sees the other's row, so D ends not acted whichever lands first (issue 11).
        D written again not acted (the workflow marked its kept copy, `records.unacted`) after
        an earlier try stored it acted (committed, yet reported failed) is marked too."""
        with Session(self._engine) as session:
            self._not_carried_out(session, event, event.supersedes)
            if not event.acted or superseded_by(
                event.event_id, self._supersessions(session, event)
            ):
                self._not_carried_out(session, event, [event.event_id])
            session.commit()

    def _supersessions(self, session: Session, event: DecisionEvent) -> list[str | None]:
        """The `supersedes` column of the job's stored decisions that supersede any."""
        return list(
            session.exec(
                select(DecisionRecord.supersedes).where(
                    DecisionRecord.cluster == event.cluster,
                    DecisionRecord.job_id == event.job_id,
                    DecisionRecord.supersedes.is_not(None),  # type: ignore[union-attr]
                )
            ).all()
        )

    def _not_carried_out(
        self, session: Session, event: DecisionEvent, event_ids: Sequence[str]
    ) -> None:
        """Earlier decisions recorded as acted whose action never ran (the attempt ended
        first): acted=false, with why, so the records count each requeue Slurm did once.
        Never back to acted: a row already not acted is left as it is."""
        if not event_ids:
            return
        rows = session.exec(
            select(DecisionRecord).where(
                DecisionRecord.event_id.in_(event_ids),  # type: ignore[attr-defined]
                DecisionRecord.cluster == event.cluster,
                DecisionRecord.job_id == event.job_id,
            )
        ).all()
        for row in rows:
            if not row.acted:
                continue  # already superseded by an earlier try of this write, or the other side
            row.acted = False
            row.reasons = not_carried_out(row.reasons)
            session.add(row)

    def _write_decision(self, event: DecisionEvent) -> bool:
        written = self._insert_decision(event)
        self._settle(event)  # also after a retry or a replay: the other side may be new
        return written

    def _insert_decision(self, event: DecisionEvent) -> bool:
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
                    supersedes=supersedes_json(event.supersedes),
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
