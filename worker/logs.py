"""The worker's log lines: text for a terminal, or one JSON object per line (`AJR_LOG_FORMAT`).

Every line written while an activity or a workflow runs carries its workflow id, run id and the
Slurm job id and cluster (read from the workflow id `ajr-<cluster>-<jobid>`), whichever logger
wrote it: the context comes from Temporal's own activity and workflow context, not from each call.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

from temporalio import activity, workflow

_WORKFLOW_ID = re.compile(r"^ajr-(?P<cluster>[A-Za-z0-9][A-Za-z0-9_.-]*)-(?P<job>\d+)$")

# LogRecord attributes that are not `extra` fields.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


def job_fields(workflow_id: str) -> dict[str, Any]:
    """`ajr-local-42` -> {"cluster": "local", "job_id": 42}; {} for another id."""
    match = _WORKFLOW_ID.match(workflow_id)
    if not match:
        return {}
    return {"cluster": match["cluster"], "job_id": int(match["job"])}


def temporal_context() -> dict[str, Any]:
    """The running activity's or workflow's identity, or {} outside both."""
    fields: dict[str, Any] = {}
    if activity.in_activity():
        info = activity.info()
        fields = {
            "workflow_id": info.workflow_id,
            "run_id": info.workflow_run_id,
            "activity": info.activity_type,
            "activity_attempt": info.attempt,
        }
    elif workflow.in_workflow():
        info_w = workflow.info()
        fields = {"workflow_id": info_w.workflow_id, "run_id": info_w.run_id}
    if fields.get("workflow_id"):
        fields.update(job_fields(fields["workflow_id"]))
    return fields


def _without_context_suffix(record: logging.LogRecord) -> str:
    """The message without the ` ({...})` Temporal's loggers append (the context is in fields).

    `workflow.logger.workflow_info_on_message = False` is not seen by workflows' sandboxed copy
    of the logger, so the suffix is taken off here, where the fields are added.
    """
    message = record.getMessage()
    if ("temporal_workflow" in record.__dict__ or "temporal_activity" in record.__dict__) and (
        message.endswith("})")
    ):
        cut = message.rfind(" ({")
        if cut >= 0:
            return message[:cut]
    return message


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, Temporal/job context, extras."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": _without_context_suffix(record),
        }
        # temporalio's workflow.logger / activity.logger put their context in `extra`.
        for key, value in record.__dict__.items():
            if key in _STANDARD or key.startswith("_"):
                continue
            if key in ("temporal_workflow", "temporal_activity") and isinstance(value, dict):
                entry.setdefault("workflow_id", value.get("workflow_id"))
                entry.setdefault("run_id", value.get("run_id") or value.get("workflow_run_id"))
                continue
            entry[key] = value if isinstance(value, str | int | float | bool) else repr(value)
        for key, value in temporal_context().items():
            entry.setdefault(key, value)
        if isinstance(entry.get("workflow_id"), str):
            for key, value in job_fields(entry["workflow_id"]).items():
                entry.setdefault(key, value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(log_format: str, *, verbose: bool = False) -> None:
    """Root logging for a worker process: `text` or `json`, to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
