"""Reading a job's opt-in: the `--comment` APS directive, and per-partition enrolment."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from enum import StrEnum


class AutoResumeMode(StrEnum):
    REQUEUE = "requeue"
    SINGLETON_DEPENDENCY = "singleton_dependency"  # deprecated in the seeds; managed as requeue


class Verdict(StrEnum):
    MANAGED = "managed"
    NOT_OPTED_IN = "not_opted_in"
    INVALID = "invalid"


ALLOWED_KEYS = frozenset({"auto_resume_mode", "max_requeue_times", "in_job_restarter"})
# In-job restarters ajr cooperates with (README "Cooperating with in-job restarters").
IN_JOB_RESTARTERS = frozenset({"nvrx", "none"})
_MENTIONS_APS = re.compile(r"\bAPS\b", re.IGNORECASE)
# Slurm keeps comments up to a few kilobytes; anything longer is not a directive a person wrote.
MAX_COMMENT_CHARS = 8192


@dataclass(frozen=True)
class EnrolmentDecision:
    verdict: Verdict
    mode: AutoResumeMode = AutoResumeMode.REQUEUE
    max_requeue_times: int | None = None
    in_job_restarter: str = ""  # "nvrx": the job restarts in place itself (NVRx ft_launcher)
    reason: str = ""
    warnings: tuple[str, ...] = field(default=())
    source: str = "comment"  # "comment" or "partition"


def _invalid(reason: str) -> EnrolmentDecision:
    return EnrolmentDecision(Verdict.INVALID, reason=f"invalid APS comment: {reason}")


def parse_aps_comment(comment: str) -> EnrolmentDecision:
    """Decide from the comment alone whether the job asked to be managed, and with what.

    Never raises: whatever a user writes, the answer is a decision with a reason.
    """
    text = comment.strip()
    if not _MENTIONS_APS.search(text):
        return EnrolmentDecision(Verdict.NOT_OPTED_IN, reason="comment has no APS directive")
    if len(text) > MAX_COMMENT_CHARS:
        return _invalid(f"comment longer than {MAX_COMMENT_CHARS} characters")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        if text.startswith("{"):
            return _invalid(f"not valid JSON ({exc.msg} at column {exc.colno})")
        return EnrolmentDecision(Verdict.NOT_OPTED_IN, reason="comment is not JSON")
    except RecursionError:
        return _invalid("JSON nested too deeply")
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        return _invalid(f"not valid JSON ({str(exc)[:100]})")
    if not isinstance(document, dict):
        return EnrolmentDecision(Verdict.NOT_OPTED_IN, reason="comment JSON has no APS key")
    keys = [key for key in document if isinstance(key, str) and key.upper() == "APS"]
    if not keys:
        return EnrolmentDecision(Verdict.NOT_OPTED_IN, reason="comment JSON has no APS key")
    if len(keys) > 1:
        return _invalid(f"several APS keys ({', '.join(map(repr, keys))}); use one 'APS'")
    warnings: tuple[str, ...] = ()
    if keys[0] != "APS":
        warnings = (f"key {keys[0]!r} accepted as 'APS' (the documented spelling)",)
    aps = document[keys[0]]
    if not isinstance(aps, dict):
        return _invalid("APS must be a JSON object")
    unknown = sorted(set(aps) - ALLOWED_KEYS)
    if unknown:
        return _invalid(
            f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(ALLOWED_KEYS))}"
        )

    raw_mode = aps.get("auto_resume_mode", AutoResumeMode.REQUEUE.value)
    try:
        mode = AutoResumeMode(raw_mode)
    except ValueError:
        return _invalid(f"unknown auto_resume_mode {raw_mode!r}; use 'requeue'")

    raw_max = aps.get("max_requeue_times")
    if raw_max is not None and (
        isinstance(raw_max, bool) or not isinstance(raw_max, int) or raw_max < 0
    ):
        return _invalid(f"max_requeue_times must be a non-negative integer, got {raw_max!r}")

    restarter = aps.get("in_job_restarter", "")
    if restarter != "" and (not isinstance(restarter, str) or restarter not in IN_JOB_RESTARTERS):
        return _invalid(
            f"unknown in_job_restarter {restarter!r}; use one of {sorted(IN_JOB_RESTARTERS)}"
        )

    if mode is AutoResumeMode.SINGLETON_DEPENDENCY:
        warnings += ("auto_resume_mode 'singleton_dependency' is deprecated; managed as 'requeue'",)
    return EnrolmentDecision(
        Verdict.MANAGED,
        mode=mode,
        max_requeue_times=raw_max,
        in_job_restarter=restarter if restarter != "none" else "",
        warnings=warnings,
    )


def decide_enrolment(
    comment: str, partition: str, managed_partitions: frozenset[str] | set[str]
) -> EnrolmentDecision:
    """The comment wins; a job in a managed partition without an APS directive gets defaults."""
    decision = parse_aps_comment(comment)
    if decision.verdict is Verdict.NOT_OPTED_IN and partition in managed_partitions:
        return EnrolmentDecision(Verdict.MANAGED, source="partition")
    return decision
