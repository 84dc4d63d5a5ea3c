"""ajr's database tables (SQLModel): the durable record of every recovery decision.

Times are stored as naive datetimes that mean UTC (MySQL DATETIME has no time zone); convert
with `.replace(tzinfo=UTC)` when reading. List-valued columns hold JSON text (`json.dumps`), so
the schema is the same on SQLite and MySQL/MariaDB. Table objects never cross the
workflow/activity boundary: activities convert to and from plain dataclasses.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Text, UniqueConstraint
from sqlalchemy.dialects import mysql
from sqlmodel import Field, SQLModel


def utc_now_naive() -> datetime:
    """Now in UTC without tzinfo: what the DATETIME columns store."""
    return datetime.now(UTC).replace(tzinfo=None)


def _datetime_column(*, nullable: bool = False) -> Column[datetime]:
    # MySQL DATETIME defaults to whole seconds; fsp=6 keeps microseconds as SQLite does.
    return Column(
        DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb"), nullable=nullable
    )


class DecisionRecord(SQLModel, table=True):
    """One decision about one attempt of one job: what was observed, what ajr did, and why."""

    __tablename__ = "decision_records"

    id: int | None = Field(default=None, primary_key=True)
    # Deterministic per decision (workflow id + attempt + kind): retries write nothing twice.
    event_id: str = Field(max_length=200, unique=True, index=True)
    cluster: str = Field(max_length=64)
    job_id: int = Field(index=True)
    attempt: int
    observed: str = Field(max_length=32)
    action: str = Field(max_length=32)
    acted: bool
    outcome: str = Field(max_length=64)
    reasons: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # JSON list
    evidence: str = Field(default="", sa_column=Column(Text, nullable=False))
    excluded_nodes: str = Field(default="", sa_column=Column(Text, nullable=False))
    decided_at: datetime = Field(sa_column=_datetime_column())  # UTC, naive
    created_at: datetime = Field(default_factory=utc_now_naive, sa_column=_datetime_column())
    # The earlier decisions (event ids, JSON list) this one found never carried out; NULL:
    # none. Stored so that one written after it learns it was superseded (issue 11).
    supersedes: str | None = Field(default=None, sa_column=Column(Text, nullable=True))

    def reasons_list(self) -> list[str]:
        """`reasons` decoded; tolerant of an empty column."""
        if not self.reasons:
            return []
        decoded = json.loads(self.reasons)
        return [str(item) for item in decoded] if isinstance(decoded, list) else [str(decoded)]


class NodeIncident(SQLModel, table=True):
    """A node named as a culprit of one job's failed attempt: ajr's memory across jobs."""

    __tablename__ = "node_incidents"

    id: int | None = Field(default=None, primary_key=True)
    # The decision's event id + node: a retried record_decision writes each incident once.
    incident_id: str = Field(max_length=300, unique=True)
    cluster: str = Field(max_length=64, index=True)
    node: str = Field(max_length=64, index=True)
    job_id: int
    attempt: int
    observed: str = Field(max_length=32)
    at: datetime = Field(sa_column=_datetime_column())  # UTC, naive


def _opt_datetime_column() -> Column[datetime]:
    return _datetime_column(nullable=True)


class AttemptRow(SQLModel, table=True):
    """One attempt of one job, as ajr last recorded it: upserted by (cluster, job, attempt)."""

    __tablename__ = "attempt_records"
    __table_args__ = (UniqueConstraint("cluster", "job_id", "attempt", name="uq_attempt"),)

    id: int | None = Field(default=None, primary_key=True)
    cluster: str = Field(max_length=64)
    job_id: int = Field(index=True)
    attempt: int
    job_name: str = Field(default="", max_length=200)
    user_name: str = Field(default="", max_length=64)
    partition: str = Field(default="", max_length=64)
    nodes: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # JSON list
    state: str = Field(default="", max_length=32)
    exit: str = Field(default="", max_length=64)
    observed: str = Field(max_length=32)
    category: str | None = Field(default=None, max_length=32)
    confidence: float | None = None
    culprit_nodes: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    evidence: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    action: str = Field(max_length=32)
    acted: bool
    failed: bool = False
    outcome: str = Field(default="", max_length=64)
    reasons: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    excluded_nodes: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    checkpoints: int = 0
    interrupted_saves: int = 0
    loaded_step: int | None = None
    last_save_step: int | None = None
    submitted_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    started_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    ended_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    anomaly_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    seen_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    decided_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    held_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    released_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    first_step_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    loaded_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    last_save_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    updated_at: datetime = Field(default_factory=utc_now_naive, sa_column=_datetime_column())


class CheckpointSave(SQLModel, table=True):
    """One completed checkpoint save of one attempt (from its log or the telemetry spans)."""

    __tablename__ = "checkpoint_saves"
    __table_args__ = (
        UniqueConstraint("cluster", "job_id", "attempt", "saved_at", name="uq_checkpoint_save"),
    )

    id: int | None = Field(default=None, primary_key=True)
    cluster: str = Field(max_length=64)
    job_id: int = Field(index=True)
    attempt: int
    saved_at: datetime = Field(sa_column=_datetime_column())  # UTC, naive: when it completed
    step: int | None = None
    duration_s: float | None = None


class JobEfficiencyRecord(SQLModel, table=True):
    """One row per job, kept current: the KPIs of models/efficiency.py (read by Grafana)."""

    __tablename__ = "job_efficiency_records"
    __table_args__ = (UniqueConstraint("cluster", "job_id", name="uq_job_efficiency"),)

    id: int | None = Field(default=None, primary_key=True)
    cluster: str = Field(max_length=64)
    job_id: int = Field(index=True)
    job_name: str = Field(default="", max_length=200)
    user_name: str = Field(default="", max_length=64)
    partition: str = Field(default="", max_length=64)
    outcome: str = Field(default="", max_length=64)
    attempts: int = 0
    failures: int = 0
    restarts: int = 0
    restart_successes: int = 0
    first_submit_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    first_start_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    last_end_at: datetime | None = Field(default=None, sa_column=_opt_datetime_column())
    span_s: float = 0.0
    productive_s: float = 0.0
    downtime_s: float = 0.0
    recomputed_s: float = 0.0
    detection_s: float = 0.0
    shutdown_s: float = 0.0
    requeue_s: float = 0.0
    manual_s: float = 0.0
    restart_s: float = 0.0
    queue_wait_s: float = 0.0
    efficiency_pct: float = 100.0
    ettr: float = 1.0
    updated_at: datetime = Field(default_factory=utc_now_naive, sa_column=_datetime_column())


class NotificationRecord(SQLModel, table=True):
    """A notification sent (or given up on): its event id makes a retry send nothing twice."""

    __tablename__ = "notifications"

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(max_length=300, unique=True)
    cluster: str = Field(max_length=64)
    job_id: int = Field(index=True)
    kind: str = Field(max_length=32)
    channels: str = Field(default="", max_length=200)  # "webhook,slack": where it went
    sent_at: datetime = Field(sa_column=_datetime_column())
