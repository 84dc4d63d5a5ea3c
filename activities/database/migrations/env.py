"""Alembic's environment for ajr's tables: run by activities/database/migrate.py with an engine
(never from an alembic.ini: the URL is ajr's one setting, AJR_DATABASE_URL)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import activities.database.quarantine
import activities.database.tables  # noqa: F401  (the tables, for autogenerate's comparison)

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=True,  # SQLite alters a table by copying it
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
