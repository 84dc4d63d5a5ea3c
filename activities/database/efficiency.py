"""The job_efficiency_records row of one job, recomputed from its attempt_records and
checkpoint_saves rows with the pure KPIs of models/efficiency.py."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import Session, select

from activities.database.tables import (
    AttemptRow,
    CheckpointSave,
    JobEfficiencyRecord,
    utc_now_naive,
)
from activities.database.upsert import upsert
from models.efficiency import AttemptTimes, JobEfficiency, job_efficiency


def epoch(value: datetime | None) -> float:
    """A naive-UTC column as epoch seconds (0: unknown)."""
    return value.replace(tzinfo=UTC).timestamp() if value is not None else 0.0


def utc(epoch_s: float) -> datetime | None:
    """Epoch seconds as what the DATETIME columns store (None: unknown)."""
    return datetime.fromtimestamp(epoch_s, UTC).replace(tzinfo=None) if epoch_s > 0 else None


def attempt_times(row: AttemptRow, saves: list[CheckpointSave]) -> AttemptTimes:
    return AttemptTimes(
        attempt=row.attempt,
        submitted_at=epoch(row.submitted_at),
        started_at=epoch(row.started_at),
        ended_at=epoch(row.ended_at),
        anomaly_at=epoch(row.anomaly_at),
        seen_at=epoch(row.seen_at),
        held_at=epoch(row.held_at),
        first_step_at=epoch(row.first_step_at),
        loaded_at=epoch(row.loaded_at),
        save_times=tuple(sorted(epoch(s.saved_at) for s in saves if s.attempt == row.attempt))
        or ((epoch(row.last_save_at),) if row.last_save_at else ()),
        failed=row.failed,
        requeued_by_ajr=row.action == "requeue" and row.acted,
    )


def job_rows(
    session: Session, cluster: str, job_id: int
) -> tuple[list[AttemptRow], list[CheckpointSave]]:
    rows = session.exec(
        select(AttemptRow)
        .where(AttemptRow.cluster == cluster, AttemptRow.job_id == job_id)
        .order_by(AttemptRow.attempt)  # type: ignore[arg-type]
    ).all()
    saves = session.exec(
        select(CheckpointSave)
        .where(CheckpointSave.cluster == cluster, CheckpointSave.job_id == job_id)
        .order_by(CheckpointSave.saved_at)  # type: ignore[arg-type]
    ).all()
    return list(rows), list(saves)


def compute(
    rows: list[AttemptRow], saves: list[CheckpointSave], *, now: float, window_s: float
) -> JobEfficiency:
    return job_efficiency(
        [attempt_times(row, saves) for row in rows], now=now, success_window_s=window_s
    )


def refresh(
    session: Session,
    cluster: str,
    job_id: int,
    *,
    outcome: str,
    now: float,
    window_s: float,
) -> JobEfficiency | None:
    """Recompute and upsert the job's row; `now` closes what is still open (0 for a job that
    is over). None when the job has no attempt rows."""
    rows, saves = job_rows(session, cluster, job_id)
    if not rows:
        return None
    kpi = compute(rows, saves, now=now, window_s=window_s)
    first, last = rows[0], rows[-1]
    values = {
        "cluster": cluster,
        "job_id": job_id,
        "job_name": first.job_name,
        "user_name": first.user_name,
        "partition": first.partition,
        "outcome": outcome,
        "attempts": len(rows),
        "failures": kpi.failures,
        "restarts": kpi.restarts,
        "restart_successes": kpi.restart_successes,
        "first_submit_at": first.submitted_at,
        "first_start_at": first.started_at,
        "last_end_at": last.ended_at,
        "span_s": kpi.span_s,
        "productive_s": kpi.productive_s,
        "downtime_s": kpi.downtime_s,
        **{f"{part}_s": seconds for part, seconds in kpi.parts.items()},
        "queue_wait_s": kpi.queue_wait_s,
        "efficiency_pct": kpi.efficiency_pct,
        "ettr": kpi.ettr,
        "updated_at": utc_now_naive(),
    }
    upsert(session, JobEfficiencyRecord.__table__, values, keys=["cluster", "job_id"])  # type: ignore[attr-defined]
    return kpi
