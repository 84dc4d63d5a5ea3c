"""deploy/sql/kpi_readonly_user.sql on MariaDB: the KPI user reads the KPI tables, nothing
else, and cannot write."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError, ProgrammingError

pytestmark = pytest.mark.integration

SCRIPT = Path(__file__).resolve().parents[2] / "deploy/sql/kpi_readonly_user.sql"


def test_kpi_user_reads_kpis_only(mysql_server: Engine, mysql_url: str) -> None:
    database = make_url(mysql_url).database
    user, password = f"kpi_{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    sql = (
        SCRIPT.read_text()
        .replace("`ajr`.", f"`{database}`.")
        .replace("'ajr_kpi'", f"'{user}'")
        .replace("'change-me'", f"'{password}'")
    )
    statements = [s.strip() for s in re.sub(r"--[^\n]*", "", sql).split(";") if s.strip()]
    assert len(statements) == 4
    with mysql_server.connect() as admin:
        for statement in statements:
            admin.execute(text(statement))
        admin.execute(
            text(
                f"INSERT INTO `{database}`.job_efficiency_records (cluster, job_id, job_name, "
                "user_name, `partition`, outcome, attempts, failures, restarts, "
                "restart_successes, span_s, productive_s, downtime_s, recomputed_s, "
                "detection_s, shutdown_s, requeue_s, manual_s, restart_s, queue_wait_s, "
                "efficiency_pct, ettr, updated_at) VALUES ('c', 1, 'j', 'u', 'gpu', "
                "'completed', 2, 1, 1, 1, 100, 70.5, 29.5, 10, 1, 2, 15, 0, 1.5, 20, 70.5, "
                "0.6, NOW())"
            )
        )
    kpi = create_engine(
        make_url(mysql_url).set(username=user, password=password), pool_pre_ping=True
    )
    try:
        with kpi.connect() as conn:
            value = conn.execute(text("SELECT efficiency_pct FROM job_efficiency_records")).scalar()
            assert value == 70.5
            conn.execute(text("SELECT count(*) FROM attempt_records"))
            for forbidden in (
                "SELECT * FROM decision_records",
                "DELETE FROM job_efficiency_records",
                "UPDATE job_efficiency_records SET efficiency_pct = 100",
            ):
                with pytest.raises((OperationalError, ProgrammingError)):
                    conn.execute(text(forbidden))
    finally:
        kpi.dispose()
        with mysql_server.connect() as admin:
            admin.execute(text(f"DROP USER IF EXISTS '{user}'@'%'"))
