"""Requeue budgets by cause (recovery policy v2): which budget a failure is charged to, what is
left of it, and how long a repeated unknown failure waits. Pure functions, no Temporal.

A requeue is charged to one cause: infrastructure (GPU, NODE, NETWORK, STORAGE, SCHEDULER,
NODE_FAIL, "resume on different hardware"; its own budget), application (the job's own code;
its own budget), unknown (no budget of its own, as no cause is known: the job's and the
system's limits, and a back-off when repeated), or nothing at all: a preemption, a requeue by
Slurm or a person, and a time-limit stop after a new checkpoint are progress or someone else's
doing, and never count toward any limit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from models.categories import Category
from models.recovery import Action, AttemptRecord, Observation, Observed, RecoveryConfig
from models.slurm import JobState


class Cause(StrEnum):
    FREE = ""  # never charged: preemption, Slurm's own requeue, time-limit continuation
    INFRASTRUCTURE = "infrastructure"
    APPLICATION = "application"
    UNKNOWN = "unknown"  # the overall limits only, with back-off when repeated


INFRASTRUCTURE = frozenset(
    {Category.GPU, Category.NODE, Category.NETWORK, Category.STORAGE, Category.SCHEDULER}
)
# slurmstepd's "DUE TO PREEMPTION", a cloud "preempted" notice: the engine's preemption signals.
_PREEMPTED = re.compile(r"\bpreempt(?:ed|ion)\b", re.IGNORECASE)


def is_continuation(observation: Observation) -> bool:
    """A time-limit stop after a new checkpoint is progress, not failure."""
    return (
        observation.kind is Observed.EXITED
        and observation.state is JobState.TIMEOUT
        and observation.cursor.checkpoints > 0
    )


def is_preemption(observation: Observation) -> bool:
    """Slurm (or the cloud) took the nodes away: the job did nothing wrong."""
    if observation.state is JobState.PREEMPTED:
        return True
    if observation.category not in (Category.SCHEDULER, None):
        return False
    return any(_PREEMPTED.search(text) for text in (observation.detail, *observation.evidence))


def cause_of(observation: Observation, config: RecoveryConfig) -> Cause:
    """The budget a requeue after `observation` is charged to."""
    if observation.kind is Observed.REQUEUED or is_continuation(observation):
        return Cause.FREE
    if is_preemption(observation):
        return Cause.FREE
    if observation.state is JobState.TIMEOUT:
        return Cause.APPLICATION  # out of time without a checkpoint: the job's own pacing
    if observation.state is JobState.NODE_FAIL:
        return Cause.INFRASTRUCTURE
    if (
        observation.kind is Observed.EXITED
        and observation.exit_code in config.different_hardware_exit_codes
    ):
        return Cause.INFRASTRUCTURE
    if observation.kind is Observed.STRAGGLER:
        return Cause.INFRASTRUCTURE  # a slow node, never the job's code
    if observation.category in INFRASTRUCTURE:
        return Cause.INFRASTRUCTURE
    if observation.category is Category.APPLICATION:
        return Cause.APPLICATION
    return Cause.UNKNOWN


def _charge(record: AttemptRecord) -> Cause | None:
    """What an earlier attempt's requeue was charged to (None: it was not requeued by ajr)."""
    if record.action is not Action.REQUEUE or not record.acted:
        return None
    if record.charge is None:  # decided before budgets existed: counted, cause unknown
        return Cause.UNKNOWN
    try:
        return Cause(record.charge)
    except ValueError:
        return Cause.UNKNOWN


@dataclass(frozen=True)
class Spent:
    """Requeues charged so far, per budget."""

    infrastructure: int = 0
    application: int = 0
    unknown: int = 0
    free: int = 0

    @property
    def charged(self) -> int:
        """What counts toward the job's max_requeue_times and the system maximum."""
        return self.infrastructure + self.application + self.unknown


def spent(history: Sequence[AttemptRecord]) -> Spent:
    counts = dict.fromkeys(Cause, 0)
    for record in history:
        cause = _charge(record)
        if cause is not None:
            counts[cause] += 1
    return Spent(
        counts[Cause.INFRASTRUCTURE], counts[Cause.APPLICATION], counts[Cause.UNKNOWN],
        counts[Cause.FREE],
    )  # fmt: skip


def budget_exhausted(cause: Cause, used: Spent, config: RecoveryConfig) -> str:
    """Why the cause's own budget forbids another requeue, or "" when it allows one."""
    if (
        cause is Cause.INFRASTRUCTURE
        and used.infrastructure >= config.infrastructure_requeue_budget
    ):
        return (
            f"infrastructure requeue budget spent: {used.infrastructure} of "
            f"{config.infrastructure_requeue_budget}"
        )
    if cause is Cause.APPLICATION and used.application >= config.application_requeue_budget:
        return (
            f"application requeue budget spent: {used.application} of "
            f"{config.application_requeue_budget}"
        )
    return ""


def unknown_streak(history: Sequence[AttemptRecord]) -> int:
    """How many of the latest charged requeues in a row were for unknown failures (free
    requeues in between neither count nor break the streak)."""
    streak = 0
    for record in reversed(history):
        cause = _charge(record)
        if cause is None or cause is Cause.FREE:
            continue
        if cause is not Cause.UNKNOWN:
            break
        streak += 1
    return streak


def backoff_s(cause: Cause, history: Sequence[AttemptRecord], config: RecoveryConfig) -> int:
    """Seconds the next attempt waits: 0 for a first unknown failure, then the base doubling
    with each repeat (base, 2x, 4x, ...), at most the cap. Other causes never wait."""
    if cause is not Cause.UNKNOWN or config.unknown_backoff_s <= 0:
        return 0
    repeats = unknown_streak(history)
    if repeats == 0:
        return 0
    delay = config.unknown_backoff_s * 2 ** min(repeats - 1, 30)
    return int(min(delay, config.unknown_backoff_max_s))
