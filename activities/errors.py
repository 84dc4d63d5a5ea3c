"""The only way an activity reports a failure across the Temporal boundary: a typed error."""

from __future__ import annotations

from temporalio.exceptions import ApplicationError

from models.errors import ErrorType


def activity_error(error_type: ErrorType, message: str) -> ApplicationError:
    """An ApplicationError whose retryability is the error type's own, never chosen per call."""
    return ApplicationError(message, type=error_type.value, non_retryable=not error_type.retryable)
