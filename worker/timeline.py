"""The job's timeline as a PNG (matplotlib): attempts as bars, anomalies, checkpoint saves and
each downtime shaded by its parts."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display on a server

import matplotlib.pyplot as plt

from models.efficiency import PARTS

_PART_COLOURS = {
    "recomputed": "#f4a261",
    "detection": "#e76f51",
    "shutdown": "#9d4edd",
    "requeue": "#8ecae6",
    "manual": "#adb5bd",
    "restart": "#2a9d8f",
}


def _t(value: str | None) -> float | None:
    return datetime.fromisoformat(value).timestamp() if value else None


def draw_timeline(report: dict[str, Any], path: Path) -> None:
    attempts = report["attempts"]
    starts = [_t(a["times"]["started_at"]) for a in attempts]
    origin = min([s for s in starts if s] or [0.0])
    fig, ax = plt.subplots(figsize=(11, 2.2 + 0.5 * len(attempts)))
    for a in attempts:
        y = a["attempt"]
        start = _t(a["times"]["started_at"])
        end = _t(a["times"]["held_at"]) or _t(a["times"]["ended_at"])
        end = end or _t(a["times"]["decided_at"])
        if start is not None and end is not None:
            ax.barh(y, end - start, left=start - origin, height=0.5, color="#52b788")
        anomaly = _t(a["times"]["anomaly_at"])
        if anomaly is not None:
            ax.plot(anomaly - origin, y, "rx", markersize=10)
            ax.annotate(
                f"{a['observed']} {a['category'] or ''}".strip(),
                (anomaly - origin, y + 0.3),
                fontsize=8,
                color="red",
            )
        for save in a["checkpoint_saves"]:
            at = _t(save["at"])
            if at is not None:
                ax.plot(at - origin, y, "k|", markersize=14)
    shaded: set[str] = set()
    for stop in report["interruptions"]:
        left = _t(stop["last_save"])
        if left is None:
            continue
        left -= origin
        for name in PARTS:
            width = stop["parts_s"][name]
            if width > 0:
                label = name if name not in shaded else None
                shaded.add(name)
                ax.axvspan(left, left + width, color=_PART_COLOURS[name], alpha=0.35, label=label)
                left += width
    ax.set_yticks([a["attempt"] for a in attempts])
    ax.set_yticklabels([f"attempt {a['attempt']}" for a in attempts])
    ax.set_xlabel("seconds since the first attempt started")
    k = report["kpis"]
    ax.set_title(
        f"job {report['job_id']} {report['job_name']}: {report['outcome']}, downtime "
        f"{k['downtime_s']:.1f}s, training time efficiency "
        f"{k['training_time_efficiency_pct']:.1f}%"
    )
    if shaded:
        ax.legend(loc="upper left", fontsize=8, ncols=len(shaded))
    ax.invert_yaxis()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
