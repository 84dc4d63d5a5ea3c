"""deploy/grafana: the committed dashboard is what the code generates, and every panel's SQL,
run on MariaDB as the read-only KPI user over known records, gives the expected numbers."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import uuid
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import Engine, make_url

from activities.database.tables import AttemptRow, JobEfficiencyRecord, NodeIncident

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def _dashboards() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "dashboards", ROOT / "deploy/grafana/dashboards.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_committed_dashboard_is_the_generated_one() -> None:
    module = _dashboards()
    committed = (ROOT / "deploy/grafana/dashboards/ajr-efficiency.json").read_text()
    assert committed == module.render(), "run: python deploy/grafana/dashboards.py"
    board = json.loads(committed)
    sqls = [t["rawSql"] for p in board["panels"] for t in p["targets"]]
    assert sqls == [panel.sql for panel in module.PANELS]
    source = yaml.safe_load(
        (ROOT / "deploy/grafana/provisioning/datasources/ajr-mysql.yaml").read_text()
    )["datasources"][0]
    assert (source["uid"], source["type"], source["user"]) == (
        module.DATASOURCE_UID,
        "mysql",
        "ajr_kpi",
    )


def _job(job_id: int, day: int, **kpis: Any) -> dict[str, Any]:
    base = {
        "cluster": "c",
        "job_id": job_id,
        "job_name": f"train{job_id}",
        "user_name": "alice",
        "partition": "gpu",
        "outcome": "completed",
        "attempts": 2,
        "failures": 1,
        "restarts": 1,
        "restart_successes": 1,
        "first_submit_at": datetime(2026, 11, day, 9, 59),
        "first_start_at": datetime(2026, 11, day, 10, 0),
        "last_end_at": datetime(2026, 11, day, 12, 0),
        "span_s": 0.0,
        "productive_s": 0.0,
        "downtime_s": 0.0,
        "recomputed_s": 0.0,
        "detection_s": 0.0,
        "shutdown_s": 0.0,
        "requeue_s": 0.0,
        "manual_s": 0.0,
        "restart_s": 0.0,
        "queue_wait_s": 0.0,
        "efficiency_pct": 0.0,
        "ettr": 0.0,
        "updated_at": datetime(2026, 11, day, 12, 0),
    }
    return {**base, **kpis}


def _failure(job_id: int, attempt: int, category: str | None) -> dict[str, Any]:
    return {
        "cluster": "c",
        "job_id": job_id,
        "attempt": attempt,
        "job_name": "",
        "user_name": "",
        "partition": "",
        "nodes": "[]",
        "state": "",
        "exit": "",
        "observed": "CRASH",
        "category": category,
        "culprit_nodes": "[]",
        "evidence": "[]",
        "action": "requeue",
        "acted": True,
        "failed": True,
        "outcome": "running",
        "reasons": "[]",
        "excluded_nodes": "[]",
        "checkpoints": 0,
        "interrupted_saves": 0,
        "decided_at": datetime(2026, 11, 20, 10, attempt),
        "updated_at": datetime(2026, 11, 20, 10, attempt),
    }


def _load(admin: Engine, database: str) -> None:
    with admin.begin() as conn:
        conn.execute(text(f"USE `{database}`"))
        conn.execute(
            insert(JobEfficiencyRecord.__table__),  # type: ignore[attr-defined]
            [
                _job(
                    1,
                    20,
                    span_s=1000,
                    productive_s=700,
                    downtime_s=300,
                    recomputed_s=100,
                    detection_s=10,
                    shutdown_s=20,
                    requeue_s=150,
                    restart_s=20,
                    efficiency_pct=70,
                ),
                _job(
                    2,
                    20,
                    span_s=3000,
                    productive_s=2900,
                    downtime_s=100,
                    recomputed_s=50,
                    detection_s=5,
                    shutdown_s=5,
                    requeue_s=30,
                    manual_s=0,
                    restart_s=10,
                    efficiency_pct=96.7,
                ),
                _job(
                    3, 21, span_s=500, productive_s=500, failures=0, attempts=1, efficiency_pct=100
                ),
                _job(4, 1, span_s=99, productive_s=0),  # outside the time range
            ],
        )
        conn.execute(
            insert(AttemptRow.__table__),  # type: ignore[attr-defined]
            [
                _failure(1, 0, "GPU"),
                _failure(2, 0, "GPU"),
                _failure(2, 1, "NETWORK"),
                _failure(5, 0, None),
            ],
        )
        conn.execute(
            insert(NodeIncident.__table__),  # type: ignore[attr-defined]
            [
                {
                    "incident_id": f"i{n}",
                    "cluster": "c",
                    "node": node,
                    "job_id": job,
                    "attempt": 0,
                    "observed": "CRASH",
                    "at": datetime(2026, 11, 20, 10, n),
                }
                for n, (node, job) in enumerate(
                    [("node3", 1), ("node3", 2), ("node3", 2), ("node1", 4), ("node2", 4)]
                )
            ],
        )


def test_every_panel_gives_the_known_numbers(mysql_server: Engine, mysql_url: str) -> None:
    module = _dashboards()
    database = make_url(mysql_url).database
    assert database
    _load(mysql_server, database)
    user, password = f"kpi_{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    script = (ROOT / "deploy/sql/kpi_readonly_user.sql").read_text()
    script = (
        script.replace("`ajr`.", f"`{database}`.")
        .replace("'ajr_kpi'", f"'{user}'")
        .replace("'change-me'", f"'{password}'")
    )
    with mysql_server.connect() as admin:
        for statement in re.sub(r"--[^\n]*", "", script).split(";"):
            if statement.strip():
                admin.execute(text(statement))
    kpi = create_engine(make_url(mysql_url).set(username=user, password=password))
    results: dict[str, list[tuple[Any, ...]]] = {}
    try:
        with kpi.connect() as conn:
            for panel in module.PANELS:
                sql = re.sub(
                    r"\$__timeFilter\((\w+)\)",
                    r"\1 BETWEEN '2026-11-15 00:00:00' AND '2026-11-30 00:00:00'",
                    panel.sql,
                )
                results[panel.key] = [tuple(row) for row in conn.execute(text(sql))]
    finally:
        kpi.dispose()
        with mysql_server.connect() as admin:
            admin.execute(text(f"DROP USER IF EXISTS '{user}'@'%'"))
    efficiency = [(t.date().isoformat(), round(float(v), 2)) for t, v in results["efficiency"]]
    assert efficiency == [("2026-11-20", 90.0), ("2026-11-21", 100.0)]  # 3600/4000, 500/500
    assert [float(v) for v in results["downtime"][0]] == [150, 15, 25, 180, 0, 30]
    assert results["categories"] == [("GPU", 2), ("NETWORK", 1), ("UNKNOWN", 1)]
    nodes = [(node, jobs, incidents) for node, jobs, incidents, _ in results["nodes"]]
    assert nodes == [("node3", 2, 3), ("node1", 1, 1), ("node2", 1, 1)]
    jobs = [(r[0], float(r[8])) for r in results["jobs"]]
    assert jobs == [(3, 100.0), (2, 96.7), (1, 70.0)]
