"""Node quarantine payloads and the drain reason ajr writes into Slurm (pure).

Slurm is the truth of a node's quarantine: its DRAIN state and the reason `ajr: <category>
<evidence>`. ajr's own record (activities/database/quarantine.py) only remembers what it did,
for the per-day cap and the hold-off after a node returns to service.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

REASON_PREFIX = "ajr:"
MAX_REASON_CHARS = 120
# What survives into a Slurm reason: printable ASCII without quotes or shell metacharacters
# (the reason is one argument, never a shell string; this keeps `sinfo -R` tidy too).
_UNSAFE = re.compile(r"[^A-Za-z0-9 _.,:;=()/+\-\[\]#@%]")


class QuarantineMode(StrEnum):
    OFF = "off"  # never consider quarantine
    SUGGEST = "suggest"  # record, show and notify; change nothing in Slurm
    DRAIN = "drain"  # drain the node in Slurm (within the per-day cap and hold-off)


class QuarantineAction(StrEnum):
    DRAINED = "drained"  # ajr drained it now, verified in Slurm
    ALREADY_DRAINED = "already_drained"  # drained or down already: nothing done
    SUGGESTED = "suggested"  # recorded only (mode suggest, observe-only, paused)
    CAPPED = "capped"  # the per-day cap of nodes ajr may drain is reached: suggested only
    HELD_OFF = "held_off"  # returned to service recently: suggested only (hysteresis)
    RESUMED = "resumed"  # returned to service (`ajr node resume`)
    FAILED = "failed"  # Slurm refused or did not show the drain


@dataclass
class QuarantineRequest:
    cluster: str
    node: str
    category: str
    evidence: str
    job_id: int
    mode: QuarantineMode = QuarantineMode.SUGGEST
    now: float = 0.0  # epoch seconds (the workflow's clock)
    max_per_day: int = 2
    holdoff_s: float = 86400.0
    event_id: str = ""  # workflow id / attempt / node: a retry records once


@dataclass
class QuarantineResult:
    node: str
    # A QuarantineAction value. A plain str on purpose: the workflow decodes this result, and a
    # workflow variant's sandbox (tests/workflow_variants.py) cannot resolve a type annotation
    # from a module it did not import itself.
    action: str
    detail: str = ""


def drain_reason(category: str, evidence: str) -> str:
    """`ajr: <category> <evidence>`, one safe line of at most MAX_REASON_CHARS."""
    text = " ".join(_UNSAFE.sub(" ", f"{REASON_PREFIX} {category} {evidence}").split())
    return text[:MAX_REASON_CHARS].rstrip()


def is_ajr_reason(reason: str) -> bool:
    return reason.startswith(REASON_PREFIX)
