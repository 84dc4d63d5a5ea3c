"""Database engine and session helpers for ajr's tables (SQLite by default, MySQL/MariaDB too).

Not for workflow code: this does I/O. Activities and the worker's composition root use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlmodel import Session

import activities.database.tables  # noqa: F401  (registers the tables on SQLModel.metadata)


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine configured for the backend in `url`.

    MySQL: `pool_pre_ping` + `pool_recycle` because the server closes idle connections
    (wait_timeout) and a worker may sit idle for hours between decisions.
    SQLite: the file's directory is created, and connections may move between threads because
    sync activities run in a thread pool.
    """
    parsed = make_url(url)
    options: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        options["connect_args"] = {"check_same_thread": False}
    elif parsed.get_backend_name() in ("mysql", "mariadb"):
        options["pool_pre_ping"] = True
        options["pool_recycle"] = 3600
    options.update(kwargs)
    return create_engine(parsed, **options)


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """A session that commits when the block succeeds and rolls back when it raises."""
    session = Session(engine)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
