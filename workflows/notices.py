"""The notices the workflow sends: pure builders, one line of text each."""

from __future__ import annotations

from models.notifications import Notice, NoticeKind
from models.quarantine import QuarantineAction
from models.recovery import AttemptRecord

# Quarantine results a person should hear of: a node taken out of service, or one ajr would take
# out and did not (mode, cap, hold-off) or could not. A node already drained is someone's already.
_NODE_WORDS = {
    QuarantineAction.DRAINED: "drained by ajr",
    QuarantineAction.SUGGESTED: "suspect: drain suggested",
    QuarantineAction.CAPPED: "suspect: not drained (ajr's daily cap reached)",
    QuarantineAction.HELD_OFF: "suspect: not drained (returned to service recently)",
    QuarantineAction.FAILED: "suspect: drain FAILED",
}


def job_label(job_id: int, job_name: str, user: str) -> str:
    return f"job {job_id}" + (f" {job_name}" if job_name else "") + (f" ({user})" if user else "")


def headline(label: str, record: AttemptRecord, outcome_text: str) -> str:
    """ "job 42 train_gpt (alice) attempt 2: CRASH GPU on node3 -> requeued excluding node3"."""
    what = record.observed.value + (f" {record.category.value}" if record.category else "")
    on = f" on {','.join(record.culprit_nodes)}" if record.culprit_nodes else ""
    return f"{label} attempt {record.attempt}: {what}{on} -> {outcome_text}"


def requeued(
    *,
    workflow_id: str,
    cluster: str,
    job_id: int,
    job_name: str,
    user: str,
    record: AttemptRecord,
    excluded: list[str],
    max_requeues: int,
    at: float,
) -> Notice:
    label = job_label(job_id, job_name, user)
    exclusion = f" excluding {','.join(excluded)}" if excluded else ""
    text = (
        headline(label, record, f"requeued{exclusion}")
        + f" (requeue {record.attempt + 1} of {max_requeues})"
    )
    return Notice(
        event_id=f"{workflow_id}/{record.attempt}/requeued",
        kind=NoticeKind.REQUEUED,
        cluster=cluster,
        job_id=job_id,
        text=text,
        job_name=job_name,
        user=user,
        attempt=record.attempt,
        max_requeues=max_requeues,
        category=record.category.value if record.category else "",
        culprit_nodes=list(record.culprit_nodes),
        excluded_nodes=list(excluded),
        at=at,
    )


def ended(
    *,
    kind: NoticeKind,
    workflow_id: str,
    cluster: str,
    job_id: int,
    job_name: str,
    user: str,
    attempt: int,
    reason: str,
    at: float,
) -> Notice:
    label = job_label(job_id, job_name, user)
    words = {
        NoticeKind.STOPPED: "recovery stopped",
        NoticeKind.NOT_MANAGED: "NOT managed (fix the #SBATCH --comment APS directive)",
        NoticeKind.STUCK: "recovery stuck",
    }[kind]
    return Notice(
        event_id=f"{workflow_id}/{attempt}/{kind.value}",
        kind=kind,
        cluster=cluster,
        job_id=job_id,
        text=f"{label} attempt {attempt}: {words}: {reason}",
        job_name=job_name,
        user=user,
        attempt=attempt,
        reason=reason,
        at=at,
    )


def node_suspect(
    *,
    workflow_id: str,
    cluster: str,
    job_id: int,
    job_name: str,
    user: str,
    attempt: int,
    node: str,
    action: str,
    category: str,
    detail: str,
    at: float,
) -> Notice | None:
    """The notice of a quarantine result, or None where there is nothing to tell."""
    try:
        words = _NODE_WORDS[QuarantineAction(action)]
    except (KeyError, ValueError):
        return None
    label = job_label(job_id, job_name, user)
    return Notice(
        event_id=f"{workflow_id}/{attempt}/{NoticeKind.NODE_SUSPECT.value}/{node}",
        kind=NoticeKind.NODE_SUSPECT,
        cluster=cluster,
        job_id=job_id,
        text=f"node {node} {words}: {category} in {label} attempt {attempt}"
        + (f" ({detail})" if detail else ""),
        job_name=job_name,
        user=user,
        attempt=attempt,
        category=category,
        culprit_nodes=[node],
        reason=detail,
        at=at,
    )
