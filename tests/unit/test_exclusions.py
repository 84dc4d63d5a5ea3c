"""Exclusion effectiveness: how the attempt after an exclusion went (table tests)."""

import pytest

from models.categories import Category
from models.recovery import Action, AttemptRecord, Observed, Outcome
from workflows.exclusions import after_exclusion, previous_requeue

pytestmark = pytest.mark.unit

XID = "node2 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus."


def rec(attempt, action=Action.REQUEUE, excluded=(), evidence=XID, failed=True, acted=True, **kw):
    return AttemptRecord(
        attempt=attempt,
        observed=Observed.CRASH,
        category=kw.pop("category", Category.GPU),
        evidence=[evidence],
        action=action,
        acted=acted,
        failed=failed,
        excluded_nodes=list(excluded),
        **kw,
    )


@pytest.mark.parametrize(
    ("previous", "current", "outcome", "verdict"),
    [
        (None, rec(1), Outcome.RUNNING, ""),
        (rec(0), rec(1), Outcome.RUNNING, ""),  # nothing was excluded
        (
            rec(0, excluded=["node2"]),
            rec(1, action=Action.COMPLETE, failed=False),
            Outcome.COMPLETED,
            "exclusion of node2 helped: the next attempt finished",
        ),
        (
            rec(0, excluded=["node2"]),
            rec(1, evidence=XID.replace("node2", "node3")),
            Outcome.RUNNING,
            "exclusion of node2: did not help: the next attempt failed the same way",
        ),
        (
            rec(0, excluded=["node2"]),
            rec(1, evidence="NCCL timeout", category=Category.NETWORK, checkpoints=2),
            Outcome.RUNNING,
            "exclusion of node2: the next attempt failed differently after saving a checkpoint",
        ),
        # a user's cancel or Slurm's requeue is no verdict on the exclusion
        (
            rec(0, excluded=["node2"]),
            rec(1, action=Action.COMPLETE, failed=False),
            Outcome.CANCELLED_BY_USER,
            "",
        ),
    ],
)
def test_after_exclusion(previous, current, outcome, verdict):
    assert after_exclusion(previous, current, outcome) == verdict


def test_previous_requeue_is_the_one_that_started_the_attempt():
    history = [rec(0, excluded=["node1"]), rec(1, action=Action.WATCH), rec(2, acted=False)]
    assert previous_requeue(history, 1) is history[0]
    assert previous_requeue(history, 2) is None  # attempt 1 was requeued by Slurm
    assert previous_requeue(history, 3) is None  # observe-only: not requeued by ajr
    assert previous_requeue([], 0) is None
