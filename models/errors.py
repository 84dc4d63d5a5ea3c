"""Error types that cross the Temporal boundary, and whether a retry can help with each.

Activities raise them (`activities/errors.py`), the retry policies stop retrying the
non-retryable ones (`workflows/options.py`), and the workflow maps those to an outcome
(`workflows/policy.py`): all three read this one enum.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorType(StrEnum):
    SLURM_UNAVAILABLE = "SlurmUnavailable"  # slurmctld down, or a command timed out
    SLURM_COMMAND_FAILED = "SlurmCommandFailed"  # a Slurm command failed unexpectedly
    STEP_NOT_VERIFIED = "StepNotVerified"  # an action did not reach its expected state
    DATABASE_UNAVAILABLE = "DatabaseUnavailable"  # the decision database did not answer
    JOB_NOT_FOUND = "JobNotFound"  # slurmctld has no record of the job
    REQUEUE_REFUSED = "RequeueRefused"  # Slurm will not requeue this job
    INVALID_REQUEST = "InvalidRequest"  # bad node name, bad input: the same call fails again
    NOTIFY_FAILED = "NotifyFailed"  # no notification channel took the notice (retry later)

    @property
    def retryable(self) -> bool:
        """Whether trying the same call again can succeed."""
        return self not in _FINAL


_FINAL = frozenset({ErrorType.JOB_NOT_FOUND, ErrorType.REQUEUE_REFUSED, ErrorType.INVALID_REQUEST})

# What every retry policy lists as `non_retryable_error_types`.
NON_RETRYABLE_TYPES: tuple[str, ...] = tuple(sorted(t.value for t in ErrorType if not t.retryable))
