"""ajr's schema, managed by Alembic: `ajr db upgrade`, `ajr db current`.

Nothing creates tables lazily at run time: the worker writes to a schema that `upgrade` made
(`ajr dev up`, the demo and the tests run it). A database that an ajr release before Alembic
created (its tables, no `alembic_version`) is stamped at the baseline first, then upgraded.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001_baseline"


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine, revision: str = "head") -> str:
    """Bring the schema to `revision` (default: the newest); returns the revision now current."""
    config = _config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        tables = set(inspect(connection).get_table_names())
        if "alembic_version" not in tables and "decision_records" in tables:
            command.stamp(config, BASELINE)  # made by create_all before migrations existed
        command.upgrade(config, revision)
    return current(engine)


def current(engine: Engine) -> str:
    """The schema's revision ("" for a database no migration has touched)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision() or ""


def head() -> str:
    """The newest revision this release knows."""
    return ScriptDirectory.from_config(_config()).get_current_head() or ""
