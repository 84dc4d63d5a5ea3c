"""Error types ajr raises across the Temporal boundary: one place for their names."""

from __future__ import annotations

from enum import StrEnum

from temporalio.exceptions import ApplicationError


class ErrorType(StrEnum):
    SLURM_UNAVAILABLE = "SlurmUnavailable"  # retryable: slurmctld down or a command timed out
    SLURM_COMMAND_FAILED = "SlurmCommandFailed"  # retryable: an unexpected non-zero exit
    JOB_NOT_FOUND = "JobNotFound"  # non-retryable: slurmctld has no record of the job
    REQUEUE_REFUSED = "RequeueRefused"  # non-retryable: Slurm will not requeue this job
    STEP_NOT_VERIFIED = "StepNotVerified"  # retryable: an action did not reach its expected state
    INVALID_REQUEST = "InvalidRequest"  # non-retryable: bad node name, bad input


def non_retryable(message: str, error_type: ErrorType) -> ApplicationError:
    return ApplicationError(message, type=error_type.value, non_retryable=True)


def retryable(message: str, error_type: ErrorType) -> ApplicationError:
    return ApplicationError(message, type=error_type.value)
