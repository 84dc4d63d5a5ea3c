"""Every knob of the log engine, defined once: the watcher and `ajr check-log` use the same.

`worker.config.Settings.engine_settings()` builds it from `AJR_*` variables (validated at
start-up); the watcher receives it inside each job's `RecoveryConfig`, check-log directly. A value
that makes no sense fails here too, so a bad payload can never run a silently different engine.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields

from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS


class BadEngineSetting(ValueError):
    pass


@dataclass(frozen=True)
class EngineSettings:
    # Silence (seconds) that is a HANG: never less than `hang_timeout_s` in any phase.
    hang_timeout_s: float = 120.0
    setup_timeout_s: float = 900.0  # before the first progress report, and while data loads
    checkpoint_timeout_s: float = 600.0  # while a checkpoint save is in progress
    eval_timeout_s: float = 900.0  # while an evaluation runs
    cadence_factor: float = 5.0  # a slow job may be silent this many times its iteration time
    # An ambiguous failure line (a Python exception, an NCCL error) counts as a crash unless
    # training goes on: `confirm_progress` newer progress reports within `crash_confirm_s`.
    crash_confirm_s: float = 30.0
    confirm_progress: int = 2
    # A stop from outside (SIGTERM, a preemption or time-limit notice) that training went on
    # after is still what ended the attempt if it ends within this many seconds: the grace
    # period (Slurm's KillWait, a preemption's GraceTime, `--signal=USR1@600`) is spent saving.
    stop_grace_s: float = 900.0
    nan_reports: int = 3  # consecutive NaN/inf losses that are fatal
    straggler_score: float = 0.7  # NVRx relative performance score below which a rank is slow
    # Per-rank timings (lines or tables): a rank slower than the others by 1/straggler_score in
    # its own work in this many reports in a row is a straggler.
    straggler_rank_reports: int = 3
    # A throughput drop: after `throughput_warmup` reports, the median of `throughput_window`
    # is the baseline; `throughput_sustained` reports in a row below (1 - drop) x baseline.
    throughput_warmup: int = 3
    throughput_window: int = 5
    throughput_drop: float = 0.2
    throughput_sustained: int = 10
    # ... or, when every one is below (1 - deep_drop) x baseline, `deep_sustained` in a row
    throughput_deep_drop: float = 0.5
    throughput_deep_sustained: int = 6
    # ... or three or more such reports in a row over this many seconds of the job's time (a job
    # that reports once an epoch takes many minutes to make `deep_sustained` reports)
    throughput_deep_span_s: float = 180.0
    throughput_quiet: int = 1  # reports ignored after a save or an evaluation
    checkpoint_patterns: tuple[str, ...] = DEFAULT_CHECKPOINT_PATTERNS
    checkpoint_start_patterns: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        problems = []
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool):
                problems.append(f"{field.name} must be a number")
            elif isinstance(value, int | float) and (not math.isfinite(value) or value < 0):
                problems.append(f"{field.name} must be a finite number >= 0, got {value!r}")
        if self.hang_timeout_s <= 0:
            problems.append("hang_timeout_s must be > 0")
        if not 0 < self.throughput_drop < 1:
            problems.append("throughput_drop must be between 0 and 1")
        if self.throughput_window < 1 or self.throughput_sustained < 1:
            problems.append("throughput_window and throughput_sustained must be >= 1")
        if not self.throughput_drop <= self.throughput_deep_drop < 1:
            problems.append("throughput_deep_drop must be between throughput_drop and 1")
        if self.throughput_deep_sustained < 1:
            problems.append("throughput_deep_sustained must be >= 1")
        if not 0 < self.straggler_score <= 1:
            problems.append("straggler_score must be in (0, 1]")
        if self.straggler_rank_reports < 1:
            problems.append("straggler_rank_reports must be >= 1")
        if self.confirm_progress < 1 or self.nan_reports < 1:
            problems.append("confirm_progress and nan_reports must be >= 1")
        for pattern in (*self.checkpoint_patterns, *self.checkpoint_start_patterns):
            try:
                re.compile(pattern)
            except re.error as exc:
                problems.append(f"bad checkpoint pattern {pattern!r}: {exc}")
        if problems:
            raise BadEngineSetting("; ".join(problems))
