"""The decisions a decision supersedes (never carried out), stored with it.

A superseded decision written after the one superseding it (the database refused it, the
workflow wrote it later) finds it there and lands not acted.

Revision ID: 0004_decision_supersedes
Revises: 0003_node_quarantine
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_decision_supersedes"
down_revision = "0003_node_quarantine"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable, no default: MySQL allows no literal default on TEXT, and NULL means "none".
    op.add_column("decision_records", sa.Column("supersedes", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("decision_records", "supersedes")
