"""Baseline: the tables as ajr created them before migrations (decisions, node incidents).

Revision ID: 0001_baseline
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0001_baseline"
down_revision = None
branch_labels = None
depends_on = None


def utc_datetime(nullable: bool = False) -> sa.Column[object]:
    raise NotImplementedError  # placeholder: see DATETIME below


# MySQL DATETIME defaults to whole seconds; fsp=6 keeps microseconds as SQLite does.
DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "decision_records",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(length=200), nullable=False),
        sa.Column("cluster", sa.String(length=64), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("observed", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("acted", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(length=64), nullable=False),
        sa.Column("reasons", sa.Text(), nullable=False),
        sa.Column("evidence", sa.Text(), nullable=False),
        sa.Column("excluded_nodes", sa.Text(), nullable=False),
        sa.Column("decided_at", DATETIME, nullable=False),
        sa.Column("created_at", DATETIME, nullable=False),
    )
    op.create_index("ix_decision_records_event_id", "decision_records", ["event_id"], unique=True)
    op.create_index("ix_decision_records_job_id", "decision_records", ["job_id"])
    op.create_table(
        "node_incidents",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("incident_id", sa.String(length=300), nullable=False, unique=True),
        sa.Column("cluster", sa.String(length=64), nullable=False),
        sa.Column("node", sa.String(length=64), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("observed", sa.String(length=32), nullable=False),
        sa.Column("at", DATETIME, nullable=False),
    )
    op.create_index("ix_node_incidents_cluster", "node_incidents", ["cluster"])
    op.create_index("ix_node_incidents_node", "node_incidents", ["node"])


def downgrade() -> None:
    op.drop_table("node_incidents")
    op.drop_table("decision_records")
