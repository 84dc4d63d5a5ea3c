"""The interface between the attempt watcher and whatever understands log lines.

The watcher feeds every complete new line with its arrival time, asks about silence, and reads
the checkpoint count. Core recovery ships `SignatureAnalyzer` (a basic signature set); the log
intelligence engine implements the same protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from models.categories import Category
from models.engine_settings import EngineSettings
from models.recovery import Observed


@dataclass(frozen=True)
class Finding:
    """An anomaly that warrants a decision now."""

    kind: Observed  # CRASH, HANG or STARTUP_TIMEOUT
    summary: str
    evidence: tuple[str, ...] = ()
    culprit_nodes: tuple[str, ...] = ()
    category: Category = Category.UNKNOWN
    requeue_warranted: bool | None = None  # None: no opinion, let the policy decide
    confidence: float | None = None  # the attribution's, 0..1 (None: no attribution)


@dataclass(frozen=True)
class AnalyzerContext:
    """What the analyzer may know about the attempt it reads, and the engine's settings."""

    job_nodes: tuple[str, ...] = ()
    job_tasks: int = 0  # with job_nodes: which node a rank ran on (block distribution)
    settings: EngineSettings = field(default_factory=EngineSettings)


@dataclass(frozen=True)
class Milestones:
    """What the log told of an attempt's progress: the efficiency records' ends."""

    first_step_at: float | None = None  # the first training step (the restart worked)
    loaded_step: int | None = None  # the checkpoint the attempt resumed from
    loaded_at: float | None = None
    last_save_step: int | None = None  # the last checkpoint it finished saving
    last_save_at: float | None = None
    interrupted_saves: int = 0  # saves begun and never finished
    # Recent completed saves: (step or None, when it completed, seconds it took or None).
    saves: tuple[tuple[int | None, float, float | None], ...] = ()
    training_done_at: float | None = None  # the log showed the final iteration (finish.py)
    in_job_restarter: bool = False  # an in-job restarter runs the job (restarter.py)


class LogAnalyzer(Protocol):
    def feed(self, line: str, at: float) -> Finding | None:
        """Consume one complete line (without its newline); return a finding to act on, if any."""
        ...

    def silence(self, silent_for: float, at: float) -> Finding | None:
        """Called while no new line arrives; return a HANG finding when the silence is too long."""
        ...

    @property
    def checkpoints(self) -> int:
        """Checkpoint saves seen so far in this attempt."""
        ...

    def milestones(self) -> Milestones:
        """Progress so far: first step, checkpoint loaded, last checkpoint saved."""
        ...

    def end_of_attempt(self, *, failed: bool, at: float) -> None:
        """The attempt is over (Slurm says so): settle what was still in progress."""
        ...

    def final_finding(self) -> Finding | None:
        """After the end: failure signals the job printed and never got past, if any."""
        ...

    def export_state(self) -> dict[str, Any]:
        """What a watch resumed on another worker needs to go on where this one stands."""
        ...

    def restore_state(self, state: Mapping[str, Any]) -> bool:
        """Take over an exported state; False if it cannot be read (start fresh then)."""
        ...
