"""What ajr knows about a Slurm job at one moment, independent of Slurm's JSON versions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum


class JobState(StrEnum):
    PENDING = "PENDING"
    RUNNING = "RUNNING"
    SUSPENDED = "SUSPENDED"
    COMPLETING = "COMPLETING"
    COMPLETED = "COMPLETED"
    CANCELLED = "CANCELLED"
    FAILED = "FAILED"
    TIMEOUT = "TIMEOUT"
    NODE_FAIL = "NODE_FAIL"
    PREEMPTED = "PREEMPTED"
    BOOT_FAIL = "BOOT_FAIL"
    DEADLINE = "DEADLINE"
    OUT_OF_MEMORY = "OUT_OF_MEMORY"
    REQUEUED = "REQUEUED"
    UNKNOWN = "UNKNOWN"

    @property
    def is_ended(self) -> bool:
        """The attempt is over: no process of it runs any more (COMPLETING still may)."""
        return self in _ENDED

    @property
    def is_active(self) -> bool:
        return self in (JobState.PENDING, JobState.RUNNING, JobState.SUSPENDED)


_ENDED = frozenset(
    {
        JobState.COMPLETED,
        JobState.CANCELLED,
        JobState.FAILED,
        JobState.TIMEOUT,
        JobState.NODE_FAIL,
        JobState.PREEMPTED,
        JobState.BOOT_FAIL,
        JobState.DEADLINE,
        JobState.OUT_OF_MEMORY,
    }
)

# Slurm's reasons for a job held by requeuehold or `scontrol hold`.
HELD_REASONS = frozenset({"JobHeldUser", "JobHeldAdmin", "job_requeued_in_held_state"})

NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def is_valid_node_name(name: str) -> bool:
    return NODE_NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class ExitStatus:
    """A decoded wait status: Slurm reports `exit_code` as the raw value (256 means exit 1)."""

    code: int = 0
    signal: int = 0

    @classmethod
    def from_wait_status(cls, status: int) -> ExitStatus:
        if status & 0x7F:
            return cls(code=0, signal=status & 0x7F)
        return cls(code=(status >> 8) & 0xFF, signal=0)

    def __str__(self) -> str:
        return f"signal {self.signal}" if self.signal else f"exit {self.code}"


@dataclass(frozen=True)
class SlurmJob:
    """One job as slurmctld reports it (a snapshot)."""

    job_id: int
    name: str
    state: JobState
    state_reason: str = ""
    restart_count: int = 0
    user_id: int = 0
    user_name: str = ""
    group_id: int = 0
    partition: str = ""
    comment: str = ""
    nodes: tuple[str, ...] = ()
    node_count: int = 0
    tasks: int = 0
    excluded_nodes: tuple[str, ...] = ()
    requeue: bool = True
    priority: int = 1
    exit_status: ExitStatus = field(default_factory=ExitStatus)
    work_dir: str = ""
    stdout_path: str = ""
    submit_time: float = 0.0
    start_time: float = 0.0
    end_time: float = 0.0

    @property
    def held(self) -> bool:
        return self.state is JobState.PENDING and (
            self.priority == 0 or self.state_reason in HELD_REASONS
        )
