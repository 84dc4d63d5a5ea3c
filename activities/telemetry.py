"""ajr's metrics and spans, through the OpenTelemetry API only.

The worker (worker/telemetry.py) installs the SDK's providers and exporters (Prometheus, OTLP);
until it does, or when it does not, every instrument here is a no-op. Names follow OpenTelemetry
conventions; the Prometheus exporter turns `ajr.requeue.duration` (unit s) into
`ajr_requeue_duration_seconds` and a counter `ajr.decisions` into `ajr_decisions_total`.
Activities only record; nothing here runs inside a workflow (workflows stay deterministic).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from opentelemetry import metrics, trace
from opentelemetry.metrics import CallbackOptions, Observation

meter = metrics.get_meter("ajr")
tracer = trace.get_tracer("ajr")

# Seconds: Slurm commands take milliseconds to a timeout (30 s); a requeue about 1 to 60 s.
_FAST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
_RECOVERY_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 15, 30, 60, 120, 300, 600]

JOBS_WATCHED = meter.create_up_down_counter(
    "ajr.jobs.watched", unit="{job}", description="Attempts being watched by this worker now"
)
JOBS_ENROLLED = meter.create_counter(
    "ajr.jobs.enrolled", unit="{job}", description="Recovery workflows started by discovery"
)
ENROLMENT_DUPLICATES = meter.create_counter(
    "ajr.jobs.enrolment_duplicates",
    unit="{job}",
    description="Workflow starts Temporal refused as already started (another worker's)",
)
DECISIONS = meter.create_counter(
    "ajr.decisions",
    unit="{decision}",
    description="Decisions recorded (once each), by observation, action, outcome and category",
)
CRASH_TO_HELD = meter.create_histogram(
    "ajr.crash_to_held",
    unit="s",
    description="Crash line read from a running attempt's log -> job requeued and held in Slurm",
    explicit_bucket_boundaries_advisory=_RECOVERY_BUCKETS,
)
REQUEUE_DURATION = meter.create_histogram(
    "ajr.requeue.duration",
    unit="s",
    description="One requeue_job activity: requeuehold to verified release",
    explicit_bucket_boundaries_advisory=_RECOVERY_BUCKETS,
)
REQUEUE_ERRORS = meter.create_counter(
    "ajr.requeue.errors", unit="{error}", description="requeue_job attempts that failed, by type"
)
SLURM_DURATION = meter.create_histogram(
    "ajr.slurm.command.duration",
    unit="s",
    description="Slurm client commands ajr ran, by program, subcommand and result",
    explicit_bucket_boundaries_advisory=_FAST_BUCKETS,
)
SLURM_ERRORS = meter.create_counter(
    "ajr.slurm.command.errors",
    unit="{error}",
    description="Slurm commands that failed or got no answer, by program and kind",
)
DB_ERRORS = meter.create_counter(
    "ajr.db.errors", unit="{error}", description="Database operations that failed"
)
NOTIFY_FAILURES = meter.create_counter(
    "ajr.notifications.failed",
    unit="{failure}",
    description="Notifications a channel did not accept (each try), by channel and kind",
)


class _InProgress:
    """Requeues in flight, for the gauge a stuck-recovery alert watches."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started: dict[int, float] = {}
        self._next = 0

    @contextmanager
    def track(self) -> Iterator[None]:
        with self._lock:
            key, self._next = self._next, self._next + 1
            self._started[key] = time.time()
        try:
            yield
        finally:
            with self._lock:
                self._started.pop(key, None)

    def oldest_age(self) -> float:
        with self._lock:
            oldest = min(self._started.values(), default=None)
        return 0.0 if oldest is None else max(0.0, time.time() - oldest)


REQUEUES_IN_PROGRESS = _InProgress()
_slurm_last_answer = [0.0]


def slurm_answered() -> None:
    _slurm_last_answer[0] = time.time()


def _observe_requeue_age(options: CallbackOptions) -> Iterable[Observation]:
    yield Observation(REQUEUES_IN_PROGRESS.oldest_age())


def _observe_slurm_answer(options: CallbackOptions) -> Iterable[Observation]:
    if _slurm_last_answer[0]:
        yield Observation(_slurm_last_answer[0])


meter.create_observable_gauge(
    "ajr.requeue.oldest_in_progress",
    callbacks=[_observe_requeue_age],
    unit="s",
    description="Age of the oldest requeue this worker is still carrying out (0: none)",
)
meter.create_observable_gauge(
    "ajr.slurm.last_answer",
    callbacks=[_observe_slurm_answer],
    unit="s",
    description="Unix time of slurmctld's last answer to this worker",
)
