"""`ajr report JOBID [--json] [--png FILE]`: a job's story from the database: its attempts,
anomalies with evidence, decisions, excluded nodes, checkpoint saves and the KPI breakdown."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session

from activities.database import efficiency
from activities.database.engine import make_engine
from activities.database.tables import AttemptRow, CheckpointSave
from models.efficiency import PARTS, JobEfficiency
from worker.config import Settings


def _iso(epoch_s: float) -> str | None:
    return datetime.fromtimestamp(epoch_s, UTC).isoformat() if epoch_s > 0 else None


def _attempt(row: AttemptRow, saves: list[CheckpointSave]) -> dict[str, Any]:
    times = {
        name: _iso(efficiency.epoch(getattr(row, name)))
        for name in (
            "submitted_at",
            "started_at",
            "ended_at",
            "anomaly_at",
            "seen_at",
            "decided_at",
            "held_at",
            "released_at",
            "first_step_at",
            "loaded_at",
            "last_save_at",
        )
    }
    return {
        "attempt": row.attempt,
        "nodes": json.loads(row.nodes),
        "state": row.state,
        "exit": row.exit,
        "observed": row.observed,
        "category": row.category,
        "confidence": row.confidence,
        "culprit_nodes": json.loads(row.culprit_nodes),
        "evidence": json.loads(row.evidence),
        "decision": row.action,
        "acted": row.acted,
        "reasons": json.loads(row.reasons),
        "excluded_nodes": json.loads(row.excluded_nodes),
        "times": times,
        "checkpoint_saves": [
            {
                "at": _iso(efficiency.epoch(s.saved_at)),
                "step": s.step,
                "duration_s": s.duration_s,
            }
            for s in saves
            if s.attempt == row.attempt
        ],
    }


def story(
    cluster: str,
    job_id: int,
    rows: list[AttemptRow],
    saves: list[CheckpointSave],
    kpi: JobEfficiency,
    outcome: str,
) -> dict[str, Any]:
    """The report as one JSON-ready object."""
    first = rows[0]
    return {
        "cluster": cluster,
        "job_id": job_id,
        "job_name": first.job_name,
        "user": first.user_name,
        "partition": first.partition,
        "outcome": outcome,
        "attempts": [_attempt(row, saves) for row in rows],
        "kpis": {
            "span_s": kpi.span_s,
            "productive_s": kpi.productive_s,
            "downtime_s": kpi.downtime_s,
            "downtime_parts_s": dict(kpi.parts),
            "queue_wait_s": kpi.queue_wait_s,
            "training_time_efficiency_pct": kpi.efficiency_pct,
            "ettr": kpi.ettr,
            "failures": kpi.failures,
            "restarts": kpi.restarts,
            "restart_successes": kpi.restart_successes,
        },
        "interruptions": [
            {
                "attempt": stop.attempt,
                "last_save": _iso(stop.since),
                "resumed": _iso(stop.until),
                "downtime_s": stop.downtime_s,
                "parts_s": dict(stop.parts),
                "open": stop.open,
                "restart_success": stop.restart_success,
            }
            for stop in kpi.interruptions
        ],
    }


def render(report: dict[str, Any]) -> list[str]:
    """The report as text for a terminal."""
    lines = [
        f"job {report['job_id']} {report['job_name']} ({report['user']}, "
        f"partition {report['partition']}): {report['outcome']}"
    ]
    for a in report["attempts"]:
        started = a["times"]["started_at"] or "-"
        lines.append(
            f"attempt {a['attempt']} on {','.join(a['nodes']) or '?'} started {started}: "
            f"{a['observed']}"
            + (f" {a['category']}" if a["category"] else "")
            + (f" (confidence {a['confidence']:.2f})" if a["confidence"] is not None else "")
            + (f" on {','.join(a['culprit_nodes'])}" if a["culprit_nodes"] else "")
            + f" -> {a['decision']}"
            + (f" excluding {','.join(a['excluded_nodes'])}" if a["excluded_nodes"] else "")
        )
        lines += [f"    evidence: {line}" for line in a["evidence"][:3]]
        lines += [f"    because: {reason}" for reason in a["reasons"]]
        for save in a["checkpoint_saves"]:
            took = f" in {save['duration_s']:.1f}s" if save["duration_s"] is not None else ""
            lines.append(f"    checkpoint saved at {save['at']} (step {save['step']}){took}")
    k = report["kpis"]
    lines.append(
        f"KPIs: span {k['span_s']:.1f}s, productive {k['productive_s']:.1f}s, downtime "
        f"{k['downtime_s']:.1f}s, training time efficiency "
        f"{k['training_time_efficiency_pct']:.1f}%, ETTR {k['ettr']:.3f}"
    )
    for stop in report["interruptions"]:
        parts = ", ".join(f"{name} {stop['parts_s'][name]:.1f}s" for name in PARTS)
        lines.append(
            f"  after attempt {stop['attempt']}: {stop['downtime_s']:.1f}s = {parts}"
            + (
                " (open: counted up to now; the next attempt has no record yet)"
                if stop["open"]
                else ""
            )
        )
    return lines


def load(settings: Settings, job_id: int, *, now: float) -> dict[str, Any] | None:
    engine = make_engine(settings.database_url)
    try:
        with Session(engine) as session:
            rows, saves = efficiency.job_rows(session, settings.cluster_name, job_id)
    finally:
        engine.dispose()
    if not rows:
        return None
    last = rows[-1]
    over = bool(last.outcome) and last.outcome != "running"
    kpi = efficiency.compute(
        rows, saves, now=0.0 if over else now, window_s=settings.restart_success_window
    )
    return story(settings.cluster_name, job_id, rows, saves, kpi, last.outcome or "running")
