"""ajr's node quarantine actions: what it drained, suggested or returned to service.

Revision ID: 0003_node_quarantine
Revises: 0002_records_and_kpis
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0003_node_quarantine"
down_revision = "0002_records_and_kpis"
branch_labels = None
depends_on = None

DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "node_quarantine_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.String(length=250), nullable=False),
        sa.Column("cluster", sa.String(length=64), nullable=False),
        sa.Column("node", sa.String(length=128), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=True),
        sa.Column("at", DATETIME, nullable=False),
    )
    table = "node_quarantine_events"
    op.create_index(f"ix_{table}_event_id", table, ["event_id"], unique=True)
    op.create_index(f"ix_{table}_cluster", table, ["cluster"])
    op.create_index(f"ix_{table}_node", table, ["node"])


def downgrade() -> None:
    op.drop_table("node_quarantine_events")
