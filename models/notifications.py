"""What ajr tells people about a job: the payload of the `notify` activity."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class NoticeKind(StrEnum):
    REQUEUED = "requeued"  # attribution, culprit, excluded nodes, attempt n of max
    STOPPED = "stopped"  # recovery stopped, with the reason
    NOT_MANAGED = "not_managed"  # the job's APS directive is invalid: tell the submitter
    STUCK = "stuck"  # the recovery watchdog: a requeue step does not take effect
    NODE_SUSPECT = "node_suspect"  # a node ajr drained, or would drain (quarantine, policy v2)


@dataclass
class Notice:
    event_id: str  # unique per event: a retry or a replay sends it once
    kind: NoticeKind
    cluster: str
    job_id: int
    text: str  # one line a person reads (Slack message, webhook "text")
    job_name: str = ""
    user: str = ""
    attempt: int = 0
    max_requeues: int = 0
    category: str = ""
    culprit_nodes: list[str] = field(default_factory=list)
    excluded_nodes: list[str] = field(default_factory=list)
    reason: str = ""
    at: float = 0.0  # epoch seconds


@dataclass
class NotifyResult:
    sent_to: list[str] = field(default_factory=list)  # channels that took it
    skipped: str = ""  # why nothing was sent: duplicate, rate limit, no channel
