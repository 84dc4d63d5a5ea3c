"""ajr's record of node quarantine actions (SQLModel): what it drained, suggested or resumed.

Slurm holds the truth of a node's state and reason; this table remembers ajr's own actions, for
the per-day cap on nodes ajr drains by itself and the hold-off after a node returns to service.
Its schema is the migration 0003_node_quarantine (`ajr db upgrade`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Engine, Text, func
from sqlalchemy.dialects import mysql
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, select


def _utc(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC).replace(tzinfo=None)


class NodeQuarantineEvent(SQLModel, table=True):
    __tablename__ = "node_quarantine_events"

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(max_length=250, unique=True, index=True)  # a retry records once
    cluster: str = Field(max_length=64, index=True)
    node: str = Field(max_length=128, index=True)
    action: str = Field(max_length=32)  # models.quarantine.QuarantineAction
    reason: str = Field(default="", sa_column=Column(Text, nullable=False))
    job_id: int | None = None
    at: datetime = Field(
        sa_column=Column(
            DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb"), nullable=False
        )
    )


class QuarantineLog:
    """Reads and writes NodeQuarantineEvent rows (synchronous: call from a thread)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def record(
        self,
        *,
        event_id: str,
        cluster: str,
        node: str,
        action: str,
        reason: str,
        at: float,
        job_id: int | None = None,
    ) -> bool:
        with Session(self._engine) as session:
            session.add(
                NodeQuarantineEvent(
                    event_id=event_id[:250],
                    cluster=cluster,
                    node=node,
                    action=action,
                    reason=reason,
                    job_id=job_id,
                    at=_utc(at),
                )
            )
            try:
                session.commit()
            except IntegrityError:  # recorded by an earlier try
                session.rollback()
                return False
        return True

    def drained_since(self, cluster: str, since: float) -> int:
        """Nodes ajr drained by itself on this cluster since then."""
        with Session(self._engine) as session:
            count = session.exec(
                select(func.count()).where(
                    NodeQuarantineEvent.cluster == cluster,
                    NodeQuarantineEvent.action == "drained",
                    NodeQuarantineEvent.at >= _utc(since),
                )
            ).one()
        return int(count)

    def recent(self, cluster: str, since: float, limit: int = 50) -> list[NodeQuarantineEvent]:
        """ajr's quarantine actions on this cluster since then, newest first."""
        with Session(self._engine) as session:
            rows = session.exec(
                select(NodeQuarantineEvent)
                .where(
                    NodeQuarantineEvent.cluster == cluster, NodeQuarantineEvent.at >= _utc(since)
                )
                .order_by(NodeQuarantineEvent.at.desc())  # type: ignore[attr-defined]
                .limit(limit)
            ).all()
        return list(rows)

    def last_resumed(self, cluster: str, node: str) -> float | None:
        """When the node last returned to service through ajr (epoch seconds), if ever."""
        with Session(self._engine) as session:
            at = session.exec(
                select(func.max(NodeQuarantineEvent.at)).where(
                    NodeQuarantineEvent.cluster == cluster,
                    NodeQuarantineEvent.node == node,
                    NodeQuarantineEvent.action == "resumed",
                )
            ).one()
        return at.replace(tzinfo=UTC).timestamp() if at is not None else None
