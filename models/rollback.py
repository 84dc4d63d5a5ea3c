"""Checkpoint rollback payloads (pure): what ajr tells the next attempt, and where.

The mechanism is a file in the job's working directory, `ajr_rollback_<job id>.json`, which the
training script reads before it loads a checkpoint (README: "Checkpoint rollback").
"""

from __future__ import annotations

from dataclasses import dataclass, field


def rollback_file_name(job_id: int) -> str:
    return f"ajr_rollback_{job_id}.json"


@dataclass
class RollbackRequest:
    job_id: int
    user_name: str
    attempt: int  # the attempt that failed the second time
    load_before_step: int  # load the newest checkpoint older than this step
    load_step: int | None = None  # that checkpoint's step, when ajr saw it saved or loaded
    avoid_steps: list[int] = field(default_factory=list)  # every step ajr rolled back from
    reason: str = ""
    written_at: float = 0.0


@dataclass
class RollbackResult:
    written: bool
    path: str = ""
    detail: str = ""
