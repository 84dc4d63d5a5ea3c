"""`ajr check-log`: the log engine's report on a file, plus what ajr would decide about it.

The report comes from `activities.logs.checklog` (the same engine, with the same
`EngineSettings` the watcher runs with); the verdict from the recovery policy itself, for a
first attempt with the configured limits, so the two can never disagree about a requeue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from activities.logs.checklog import CheckReport, Detected, check_log
from models.categories import Category
from models.recovery import Action, Decision, LogCursor, Observation, Observed, RecoveryConfig
from models.slurm import JobState
from workflows.policy import first_attempt_decision


@dataclass(frozen=True)
class Verdict:
    """What ajr would do about the first anomaly of a log (None when there is none)."""

    requeue: bool
    action: str
    reasons: list[str] = field(default_factory=list)
    exclude_nodes: list[str] = field(default_factory=list)


def observation_of(found: Detected, *, ended: bool) -> Observation:
    """The watcher's observation of a live finding, or of an attempt the finding ended."""
    return Observation(
        kind=Observed(found.kind),
        attempt=0,
        state=JobState.FAILED if ended else JobState.RUNNING,
        exit_code=1 if ended else 0,
        culprit_nodes=list(found.culprit_nodes),
        evidence=list(found.evidence),
        detail=found.summary,
        category=Category(found.category) if found.category else None,
        requeue_warranted=found.requeue,
        cursor=LogCursor(
            training_done_at=1.0 if found.training_done else 0.0,
            in_job_restarter=found.in_job_restarter,
        ),
    )


def verdict_of(report: CheckReport, config: RecoveryConfig) -> Verdict | None:
    first = report.anomaly
    if first is None:
        return None
    ended = first.summary.endswith("(no progress after it: the log ends)")
    decision: Decision = first_attempt_decision(observation_of(first, ended=ended), config)
    return Verdict(
        requeue=decision.action is Action.REQUEUE,
        action=decision.action.value,
        reasons=list(decision.reasons),
        exclude_nodes=list(decision.exclude_nodes),
    )


def report_json(report: CheckReport, verdict: Verdict | None) -> dict[str, Any]:
    data = report.to_json()
    if verdict is not None:
        data["attribution"] = data.get("attribution") or Category.UNKNOWN.value
        data["requeue"] = verdict.requeue
        data["decision"] = {
            "action": verdict.action,
            "reasons": verdict.reasons,
            "exclude_nodes": verdict.exclude_nodes,
        }
    return data


def run_check_log(
    path: str, config: RecoveryConfig, nodes: Sequence[str] = (), silent_for: float = 0.0
) -> tuple[CheckReport, Verdict | None]:
    report = check_log(path, settings=config.analysis, nodes=nodes, silent_for=silent_for)
    report.straggler_wait_s = config.straggler_checkpoint_wait_s
    return report, verdict_of(report, config)
