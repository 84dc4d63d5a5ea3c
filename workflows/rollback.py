"""Checkpoint rollback (recovery policy v2): the same failure right after loading checkpoint N,
twice in a row, means N is bad: the next attempt is told to load the one before it. Pure.

Never loops: a step ajr rolled back from is never rolled back from again (each checkpoint is
tried once), and a job that ignores the advice simply meets the usual limits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from models.recovery import Action, AttemptRecord, Observation
from workflows.policy import exit_text

_VARIABLE = re.compile(r"0x[0-9a-fA-F]+|\d+")


def signature(category: str, text: str) -> str:
    """The failure's shape: its category and its first evidence with numbers blanked (ranks,
    addresses, times and pids differ between attempts; the failure does not)."""
    return f"{category}|{_VARIABLE.sub('#', text.strip())[:200]}"


@dataclass(frozen=True)
class Failure:
    """One attempt's failure as the rule weighs it."""

    loaded_step: int | None
    loaded_at: float
    failed_at: float
    signature: str


def from_record(record: AttemptRecord) -> Failure:
    category = record.category.value if record.category else ""
    first = record.evidence[0] if record.evidence else record.exit
    return Failure(
        record.loaded_step, record.loaded_at, record.decided_at, signature(category, first)
    )


def from_observation(observation: Observation, now: float) -> Failure:
    category = observation.category.value if observation.category else ""
    first = observation.evidence[0] if observation.evidence else exit_text(observation)
    cursor = observation.cursor
    return Failure(cursor.loaded_step, cursor.loaded_at, now, signature(category, first))


def soon_after_load(failure: Failure, window_s: float) -> bool:
    return (
        failure.loaded_step is not None
        and failure.loaded_at > 0
        and 0 <= failure.failed_at - failure.loaded_at <= window_s
    )


@dataclass(frozen=True)
class RollbackPlan:
    bad_step: int  # load a checkpoint older than this
    load_step: int | None  # the newest older step ajr knows of, if any
    reason: str


def plan(
    current: Failure,
    history: Sequence[AttemptRecord],
    *,
    window_s: float,
    rolled_back_from: Sequence[int],
) -> RollbackPlan | None:
    """A rollback when this failure and the previous attempt's are the same, both soon after
    loading the same checkpoint, from which ajr never rolled back before."""
    previous = next((r for r in reversed(history) if r.action is Action.REQUEUE and r.acted), None)
    if previous is None or not soon_after_load(current, window_s):
        return None
    before = from_record(previous)
    step = current.loaded_step
    if step is None or before.loaded_step != step or step in rolled_back_from:
        return None
    if not soon_after_load(before, window_s) or before.signature != current.signature:
        return None
    known = {
        s
        for r in history
        for s in (r.last_save_step, r.loaded_step)
        if s is not None and s < step and s not in rolled_back_from
    }
    older = max(known) if known else None
    target = f"step {older}" if older is not None else "the checkpoint before it"
    return RollbackPlan(
        bad_step=step,
        load_step=older,
        reason=(
            f"failed the same way twice within {window_s:.0f}s of loading checkpoint {step}: "
            f"next attempt told to load {target}"
        ),
    )
