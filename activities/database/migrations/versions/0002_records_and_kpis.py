"""Per-attempt records, checkpoint saves, job efficiency KPIs and sent notifications.

Revision ID: 0002_records_and_kpis
Revises: 0001_baseline
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0002_records_and_kpis"
down_revision = "0001_baseline"
branch_labels = None
depends_on = None

DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def _at(name: str, nullable: bool = True) -> sa.Column[object]:
    return sa.Column(name, DATETIME, nullable=nullable)


def _text(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.Text(), nullable=False)


def _str(name: str, length: int, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.String(length=length), nullable=nullable)


def _int(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.Integer(), nullable=nullable)


def _float(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.Float(), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "attempt_records",
        sa.Column("id", sa.Integer(), primary_key=True),
        _str("cluster", 64),
        _int("job_id"),
        _int("attempt"),
        _str("job_name", 200),
        _str("user_name", 64),
        _str("partition", 64),
        _text("nodes"),
        _str("state", 32),
        _str("exit", 64),
        _str("observed", 32),
        _str("category", 32, nullable=True),
        _float("confidence", nullable=True),
        _text("culprit_nodes"),
        _text("evidence"),
        _str("action", 32),
        sa.Column("acted", sa.Boolean(), nullable=False),
        sa.Column("failed", sa.Boolean(), nullable=False),
        _str("outcome", 64),
        _text("reasons"),
        _text("excluded_nodes"),
        _int("checkpoints"),
        _int("interrupted_saves"),
        _int("loaded_step", nullable=True),
        _int("last_save_step", nullable=True),
        *(
            _at(name)
            for name in (
                "submitted_at",
                "started_at",
                "ended_at",
                "anomaly_at",
                "seen_at",
                "decided_at",
                "held_at",
                "released_at",
                "first_step_at",
                "loaded_at",
                "last_save_at",
            )
        ),
        _at("updated_at", nullable=False),
        sa.UniqueConstraint("cluster", "job_id", "attempt", name="uq_attempt"),
    )
    op.create_index("ix_attempt_records_job_id", "attempt_records", ["job_id"])
    op.create_table(
        "checkpoint_saves",
        sa.Column("id", sa.Integer(), primary_key=True),
        _str("cluster", 64),
        _int("job_id"),
        _int("attempt"),
        _at("saved_at", nullable=False),
        _int("step", nullable=True),
        _float("duration_s", nullable=True),
        sa.UniqueConstraint("cluster", "job_id", "attempt", "saved_at", name="uq_checkpoint_save"),
    )
    op.create_index("ix_checkpoint_saves_job_id", "checkpoint_saves", ["job_id"])
    op.create_table(
        "job_efficiency_records",
        sa.Column("id", sa.Integer(), primary_key=True),
        _str("cluster", 64),
        _int("job_id"),
        _str("job_name", 200),
        _str("user_name", 64),
        _str("partition", 64),
        _str("outcome", 64),
        *(_int(name) for name in ("attempts", "failures", "restarts", "restart_successes")),
        _at("first_submit_at"),
        _at("first_start_at"),
        _at("last_end_at"),
        *(
            _float(name)
            for name in (
                "span_s",
                "productive_s",
                "downtime_s",
                "recomputed_s",
                "detection_s",
                "shutdown_s",
                "requeue_s",
                "manual_s",
                "restart_s",
                "queue_wait_s",
                "efficiency_pct",
                "ettr",
            )
        ),
        _at("updated_at", nullable=False),
        sa.UniqueConstraint("cluster", "job_id", name="uq_job_efficiency"),
    )
    op.create_index("ix_job_efficiency_records_job_id", "job_efficiency_records", ["job_id"])
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(length=300), nullable=False, unique=True),
        _str("cluster", 64),
        _int("job_id"),
        _str("kind", 32),
        _str("channels", 200),
        _at("sent_at", nullable=False),
    )
    op.create_index("ix_notifications_job_id", "notifications", ["job_id"])


def downgrade() -> None:
    op.drop_table("notifications")
    op.drop_table("job_efficiency_records")
    op.drop_table("checkpoint_saves")
    op.drop_table("attempt_records")
