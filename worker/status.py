"""`ajr status`: what ajr manages on this cluster, and why a job is not managed."""

from __future__ import annotations

from temporalio.client import Client, WorkflowExecutionStatus

from models import search_attributes as sa
from models.recovery import Action, AttemptRecord, JobOutcome
from workflows.job_recovery import JobRecoveryWorkflow

OBSERVE_ONLY_NOTE = "observe-only: not acting"
_PASSIVE = frozenset({Action.WATCH, Action.COMPLETE})


def would_have_done(attempts: list[AttemptRecord]) -> str:
    """What ajr would have done for a job in observe-only mode (its last such decision); "" if
    nothing: the rollout review of README "Production: canary and rollout"."""
    for record in reversed(attempts):
        if record.acted or record.action in _PASSIVE:
            continue
        if OBSERVE_ONLY_NOTE in record.reasons:
            why = next((r for r in record.reasons if r != OBSERVE_ONLY_NOTE), "")
            return f"observe-only, would {record.action.value} attempt {record.attempt}: {why}"
    return ""


async def status_lines(client: Client, cluster: str, limit: int = 50) -> list[str]:
    # No ORDER BY: the dev server's SQLite visibility store does not support it.
    # A continued-as-new run is history, not a job: only each job's newest run is listed.
    query = f"{sa.AJR_CLUSTER.name} = '{cluster}' AND ExecutionStatus != 'ContinuedAsNew'"
    executions = [e async for e in client.list_workflows(query, limit=limit)]
    executions.sort(key=lambda e: e.start_time, reverse=True)
    rows = [f"{'JOB':>8}  {'WORKFLOW':<24} {'STATE':<10} {'RESTARTS':>8}  {'LAST':<16} DETAIL"]
    for execution in executions:
        attributes = execution.typed_search_attributes
        job_id = attributes.get(sa.SLURM_JOB_ID) or "?"
        restarts = attributes.get(sa.SLURM_RESTART_COUNT)
        last = attributes.get(sa.AJR_LAST_ANOMALY) or "-"
        outcome = attributes.get(sa.AJR_OUTCOME) or ""
        detail = outcome
        if execution.status == WorkflowExecutionStatus.COMPLETED:
            handle = client.get_workflow_handle(execution.id, result_type=JobOutcome)
            result = await handle.result()
            detail = f"{result.outcome.value}: {result.reason}"
        elif execution.status == WorkflowExecutionStatus.FAILED:
            detail = f"failed: {outcome}"
        elif execution.status == WorkflowExecutionStatus.RUNNING:
            try:
                attempts = await client.get_workflow_handle(execution.id).query(
                    JobRecoveryWorkflow.attempts
                )
            except Exception:  # a query needs a worker; the row is shown all the same
                attempts = []
            detail = would_have_done(attempts) or detail
        state = execution.status.name.lower() if execution.status else "?"
        rows.append(
            f"{job_id:>8}  {execution.id:<24} {state:<10} "
            f"{restarts if restarts is not None else '-':>8}  {last:<16} {detail}"
        )
    if len(rows) == 1:
        rows.append(f"(no jobs seen yet on cluster {cluster!r})")
    return rows
