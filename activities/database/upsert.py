"""Insert-or-update by a unique key, in the dialect of the database (SQLite, MySQL/MariaDB):
one statement, so a retried activity or two racing writers leave exactly one row."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import ColumnElement, Table, and_, func, or_
from sqlalchemy.dialects import mysql, sqlite
from sqlalchemy.orm import Session


def upsert(
    session: Session,
    table: Table,
    values: Mapping[str, Any],
    *,
    keys: Iterable[str],
    update: Iterable[str] | None = None,
    unless_newer: str | None = None,
) -> None:
    """Insert `values`; where a row with the same `keys` exists, set the columns in `update`
    (default: every column of `values` but the keys; empty: leave the row as it is).

    `unless_newer` names a column that orders writes (a decision's time): the existing row is
    left as it is when it holds a later value there than `values` does (a late write of an
    older state), or a value where `values` has none."""
    key_names = list(keys)
    columns = [c for c in values if c not in key_names] if update is None else list(update)
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        lite = sqlite.insert(table).values(**values)
        if columns:
            guard = _not_older(table.c[unless_newer], lite.excluded[unless_newer]) if (
                unless_newer) else None  # fmt: skip
            statement: Any = lite.on_conflict_do_update(
                index_elements=key_names,
                set_={c: lite.excluded[c] for c in columns},
                where=guard,
            )
        else:
            statement = lite.on_conflict_do_nothing(index_elements=key_names)
    elif dialect in ("mysql", "mariadb"):
        my = mysql.insert(table).values(**values)
        # With nothing to update, re-set a key to itself: MySQL's way to ignore a duplicate
        # without INSERT IGNORE's swallowing of every other error.
        targets = columns or key_names[:1]
        if unless_newer and columns:
            # MySQL has no WHERE here: each column keeps its value unless the guard holds. The
            # assignments run in order and see earlier ones, so the guard's column goes last.
            guard = _not_older(table.c[unless_newer], my.inserted[unless_newer])
            ordered = [c for c in targets if c != unless_newer]
            ordered += [unless_newer] if unless_newer in targets else []
            statement = my.on_duplicate_key_update(
                [(c, func.IF(guard, my.inserted[c], table.c[c])) for c in ordered]
            )
        else:
            statement = my.on_duplicate_key_update({c: my.inserted[c] for c in targets})
    else:
        raise ValueError(f"upsert: unsupported database {dialect}")
    session.execute(statement)


def _not_older(stored: Any, incoming: Any) -> ColumnElement[bool]:
    """The incoming value is at least as new as the stored one (an absent one is the oldest)."""
    return or_(stored.is_(None), and_(incoming.is_not(None), stored <= incoming))
