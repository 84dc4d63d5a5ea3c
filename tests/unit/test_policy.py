"""The recovery policy: what ajr decides for each kind of attempt ending."""

import pytest

from models.categories import Category
from models.recovery import (
    Action,
    AttemptRecord,
    LogCursor,
    Observation,
    Observed,
    Outcome,
    RecoveryConfig,
)
from models.slurm import JobState
from workflows.policy import (
    counts_as_failure,
    decide,
    effective_max_requeues,
    failed_without_checkpoint_streak,
)

pytestmark = pytest.mark.unit

CONFIG = RecoveryConfig(system_max_requeues=10, crashloop_threshold=3)


def obs(
    kind=Observed.EXITED,
    attempt=0,
    state="FAILED",
    exit_code=1,
    signal=0,
    checkpoints=0,
    culprits=(),
    nodes=("node1", "node2"),
    **kw,
):
    if "category" in kw:
        kw["category"] = Category(kw["category"])
    return Observation(
        kind=kind,
        attempt=attempt,
        state=JobState(state),
        exit_code=exit_code,
        signal=signal,
        nodes=list(nodes),
        culprit_nodes=list(culprits),
        cursor=LogCursor(checkpoints=checkpoints),
        **kw,
    )


def failed(attempt, checkpoints=0):
    return AttemptRecord(
        attempt=attempt,
        observed=Observed.EXITED,
        failed=True,
        checkpoints=checkpoints,
        action=Action.REQUEUE,
    )


@pytest.mark.parametrize(
    ("observation", "history", "max_requeues", "action", "outcome", "exclude"),
    [
        # exit 0: done; user's scancel: done, never requeued
        (obs(state="COMPLETED", exit_code=0), [], 5, Action.COMPLETE, Outcome.COMPLETED, []),
        (
            obs(state="CANCELLED", exit_code=0, signal=15),
            [],
            5,
            Action.COMPLETE,
            Outcome.CANCELLED_BY_USER,
            [],
        ),
        # plain failure: requeue
        (obs(), [], 5, Action.REQUEUE, Outcome.RUNNING, []),
        # live crash with a culprit node named in the log: requeue excluding it
        (
            obs(Observed.CRASH, state="RUNNING", exit_code=0, culprits=("node2",)),
            [],
            5,
            Action.REQUEUE,
            Outcome.RUNNING,
            ["node2"],
        ),
        # limits: used >= min(system, job)
        (obs(attempt=1), [failed(0, 1)], 1, Action.STOP, Outcome.MAX_REQUEUES, []),
        (
            obs(Observed.CRASH, attempt=1, state="RUNNING"),
            [failed(0, 1)],
            1,
            Action.CANCEL,
            Outcome.MAX_REQUEUES,
            [],
        ),
        (
            obs(Observed.HANG, attempt=0, state="RUNNING"),
            [],
            0,
            Action.CANCEL,
            Outcome.MAX_REQUEUES,
            [],
        ),
        # crashloop: 3 failures in a row without a checkpoint
        (obs(attempt=2), [failed(0), failed(1)], 10, Action.STOP, Outcome.CRASHLOOP, []),
        (
            obs(attempt=2, checkpoints=1),
            [failed(0), failed(1)],
            10,
            Action.REQUEUE,
            Outcome.RUNNING,
            [],
        ),
        (
            obs(attempt=2),
            [failed(0), failed(1, checkpoints=2)],
            10,
            Action.REQUEUE,
            Outcome.RUNNING,
            [],
        ),
        # terminal exit codes
        (obs(exit_code=93), [], 5, Action.STOP, Outcome.TERMINAL_EXIT, []),
        (obs(exit_code=17), [], 5, Action.STOP, Outcome.TERMINAL_EXIT, []),
        # 16: resume on different hardware
        (
            obs(exit_code=16, nodes=("node3", "node4")),
            [],
            5,
            Action.REQUEUE,
            Outcome.RUNNING,
            ["node3", "node4"],
        ),
        # NODE_FAIL with the failed node found
        (
            obs(state="NODE_FAIL", exit_code=0, culprits=("node1",)),
            [],
            5,
            Action.REQUEUE,
            Outcome.RUNNING,
            ["node1"],
        ),
        # TIMEOUT: continuation with a checkpoint even after a crashloop-length streak
        (
            obs(state="TIMEOUT", exit_code=0, checkpoints=2, attempt=2),
            [failed(0), failed(1)],
            10,
            Action.REQUEUE,
            Outcome.RUNNING,
            [],
        ),
        (
            obs(state="TIMEOUT", exit_code=0, checkpoints=0, attempt=2),
            [failed(0), failed(1)],
            10,
            Action.STOP,
            Outcome.CRASHLOOP,
            [],
        ),
        # the analyzer says a requeue cannot help
        (
            obs(Observed.CRASH, state="RUNNING", requeue_warranted=False, category="APPLICATION"),
            [],
            5,
            Action.CANCEL,
            Outcome.APPLICATION_ERROR,
            [],
        ),
        # moved on outside ajr, or gone
        (obs(Observed.REQUEUED, state="PENDING"), [], 5, Action.WATCH, Outcome.RUNNING, []),
        (obs(Observed.VANISHED, state="UNKNOWN"), [], 5, Action.STOP, Outcome.VANISHED, []),
        # a straggler (after its checkpoint wait): requeue excluding the slow node
        (
            obs(Observed.STRAGGLER, state="RUNNING", checkpoints=4, culprits=("node3",)),
            [],
            5,
            Action.REQUEUE,
            Outcome.RUNNING,
            ["node3"],
        ),
        # no log to read: a warning, never a kill
        (obs(Observed.LOG_MISSING, state="RUNNING"), [], 5, Action.WATCH, Outcome.RUNNING, []),
    ],
)
def test_decide(observation, history, max_requeues, action, outcome, exclude):
    decision = decide(observation, config=CONFIG, max_requeues=max_requeues, history=history)
    assert decision.action is action, decision.reasons
    assert decision.outcome is outcome
    assert decision.exclude_nodes == exclude
    assert decision.reasons


def test_operator_exclusions_join_the_next_requeue():
    decision = decide(
        obs(culprits=("node2",)),
        config=CONFIG,
        max_requeues=5,
        history=[],
        operator_exclusions=["node4"],
    )
    assert decision.exclude_nodes == ["node2", "node4"]


@pytest.mark.parametrize(
    ("system", "job", "override", "expected"),
    [
        (30, None, None, 30),
        (30, 1, None, 1),
        (3, 10, None, 3),
        (30, 1, 5, 5),
        (4, 1, 9, 4),
        (30, 0, None, 0),
    ],
)
def test_effective_max_requeues(system, job, override, expected):
    assert (
        effective_max_requeues(RecoveryConfig(system_max_requeues=system), job, override)
        == expected
    )


def test_streak_stops_at_a_checkpoint_or_a_success():
    history = [
        failed(0),
        AttemptRecord(attempt=1, observed=Observed.EXITED, failed=False),
        failed(2),
        failed(3),
    ]
    assert failed_without_checkpoint_streak(history) == 2
    assert failed_without_checkpoint_streak([failed(0), failed(1, checkpoints=1), failed(2)]) == 1


@pytest.mark.parametrize(
    ("observation", "counts"),
    [
        (obs(kind=Observed.CRASH, state="RUNNING", category="GPU"), True),
        (obs(kind=Observed.HANG, state="RUNNING"), True),
        (obs(kind=Observed.CRASH, state="RUNNING", category="SCHEDULER"), False),  # preempted
        (obs(state="PREEMPTED", exit_code=0, signal=15), False),
        (obs(state="TIMEOUT", checkpoints=2), False),  # a continuation
        (obs(state="COMPLETED", exit_code=0), False),
    ],
)
def test_only_the_jobs_own_failures_count_toward_a_crashloop(observation, counts):
    decision = decide(observation, config=CONFIG, max_requeues=5, history=[])
    assert counts_as_failure(observation, decision) is counts


def test_preemptions_never_make_a_crashloop():
    preempted = obs(kind=Observed.CRASH, state="RUNNING", category="SCHEDULER", attempt=3)
    history = [
        AttemptRecord(
            attempt=i,
            observed=Observed.CRASH,
            failed=False,
            checkpoints=0,
            action=Action.REQUEUE,
        )
        for i in range(3)
    ]
    decision = decide(preempted, config=CONFIG, max_requeues=10, history=history)
    assert decision.action is Action.REQUEUE
