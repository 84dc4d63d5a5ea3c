"""ajr's Grafana dashboard as code (grafana-foundation-sdk): the training-efficiency KPIs read
from MySQL/MariaDB through the read-only KPI user (deploy/sql/kpi_readonly_user.sql).

    python deploy/grafana/dashboards.py   # writes deploy/grafana/dashboards/ajr-efficiency.json

Every panel's SQL is in PANELS, so the tests run each one against MariaDB loaded with known
records and check its numbers (Grafana's `$__timeFilter(col)` macro substituted).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grafana_foundation_sdk.builders import dashboard, piechart, table, timeseries
from grafana_foundation_sdk.cog import builder as cogbuilder
from grafana_foundation_sdk.cog import variants as cogvariants
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models.dashboard import DataSourceRef

DATASOURCE_UID = "ajr-kpi"  # the provisioned datasource (provisioning/datasources/ajr-mysql.yaml)
OUTPUT = Path(__file__).resolve().parent / "dashboards" / "ajr-efficiency.json"


@dataclass(frozen=True)
class SqlPanel:
    key: str
    title: str
    kind: str  # timeseries | table | piechart
    sql: str
    unit: str = ""
    fmt: str = "table"  # Grafana's MySQL query format: table or time_series


PANELS: tuple[SqlPanel, ...] = (
    SqlPanel(
        "efficiency",
        "Cluster training time efficiency per day",
        "timeseries",
        "SELECT TIMESTAMP(DATE(first_start_at)) AS time, "
        "100 * SUM(productive_s) / NULLIF(SUM(span_s), 0) AS efficiency_pct "
        "FROM job_efficiency_records WHERE $__timeFilter(first_start_at) "
        "GROUP BY DATE(first_start_at) ORDER BY time",
        unit="percent",
        fmt="time_series",
    ),
    SqlPanel(
        "downtime",
        "Downtime breakdown (seconds)",
        "piechart",
        "SELECT SUM(recomputed_s) AS recomputed, SUM(detection_s) AS detection, "
        "SUM(shutdown_s) AS shutdown, SUM(requeue_s) AS requeue, SUM(manual_s) AS manual, "
        "SUM(restart_s) AS restart "
        "FROM job_efficiency_records WHERE $__timeFilter(first_start_at)",
        unit="s",
    ),
    SqlPanel(
        "categories",
        "Failures by category",
        "piechart",
        "SELECT COALESCE(category, 'UNKNOWN') AS category, COUNT(*) AS failures "
        "FROM attempt_records WHERE failed AND $__timeFilter(decided_at) "
        "GROUP BY COALESCE(category, 'UNKNOWN') ORDER BY failures DESC, category",
    ),
    SqlPanel(
        "nodes",
        "Top repeat-offender nodes",
        "table",
        "SELECT node, COUNT(DISTINCT job_id) AS jobs, COUNT(*) AS incidents, "
        "MAX(at) AS last_incident FROM node_incidents WHERE $__timeFilter(at) "
        "GROUP BY node ORDER BY jobs DESC, incidents DESC, node LIMIT 10",
    ),
    SqlPanel(
        "jobs",
        "Jobs (drill-down: ajr report JOBID)",
        "table",
        "SELECT job_id, job_name, user_name, `partition`, outcome, attempts, failures, "
        "ROUND(downtime_s, 1) AS downtime_s, ROUND(efficiency_pct, 1) AS efficiency_pct, "
        "ROUND(ettr, 3) AS ettr FROM job_efficiency_records "
        "WHERE $__timeFilter(first_start_at) ORDER BY first_start_at DESC, job_id DESC LIMIT 200",
    ),
)


class SqlQuery(cogvariants.Dataquery):
    """A raw-SQL target of Grafana's MySQL datasource (the SDK has no builder for it)."""

    def __init__(self, ref_id: str, sql: str, fmt: str) -> None:
        self.ref_id, self.sql, self.fmt = ref_id, sql, fmt

    def to_json(self) -> dict[str, object]:
        return {
            "refId": self.ref_id,
            "datasource": {"type": "mysql", "uid": DATASOURCE_UID},
            "editorMode": "code",
            "rawQuery": True,
            "rawSql": self.sql,
            "format": self.fmt,
        }


class SqlQueryBuilder(cogbuilder.Builder[cogvariants.Dataquery]):
    def __init__(self, ref_id: str, sql: str, fmt: str) -> None:
        self._query = SqlQuery(ref_id, sql, fmt)

    def build(self) -> cogvariants.Dataquery:
        return self._query


_KINDS: dict[str, Any] = {
    "timeseries": timeseries.Panel,
    "table": table.Panel,
    "piechart": piechart.Panel,
}


def build() -> dict[str, Any]:
    """The dashboard as Grafana's JSON model."""
    board = (
        dashboard.Dashboard("ajr: training efficiency")
        .uid("ajr-efficiency")
        .tags(["ajr", "slurm", "efficiency"])
        .time("now-30d", "now")
        .refresh("1m")
        .readonly()
    )
    for panel in PANELS:
        widget = (
            _KINDS[panel.kind]()
            .title(panel.title)
            .datasource(DataSourceRef(type_val="mysql", uid=DATASOURCE_UID))
            .with_target(SqlQueryBuilder("A", panel.sql, panel.fmt))
            .height(8)
            .span(12 if panel.kind != "table" else 24)
        )
        if panel.unit:
            widget = widget.unit(panel.unit)
        board = board.with_panel(widget)
    built: dict[str, Any] = json.loads(json.dumps(board.build(), cls=JSONEncoder))
    return built


def render() -> str:
    return json.dumps(build(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(render())
    print(f"wrote {OUTPUT}")  # noqa: T201
