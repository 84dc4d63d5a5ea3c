"""Parses the logger lines of NVIDIA's training telemetry library (aidot-training-telemetry).

The library's `PythonLoggerBackend` writes one record per line through a logger named
`training_telemetry` (`training_telemetry_rank<N>` when rank aware), formatted by default as
`%(asctime)s - %(name)s - %(levelname)s - [k=v | k=v | ...]`: keys sorted in reverse, nested
keys joined with dots (`event.metrics.tflops=386.7`), string fields of error events JSON-encoded
(so a `|` inside a message is quoted). Records have a `type`: start, stop, complete (a span
whose start and stop were written together), event (e.g. `training_iterations` with metrics)
and error (an exception recorded in a span, with its type, message and traceback).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

MARKER = "training_telemetry"  # the cheap substring test: every record line carries it
# The logger name; a site's own log_format may put other text between it and the record.
_LOGGER = re.compile(r"training_telemetry(?:_rank(?P<rank>\d+))?\b")
# Spans whose error means the exception left the training loop: the application is going down.
FATAL_SPANS = frozenset({"main_function", "training_loop"})


@dataclass(frozen=True, slots=True)
class Record:
    """One telemetry record: its type, span name and flattened fields (raw strings)."""

    type: str
    name: str
    fields: dict[str, str]
    rank: int | None = None

    def get(self, key: str) -> str | None:
        return self.fields.get(key)

    def number(self, *keys: str) -> float | None:
        """The first of `keys` present as a finite number."""
        for key in keys:
            raw = self.fields.get(key)
            if raw is None:
                continue
            try:
                value = float(raw)
            except ValueError:
                continue
            if value == value:  # not NaN
                return value
        return None

    def text(self, key: str) -> str:
        """A string field, JSON-decoded when the library encoded it."""
        raw = self.fields.get(key, "")
        if raw.startswith('"'):
            try:
                decoded = json.loads(raw)
            except ValueError:
                return raw
            return decoded if isinstance(decoded, str) else raw
        return raw


def parse_record(line: str) -> Record | None:
    """The telemetry record on `line`, or None when the line is not one."""
    if MARKER not in line:
        return None
    m = _LOGGER.search(line)
    if m is None:
        return None
    body_start = line.find("[type=", m.end())
    if body_start < 0:
        return None
    body_start += 1
    end = line.rfind("]")
    if end <= body_start:
        return None
    fields = _split(line[body_start:end])
    kind = fields.get("type")
    if kind is None:
        return None
    rank = int(m["rank"]) if m["rank"] is not None else None
    return Record(kind, fields.get("name", ""), fields, rank)


def _split(body: str) -> dict[str, str]:
    """`k=v | k="a | b" | ...` into a dict; pipes inside JSON strings are not separators."""
    fields: dict[str, str] = {}
    start = 0
    quoted = escaped = False
    n = len(body)
    for i in range(n + 1):
        ch = body[i] if i < n else "|"
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch == "|" and (i == n or body[i - 1 : i] == " "):
            key, sep, value = body[start:i].strip().partition("=")
            if sep:
                fields[key] = value
            start = i + 1
    return fields


# --- what a record means to the engine ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Iteration:
    iteration: int | None
    tflops: float | None
    loss: float | None


@dataclass(frozen=True, slots=True)
class CheckpointSave:
    done: bool  # False: the save span started (written only when something nested in it)
    iteration: int | None


@dataclass(frozen=True, slots=True)
class CheckpointLoad:
    done: bool  # False: the load span started
    iteration: int | None


@dataclass(frozen=True, slots=True)
class Error:
    exc_type: str  # "" when the record carries only an error message
    message: str
    span: str
    rank: int | None


def interpret(record: Record) -> Iteration | CheckpointSave | CheckpointLoad | Error | None:
    """What `record` tells about training: progress, a checkpoint save or load, an error, or
    nothing."""
    kind = record.type
    if kind == "error":  # first: an error in a checkpoint span is an error, not a save
        message = record.text("event.exception_message") or record.text("event.error_message")
        return Error(record.text("event.exception_type"), message, record.name, record.rank)
    if kind == "event" and record.get("event.name") == "training_iterations":
        it = record.number("event.metrics.current_iteration")
        return Iteration(
            int(it) if it is not None else None,
            record.number("event.metrics.tflops"),
            record.number("event.metrics.loss"),
        )
    if record.name.startswith(("checkpoint_save", "checkpoint_load")):
        made = CheckpointSave if record.name.startswith("checkpoint_save") else CheckpointLoad
        if kind == "start":
            it = record.number("event.metrics.current_iteration")
            return made(False, int(it) if it is not None else None)
        if kind in ("complete", "stop"):
            # The metrics added inside the span are written with its stop event.
            it = record.number(
                "stop_event.metrics.current_iteration",
                "event.metrics.current_iteration",
                "start_event.metrics.current_iteration",
            )
            return made(True, int(it) if it is not None else None)
        return None
    return None
