"""Did an exclusion help? How the attempt after a requeue that excluded nodes went. Pure.

Recorded in that attempt's reasons (so in the `attempts` query, the Web UI and the database), a
per-job answer to "was excluding node3 worth it"; across jobs the database rows add up.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.recovery import Action, AttemptRecord, Outcome
from workflows.rollback import from_record


def previous_requeue(history: Sequence[AttemptRecord], attempt: int) -> AttemptRecord | None:
    """The record of the requeue that started `attempt`, if ajr made it."""
    for record in reversed(history):
        if record.attempt < attempt:
            return record if record.action is Action.REQUEUE and record.acted else None
    return None


def after_exclusion(
    previous: AttemptRecord | None, current: AttemptRecord, outcome: Outcome
) -> str:
    """ "" when the previous requeue excluded nothing; otherwise how the next attempt went."""
    if previous is None or not previous.excluded_nodes:
        return ""
    nodes = ",".join(previous.excluded_nodes)
    if outcome in (Outcome.COMPLETED, Outcome.TRAINING_FINISHED):
        return f"exclusion of {nodes} helped: the next attempt finished"
    if current.action in (Action.WATCH, Action.COMPLETE) and not current.failed:
        return ""  # not a failure (a requeue by Slurm, a user's cancel): nothing to judge
    progress = current.checkpoints > 0 or current.last_save_step is not None
    if from_record(previous).signature == from_record(current).signature:
        verdict = "did not help: the next attempt failed the same way"
    else:
        verdict = "the next attempt failed differently"
    made = " after saving a checkpoint" if progress else ""
    return f"exclusion of {nodes}: {verdict}{made}"
