"""ajr's database tables (SQLModel): the durable record of every recovery decision.

Times are stored as naive datetimes that mean UTC (MySQL DATETIME has no time zone); convert
with `.replace(tzinfo=UTC)` when reading. List-valued columns hold JSON text (`json.dumps`), so
the schema is the same on SQLite and MySQL/MariaDB. Table objects never cross the
workflow/activity boundary: activities convert to and from plain dataclasses.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Text
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
