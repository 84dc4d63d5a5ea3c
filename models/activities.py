"""The names of ajr's activities: what a workflow schedules and what a worker registers.

Workflows call activities by these names (never by importing the activities' code, which does
I/O); tests/unit/test_activity_contract.py checks that every name has an implementation taking
and returning the types the workflow uses.
"""

from __future__ import annotations

from enum import StrEnum


class ActivityName(StrEnum):
    WATCH_ATTEMPT = "watch_attempt"
    PREPARE_JOB = "prepare_job"
    REQUEUE_JOB = "requeue_job"
    CANCEL_JOB = "cancel_job"
    RECORD_DECISION = "record_decision"
    FIND_SUSPECTS = "find_suspects"
    NOTIFY = "notify"
    QUARANTINE_NODE = "quarantine_node"
    WRITE_ROLLBACK = "write_rollback"
    READ_FAILURE_DOMAINS = "read_failure_domains"
