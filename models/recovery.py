"""Payloads of the recovery workflow and its activities: small dataclasses, safe to evolve.

Histories of running workflows hold these payloads as JSON, and a new release must read the
ones an old release wrote: a field may be added (with a default), never renamed or removed; a
field's type may change only to one that reads every old value (see models/payloads.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from models.categories import Category
from models.engine_settings import EngineSettings
from models.enrolment import AutoResumeMode
from models.slurm import JobState
from models.suspects import Suspect


class Observed(StrEnum):
    """Why a watch of one attempt returned."""

    CRASH = "CRASH"  # a crash signature in the log while the attempt still runs
    HANG = "HANG"  # no new log line for hang_timeout
    STARTUP_TIMEOUT = "STARTUP_TIMEOUT"  # the attempt's log exists but stays empty too long
    STRAGGLER = "STRAGGLER"  # slow, not dead: requeue after the next checkpoint save
    LOG_MISSING = "LOG_MISSING"  # no log found within startup_timeout: warn, never kill for it
    EXITED = "EXITED"  # the attempt ended; see state and exit status
    REQUEUED = "REQUEUED"  # the restart count moved on without ajr (Slurm or a person)
    VANISHED = "VANISHED"  # slurmctld said "Invalid job id" for the job, confirmed over time
    # Notes, not decisions: Slurm stopped answering (nothing is changed meanwhile), and answered
    # again; the watch goes on with the same position.
    SLURM_UNREACHABLE = "SLURM_UNREACHABLE"
    SLURM_RECOVERED = "SLURM_RECOVERED"


# Observations that are recorded as a note and never decided on.
NOTES = frozenset({Observed.SLURM_UNREACHABLE, Observed.SLURM_RECOVERED})


# A stop decision on these cancels the attempt: it crashed or hangs, its nodes are wasted.
CANCEL_ON_STOP = frozenset({Observed.CRASH, Observed.HANG, Observed.STARTUP_TIMEOUT})
# Anomalies found while the attempt still runs: acting on them kills the attempt.
LIVE_ANOMALIES = frozenset(
    {Observed.CRASH, Observed.HANG, Observed.STARTUP_TIMEOUT, Observed.STRAGGLER}
)


class Action(StrEnum):
    REQUEUE = "requeue"  # requeuehold, exclude, release
    CANCEL = "cancel"  # stop recovery and scancel the still-running, failed attempt
    STOP = "stop"  # stop recovery, nothing to do in Slurm
    COMPLETE = "complete"  # the job is done (success or the user's own cancel)
    WATCH = "watch"  # nothing to do: keep watching


class Outcome(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    CANCELLED_BY_USER = "cancelled_by_user"
    MAX_REQUEUES = "stopped_max_requeues"
    CRASHLOOP = "stopped_crashloop"
    TERMINAL_EXIT = "stopped_terminal_exit"
    APPLICATION_ERROR = "stopped_application_error"
    NOT_REQUEUEABLE = "stopped_not_requeueable"
    WOULD_NOT_FIT = "stopped_exclusions_would_not_fit"
    VANISHED = "stopped_job_vanished"
    STOPPED_BY_OPERATOR = "stopped_by_operator"
    OBSERVED_ONLY = "ended_observe_only"
    # Training reached its final iteration, then the job failed in teardown: never requeued.
    TRAINING_FINISHED = "training_finished"
    # The requeue budget of the failure's cause (infrastructure or application) is spent.
    CAUSE_BUDGET = "stopped_cause_budget"
    NOT_MANAGED = "not_managed"


@dataclass
class RecoveryConfig:
    """The system settings a workflow runs with, copied in at enrolment (workflows read no env)."""

    system_max_requeues: int = 30
    suspect_window_s: float = 86400.0
    suspect_min_jobs: int = 2
    straggler_checkpoint_wait_s: float = 1800.0
    crashloop_threshold: int = 3
    vanish_confirm_s: float = 60.0  # "Invalid job id" must persist this long to mean VANISHED
    startup_timeout_s: float = 1800.0
    release_timeout_s: float = 60.0
    terminal_exit_codes: list[int] = field(default_factory=lambda: [93, 17])
    different_hardware_exit_codes: list[int] = field(default_factory=lambda: [16])
    log_dirs: list[str] = field(default_factory=list)
    observe_only: bool = False
    notify: bool = False  # a notification channel is configured: send notices
    # Recovery policy v2 (workflows/budgets.py): requeue budgets by cause, on top of the job's
    # and the system's limit; repeated unknown failures wait longer before the next attempt.
    infrastructure_requeue_budget: int = 20
    application_requeue_budget: int = 5
    unknown_backoff_s: float = 30.0
    unknown_backoff_max_s: float = 600.0
    # Node quarantine (workflows/quarantine.py): off | suggest | drain, at most this many nodes
    # drained by ajr per day, none again within the hold-off after a return to service.
    node_quarantine: str = "suggest"
    quarantine_max_per_day: int = 2
    quarantine_holdoff_s: float = 86400.0
    # Checkpoint rollback (workflows/rollback.py): a failure counts as "right after loading"
    # within this many seconds of the load.
    checkpoint_rollback: bool = True
    rollback_window_s: float = 1800.0
    # Failure domains (workflows/failure_domains.py): after network failures of the job on this
    # many distinct nodes of one leaf switch (Slurm's topology), exclude the whole switch.
    failure_domain_exclusion: bool = True
    failure_domain_min_nodes: int = 2
    # The log engine's settings: the same object `ajr check-log` runs with.
    analysis: EngineSettings = field(default_factory=EngineSettings)
    # The engine's settings as releases before `analysis` wrote them, in the configs of jobs they
    # enrolled: read into `analysis`, never written. Retire once no such workflow runs.
    hang_timeout_s: float | None = None
    setup_hang_timeout_s: float | None = None
    checkpoint_hang_timeout_s: float | None = None
    crash_confirm_s: float | None = None
    eval_hang_timeout_s: float | None = None
    checkpoint_patterns: list[str] | None = None
    checkpoint_start_patterns: list[str] | None = None

    def __post_init__(self) -> None:
        legacy: dict[str, Any] = {
            new: tuple(value) if isinstance(value, list) else value
            for old, new in _LEGACY_ENGINE_FIELDS.items()
            if (value := getattr(self, old)) is not None
        }
        if legacy:
            self.analysis = replace(self.analysis, **legacy)
            for old in _LEGACY_ENGINE_FIELDS:
                setattr(self, old, None)


# RecoveryConfig's field before `analysis` -> the EngineSettings field that took its place.
_LEGACY_ENGINE_FIELDS = {
    "hang_timeout_s": "hang_timeout_s",
    "setup_hang_timeout_s": "setup_timeout_s",
    "checkpoint_hang_timeout_s": "checkpoint_timeout_s",
    "crash_confirm_s": "crash_confirm_s",
    "eval_hang_timeout_s": "eval_timeout_s",
    "checkpoint_patterns": "checkpoint_patterns",
    "checkpoint_start_patterns": "checkpoint_start_patterns",
}


@dataclass
class LogCursor:
    """Where the watch of an attempt's log stands; heartbeated, and resumed from after a crash."""

    path: str = ""
    offset: int = 0
    lines: int = 0
    checkpoints: int = 0
    last_line_at: float = 0.0  # epoch seconds of the last new line (0: none yet)
    running_since: float = 0.0  # epoch seconds the watch first saw the attempt RUNNING
    # The analyzer's own state (pending crash signals, phase, cadence), so a watch resumed on
    # another worker neither loses a crash awaiting confirmation nor restarts its phases.
    analyzer: dict[str, Any] = field(default_factory=dict)
    # A finding read from the log that Slurm could not yet confirm (the attempt still RUNNING):
    # kept until it can, never acted on before.
    unconfirmed: dict[str, Any] = field(default_factory=dict)
    slurm_unreachable_since: float = 0.0  # epoch seconds; 0: Slurm answers
    slurm_unreachable_reported: bool = False
    # What the log told of the attempt's progress (epoch seconds; 0: not seen).
    first_step_at: float = 0.0  # its first training step: the restart worked
    loaded_step: int | None = None  # the checkpoint it resumed from
    loaded_at: float = 0.0
    last_save_step: int | None = None  # its last completed checkpoint save
    last_save_at: float = 0.0
    interrupted_saves: int = 0  # saves it began and never finished
    # Every completed save of the attempt, [step or None, epoch seconds, seconds it took or
    # None] (most recent MAX_RECORDED_SAVES): the records' checkpoint saves.
    saves: list[list[Any]] = field(default_factory=list)
    anomaly_at: float = 0.0  # when the line of the first finding was read (0: none)
    # When the log showed training reach its final iteration (0: not seen; analysis/finish.py).
    training_done_at: float = 0.0
    in_job_restarter: bool = False  # the log names an in-job restarter (analysis/restarter.py)


# Checkpoint saves kept per attempt in the cursor (and so in the records).
MAX_RECORDED_SAVES = 200


@dataclass
class WatchRequest:
    cluster: str
    job_id: int
    attempt: int
    config: RecoveryConfig = field(default_factory=RecoveryConfig)
    ignore: list[Observed] = field(default_factory=list)  # kinds already reported
    cursor: LogCursor = field(default_factory=LogCursor)
    earlier_logs: list[str] = field(default_factory=list)  # logs of earlier attempts: not this one
    # Waiting to requeue a straggler: return once the checkpoint count passes this (-1: off) ...
    return_after_checkpoints: int = -1
    # ... or at this epoch time, whichever comes first.
    return_by: float = 0.0


@dataclass
class Observation:
    kind: Observed
    attempt: int
    state: JobState = JobState.UNKNOWN
    exit_code: int = 0
    signal: int = 0
    restart_count: int = 0
    nodes: list[str] = field(default_factory=list)
    culprit_nodes: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    detail: str = ""
    category: Category | None = None  # attribution of the finding; None without one
    requeue_warranted: bool | None = None  # the analyzer's opinion; None: let the policy decide
    cursor: LogCursor = field(default_factory=LogCursor)
    confidence: float | None = None  # the attribution's confidence, 0..1
    # Times, epoch seconds (0: unknown): Slurm's submit/start/end of the attempt, and when the
    # watch returned with this observation (ajr saw it).
    submitted_at: float = 0.0
    started_at: float = 0.0
    ended_at: float = 0.0
    seen_at: float = 0.0
    found_at: float = 0.0  # epoch seconds the watcher read the finding (0: not known)


@dataclass
class Decision:
    action: Action
    outcome: Outcome = Outcome.RUNNING
    reasons: list[str] = field(default_factory=list)
    exclude_nodes: list[str] = field(default_factory=list)
    start_delay_s: int = 0  # back-off before the next attempt may start (repeated unknown)
    # The budget a requeue is charged to (workflows/budgets.py Cause; "" free of charge);
    # None: decided without budgets (before recovery policy v2).
    charge: str | None = None


@dataclass
class AttemptRecord:
    """One attempt as ajr saw it and what it decided; shown by the `attempts` query."""

    attempt: int
    observed: Observed
    category: Category | None = None  # the log's attribution (None without a finding)
    state: JobState = JobState.UNKNOWN
    exit: str = ""
    checkpoints: int = 0
    log_path: str = ""
    nodes: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    action: Action = Action.WATCH
    failed: bool = False  # counts toward the crashloop limit unless it saved a checkpoint
    acted: bool = False
    reasons: list[str] = field(default_factory=list)
    excluded_nodes: list[str] = field(default_factory=list)
    decided_at: float = 0.0
    steps: list[str] = field(default_factory=list)  # what was done in Slurm, verified
    # From the log: the first training step, the checkpoint loaded and the last one saved.
    first_step_at: float = 0.0
    loaded_step: int | None = None
    loaded_at: float = 0.0
    last_save_step: int | None = None
    last_save_at: float = 0.0
    interrupted_saves: int = 0
    # The records' timeline (epoch seconds, 0: unknown): see Observation and RequeueResult.
    confidence: float | None = None
    culprit_nodes: list[str] = field(default_factory=list)
    submitted_at: float = 0.0
    started_at: float = 0.0
    ended_at: float = 0.0
    anomaly_at: float = 0.0
    seen_at: float = 0.0
    held_at: float = 0.0  # the attempt killed and the job held (requeuehold verified)
    released_at: float = 0.0  # the requeued job released
    saves: list[list[Any]] = field(default_factory=list)
    # Which requeue budget the attempt's requeue was charged to (workflows/budgets.py Cause);
    # "" for none (free: preemption, continuation); None: recorded before budgets existed.
    charge: str | None = None
    training_done_at: float = 0.0


@dataclass
class WatchPosition:
    """Where the watch of the current attempt stands: carried across continue-as-new."""

    cursor: LogCursor = field(default_factory=LogCursor)
    ignore: list[Observed] = field(default_factory=list)  # kinds already reported, not again
    # A straggler waiting for its next checkpoint save before it is requeued ...
    straggler: Observation | None = None
    straggler_by: float = 0.0  # ... at most until then (epoch seconds)


@dataclass
class RecoveryState:
    """What a job's workflow carries across continue-as-new."""

    attempt: int = 0  # the attempt (Slurm restart count) being watched
    attempts: list[AttemptRecord] = field(default_factory=list)
    ajr_excluded: list[str] = field(default_factory=list)
    operator_excluded: list[str] = field(default_factory=list)
    max_requeues_override: int | None = None
    paused: bool = False
    warnings: list[str] = field(default_factory=list)
    prepared: bool = False  # enrolment actions (Requeue=1) done
    stop_requested: bool = False  # the operator's `stop`: survives continue-as-new
    stop_reason: str = ""
    # Checkpoint steps ajr told the job to roll back from: never again (workflows/rollback.py).
    rolled_back_from: list[int] = field(default_factory=list)
    # Mid-attempt continue-as-new: where the watch of the attempt stands (None: from the top).
    watch: WatchPosition | None = None
    # The same, as runs continued by releases before `watch` existed wrote it: read, never written.
    resume_cursor: LogCursor | None = None
    resume_ignore: list[Observed] = field(default_factory=list)
    # Decisions the database refused (down, full): written later, oldest first, by event_id so
    # at most once (bounded: the oldest are dropped with a warning past RecoveryState's cap).
    unwritten: list[DecisionEvent] = field(default_factory=list)
    # Decisions recorded as acted that were never carried out (the attempt ended first): the
    # next decision written marks them acted=false in the database.
    superseded: list[str] = field(default_factory=list)


@dataclass
class JobRecoveryInput:
    cluster: str
    job_id: int
    job_name: str = ""
    user_name: str = ""
    partition: str = ""
    mode: AutoResumeMode = AutoResumeMode.REQUEUE
    max_requeue_times: int | None = None  # the job's own limit from its comment
    in_job_restarter: str = ""  # "nvrx": APS says the job restarts in place (ft_launcher)
    enrolled_by: str = "comment"  # "comment" or "partition"
    not_managed_reason: str = ""  # set: the job asked for APS but its directive is invalid
    config: RecoveryConfig = field(default_factory=RecoveryConfig)
    state: RecoveryState = field(default_factory=RecoveryState)


@dataclass
class JobOutcome:
    job_id: int
    outcome: Outcome
    reason: str = ""
    attempts: int = 0


@dataclass
class PrepareRequest:
    job_id: int


@dataclass
class PrepareResult:
    made_requeueable: bool = False
    user_excluded_nodes: list[str] = field(default_factory=list)
    detail: str = ""


@dataclass
class RequeueRequest:
    cluster: str
    job_id: int
    attempt: int  # the restart count of the attempt being replaced: the idempotency key
    exclude_nodes: list[str] = field(default_factory=list)
    release_timeout_s: float = 60.0
    live: bool = False  # decided while the attempt ran: requeue only if it still runs
    start_delay_s: int = 0  # back-off: the next attempt may start this long after release
    detected_at: float = 0.0  # epoch seconds the finding was read (metrics only; 0: unknown)


@dataclass
class RequeueResult:
    requeued: bool
    restart_count: int = 0
    excluded_nodes: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    refused: str = ""  # why nothing was done (e.g. exclusions would not fit)
    # Set when the job ended by other hands: before the requeuehold (a live decision came too
    # late: watch the ending instead) or while held (its user cancelled it).
    ended_state: JobState | None = None
    held_at: float = 0.0  # epoch seconds the requeuehold was verified (0: not by this call)
    released_at: float = 0.0  # epoch seconds the release was verified


@dataclass
class CancelRequest:
    job_id: int
    attempt: int
    reason: str = ""


@dataclass
class CancelResult:
    detail: str  # what happened to the attempt, e.g. "cancelled (CANCELLED)"


@dataclass
class RecordResult:
    written: bool  # False: this decision was already recorded (a retry or a replay)


@dataclass
class SuspectsResult:
    suspects: list[Suspect]


@dataclass
class DecisionEvent:
    """A decision as written to the database (and later to notifications)."""

    event_id: str  # workflow id / attempt / sequence: unique, so retries write once
    cluster: str
    job_id: int
    attempt: int
    observed: Observed
    action: Action
    acted: bool
    outcome: Outcome
    reasons: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    excluded_nodes: list[str] = field(default_factory=list)
    decided_at: float = 0.0
    culprit_nodes: list[str] = field(default_factory=list)  # remembered across jobs
    # The whole attempt as recorded so far, and the earlier attempts' records (their kill and
    # release times are known only after their decision): the attempt_records rows, upserted.
    record: AttemptRecord | None = None
    earlier: list[AttemptRecord] = field(default_factory=list)
    job_name: str = ""
    user_name: str = ""
    partition: str = ""
    max_requeues: int = 0
    category: Category | None = None  # the finding's attribution (metrics); None without one
    # Earlier decisions of this job recorded as acted but never carried out: set acted=false.
    supersedes: list[str] = field(default_factory=list)


@dataclass
class ExcludeNodesRequest:
    nodes: list[str]
    reason: str = ""


@dataclass
class MaxRequeuesRequest:
    max_requeues: int


@dataclass
class StopRequest:
    reason: str = ""


@dataclass
class JobStatus:
    job_id: int
    cluster: str
    managed: bool
    attempt: int
    requeues_used: int
    max_requeues: int
    paused: bool
    observe_only: bool
    excluded_nodes: list[str]
    outcome: Outcome
    last_action: Action | None = None
    last_reasons: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    phase: str = ""
    # Policy v2: ajr's requeues by the budget they were charged to (free: not charged), and the
    # checkpoint steps the job was told to roll back from.
    infrastructure_requeues: int = 0
    application_requeues: int = 0
    unknown_requeues: int = 0
    free_requeues: int = 0
    rolled_back_from: list[int] = field(default_factory=list)
