"""Timeouts and retry policies of every activity call, in one place."""

from __future__ import annotations

from datetime import timedelta

from temporalio.common import RetryPolicy

from models.errors import NON_RETRYABLE_TYPES

# Every policy stops at the error types no retry can change (models/errors.py decides which).
NON_RETRYABLE = list(NON_RETRYABLE_TYPES)

# Watching lasts as long as an attempt runs; the heartbeat timeout is what notices a dead worker.
WATCH_START_TO_CLOSE = timedelta(days=30)
WATCH_HEARTBEAT = timedelta(seconds=20)
WATCH_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    maximum_interval=timedelta(seconds=30),
    non_retryable_error_types=NON_RETRYABLE,
)

# Slurm actions: short, heartbeating per step; a few tries, then the workflow's watchdog speaks.
ACTION_START_TO_CLOSE = timedelta(minutes=5)
ACTION_HEARTBEAT = timedelta(seconds=10)
ACTION_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=15),
    maximum_attempts=5,
    non_retryable_error_types=NON_RETRYABLE,
)
# Between rounds of a Slurm action that keeps failing (slurmctld down, job stuck held).
ACTION_ROUND_PAUSE = timedelta(seconds=30)

# The database is a record, not a gate: recovery goes on if it is down, the history keeps all.
RECORD_START_TO_CLOSE = timedelta(seconds=15)
RECORD_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    maximum_interval=timedelta(seconds=5),
    maximum_attempts=3,
    non_retryable_error_types=NON_RETRYABLE,
)
# A decision the database refused is retried in the background, backing off from the first
# delay to the longest; when recovery ends, the workflow waits this long for it before closing.
RECORD_LATER_FIRST_DELAY = timedelta(seconds=10)
RECORD_LATER_MAX_DELAY = timedelta(minutes=2)
RECORD_WRITE_BEFORE_END = timedelta(minutes=30)

# Notifications go out after the action, never before it: a few quick tries, then given up
# (a dead endpoint costs at most NOTIFY_SCHEDULE_TO_CLOSE, and only after recovery acted).
NOTIFY_SCHEDULE_TO_CLOSE = timedelta(seconds=20)
NOTIFY_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=4),
    maximum_attempts=4,
    non_retryable_error_types=NON_RETRYABLE,
)
