"""Insert-or-update by a unique key, in the dialect of the database (SQLite, MySQL/MariaDB):
one statement, so a retried activity or two racing writers leave exactly one row."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import mysql, sqlite
from sqlalchemy.orm import Session


def upsert(
    session: Session,
    table: Table,
    values: Mapping[str, Any],
    *,
    keys: Iterable[str],
    update: Iterable[str] | None = None,
) -> None:
    """Insert `values`; where a row with the same `keys` exists, set the columns in `update`
    (default: every column of `values` but the keys; empty: leave the row as it is)."""
    key_names = list(keys)
    columns = [c for c in values if c not in key_names] if update is None else list(update)
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        lite = sqlite.insert(table).values(**values)
        if columns:
            statement: Any = lite.on_conflict_do_update(
                index_elements=key_names, set_={c: lite.excluded[c] for c in columns}
            )
        else:
            statement = lite.on_conflict_do_nothing(index_elements=key_names)
    elif dialect in ("mysql", "mariadb"):
        my = mysql.insert(table).values(**values)
        # With nothing to update, re-set a key to itself: MySQL's way to ignore a duplicate
        # without INSERT IGNORE's swallowing of every other error.
        targets = columns or key_names[:1]
        statement = my.on_duplicate_key_update({c: my.inserted[c] for c in targets})
    else:
        raise ValueError(f"upsert: unsupported database {dialect}")
    session.execute(statement)
