"""Recovery policy v2: requeue budgets by cause, back-off, done means done (table tests)."""

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
from workflows.budgets import Cause, backoff_s, cause_of, spent, unknown_streak
from workflows.policy import decide

pytestmark = pytest.mark.unit

CONFIG = RecoveryConfig(
    system_max_requeues=30,
    crashloop_threshold=99,
    infrastructure_requeue_budget=3,
    application_requeue_budget=2,
    unknown_backoff_s=30.0,
    unknown_backoff_max_s=100.0,
)


def obs(kind=Observed.EXITED, state="FAILED", exit_code=1, category=None, attempt=0, **kw):
    cursor = LogCursor(
        checkpoints=kw.pop("checkpoints", 0),
        training_done_at=kw.pop("done_at", 0.0),
        in_job_restarter=kw.pop("restarter", False),
    )
    return Observation(
        kind=kind,
        attempt=attempt,
        state=JobState(state),
        exit_code=exit_code,
        category=Category(category) if category else None,
        nodes=["node1"],
        cursor=cursor,
        **kw,
    )


def requeued(charge, attempt=0, acted=True, action=Action.REQUEUE, checkpoints=1):
    return AttemptRecord(
        attempt=attempt,
        observed=Observed.EXITED,
        action=action,
        acted=acted,
        charge=charge,
        failed=True,
        checkpoints=checkpoints,  # 1 keeps the crashloop rule out of these tables
    )


@pytest.mark.parametrize(
    ("observation", "cause"),
    [
        (obs(kind=Observed.REQUEUED), Cause.FREE),  # Slurm (or a person) requeued it
        (obs(state="PREEMPTED", exit_code=0), Cause.FREE),
        (
            obs(
                category="SCHEDULER", evidence=["slurmstepd: *** JOB 7 CANCELLED DUE TO PREEMPTION"]
            ),
            Cause.FREE,
        ),
        (obs(state="TIMEOUT", checkpoints=2), Cause.FREE),  # a continuation
        (obs(state="TIMEOUT"), Cause.APPLICATION),  # out of time without a checkpoint
        (obs(state="NODE_FAIL"), Cause.INFRASTRUCTURE),
        (obs(exit_code=16), Cause.INFRASTRUCTURE),  # Megatron: resume on different hardware
        (obs(kind=Observed.CRASH, state="RUNNING", category="GPU"), Cause.INFRASTRUCTURE),
        (obs(kind=Observed.CRASH, state="RUNNING", category="NETWORK"), Cause.INFRASTRUCTURE),
        (obs(category="STORAGE"), Cause.INFRASTRUCTURE),
        (obs(category="SCHEDULER", detail="time limit"), Cause.INFRASTRUCTURE),
        (obs(kind=Observed.STRAGGLER, state="RUNNING"), Cause.INFRASTRUCTURE),
        (obs(category="APPLICATION"), Cause.APPLICATION),
        (obs(category="UNKNOWN"), Cause.UNKNOWN),
        (obs(), Cause.UNKNOWN),  # exit 1, nothing in the log
        (obs(kind=Observed.HANG, state="RUNNING"), Cause.UNKNOWN),
        # "preempt" in a GPU error is no preemption
        (obs(category="GPU", detail="Xid 79 preempted context"), Cause.INFRASTRUCTURE),
    ],
)
def test_cause_of(observation, cause):
    assert cause_of(observation, CONFIG) is cause


@pytest.mark.parametrize(
    ("history", "infra", "app", "unknown", "free"),
    [
        ([], 0, 0, 0, 0),
        ([requeued("infrastructure"), requeued("application"), requeued("unknown")], 1, 1, 1, 0),
        ([requeued(""), requeued(""), requeued("infrastructure")], 1, 0, 0, 2),
        ([requeued(None)], 0, 0, 1, 0),  # decided before budgets: counted, cause unknown
        ([requeued("application", acted=False)], 0, 0, 0, 0),  # observe-only: not requeued
        ([requeued("application", action=Action.WATCH)], 0, 0, 0, 0),
        ([requeued("bogus")], 0, 0, 1, 0),
    ],
)
def test_spent(history, infra, app, unknown, free):
    used = spent(history)
    assert (used.infrastructure, used.application, used.unknown, used.free) == (
        infra,
        app,
        unknown,
        free,
    )
    assert used.charged == infra + app + unknown


@pytest.mark.parametrize(
    ("cause", "history", "delay"),
    [
        (Cause.UNKNOWN, [], 0),  # a first unknown failure: at once
        (Cause.UNKNOWN, [requeued("unknown")], 30),
        (Cause.UNKNOWN, [requeued("unknown"), requeued("unknown")], 60),
        (Cause.UNKNOWN, [requeued("unknown")] * 3, 100),  # capped
        (Cause.UNKNOWN, [requeued("unknown")] * 40, 100),
        (Cause.UNKNOWN, [requeued("unknown"), requeued("")], 30),  # a preemption between
        (Cause.UNKNOWN, [requeued("unknown"), requeued("application")], 0),  # streak broken
        (Cause.APPLICATION, [requeued("unknown")] * 3, 0),  # only unknown failures wait
        (Cause.INFRASTRUCTURE, [requeued("unknown")], 0),
    ],
)
def test_backoff(cause, history, delay):
    assert backoff_s(cause, history, CONFIG) == delay


def test_unknown_streak_counts_from_the_end():
    history = [requeued("unknown"), requeued("infrastructure"), requeued("unknown")]
    assert unknown_streak(history) == 1


def test_backoff_off_when_base_is_zero():
    config = RecoveryConfig(unknown_backoff_s=0.0)
    assert backoff_s(Cause.UNKNOWN, [requeued("unknown")] * 3, config) == 0


@pytest.mark.parametrize(
    ("observation", "history", "max_requeues", "action", "outcome", "charge", "delay"),
    [
        # preempted twice by Slurm, then a crash: job limit 1 still allows one charged requeue
        (
            obs(kind=Observed.CRASH, state="RUNNING", category="GPU", attempt=2),
            [requeued(""), requeued("")],
            1,
            Action.REQUEUE,
            Outcome.RUNNING,
            "infrastructure",
            0,
        ),
        # a preemption itself is requeued free even with the job's limit spent
        (
            obs(state="PREEMPTED", exit_code=0, attempt=3),
            [requeued("application")],
            1,
            Action.REQUEUE,
            Outcome.RUNNING,
            "",
            0,
        ),
        # a continuation too
        (
            obs(state="TIMEOUT", checkpoints=1, attempt=1),
            [requeued("infrastructure")],
            1,
            Action.REQUEUE,
            Outcome.RUNNING,
            "",
            0,
        ),
        # the job's limit counts charged requeues only
        (
            obs(category="GPU", attempt=1),
            [requeued("infrastructure")],
            1,
            Action.STOP,
            Outcome.MAX_REQUEUES,
            None,
            0,
        ),
        # the application budget (2) is spent by application failures ...
        (
            obs(category="APPLICATION", attempt=3),
            [requeued("application"), requeued("unknown"), requeued("application")],
            10,
            Action.STOP,
            Outcome.CAUSE_BUDGET,
            None,
            0,
        ),
        # ... not by unknown ones: those meet the overall limits only (and back off)
        (
            obs(category="APPLICATION", attempt=3),
            [requeued("application"), requeued("unknown"), requeued("unknown")],
            10,
            Action.REQUEUE,
            Outcome.RUNNING,
            "application",
            0,
        ),
        (
            obs(attempt=3),
            [requeued("application"), requeued("application"), requeued("unknown")],
            10,
            Action.REQUEUE,
            Outcome.RUNNING,
            "unknown",
            30,
        ),
        # ... which leaves the infrastructure budget (3) untouched
        (
            obs(kind=Observed.CRASH, state="RUNNING", category="NODE", attempt=2),
            [requeued("application"), requeued("application")],
            10,
            Action.REQUEUE,
            Outcome.RUNNING,
            "infrastructure",
            0,
        ),
        # infrastructure budget spent; a live crash is cancelled
        (
            obs(kind=Observed.CRASH, state="RUNNING", category="NETWORK", attempt=3),
            [requeued("infrastructure")] * 3,
            10,
            Action.CANCEL,
            Outcome.CAUSE_BUDGET,
            None,
            0,
        ),
        # a repeated unknown failure: requeued with back-off
        (
            obs(attempt=1),
            [requeued("unknown")],
            10,
            Action.REQUEUE,
            Outcome.RUNNING,
            "unknown",
            30,
        ),
        # done means done: the final iteration was reached, then exit 1 in teardown
        (
            obs(category="NETWORK", done_at=100.0),
            [],
            10,
            Action.COMPLETE,
            Outcome.TRAINING_FINISHED,
            None,
            0,
        ),
        # ... a hang in teardown frees its nodes, never requeued
        (
            obs(kind=Observed.HANG, state="RUNNING", done_at=100.0),
            [],
            10,
            Action.CANCEL,
            Outcome.TRAINING_FINISHED,
            None,
            0,
        ),
        # ... and exit 0 is still plain success
        (
            obs(state="COMPLETED", exit_code=0, done_at=100.0),
            [],
            10,
            Action.COMPLETE,
            Outcome.COMPLETED,
            None,
            0,
        ),
    ],
)
def test_decide_v2(observation, history, max_requeues, action, outcome, charge, delay):
    decision = decide(
        observation, config=CONFIG, max_requeues=max_requeues, history=history, v2=True
    )
    assert (decision.action, decision.outcome) == (action, outcome), decision.reasons
    if action is Action.REQUEUE:
        assert (decision.charge, decision.start_delay_s) == (charge, delay)


def test_without_v2_the_restart_count_is_the_limit():
    """Histories written before the patch replay the old rule: every restart counts."""
    observation = obs(kind=Observed.CRASH, state="RUNNING", category="GPU", attempt=2)
    history = [requeued(""), requeued("")]
    old = decide(observation, config=CONFIG, max_requeues=1, history=history)
    assert (old.action, old.outcome, old.charge) == (Action.CANCEL, Outcome.MAX_REQUEUES, None)
    done = obs(done_at=50.0)
    assert decide(done, config=CONFIG, max_requeues=5, history=[]).action is Action.REQUEUE


@pytest.mark.parametrize(
    ("observation", "flag", "v2", "action", "outcome"),
    [
        # an in-job restarter (NVRx ft_launcher) restarts a crash in place: ajr watches on
        (obs(kind=Observed.CRASH, state="RUNNING", category="GPU"), True, True, Action.WATCH, None),
        # ... recognised from the log alone
        (
            obs(kind=Observed.CRASH, state="RUNNING", category="GPU", restarter=True),
            False,
            True,
            Action.WATCH,
            None,
        ),
        # it gave up: 93 means do not requeue
        (obs(exit_code=93, restarter=True), True, True, Action.STOP, Outcome.TERMINAL_EXIT),
        # any other exit: requeue as usual
        (obs(exit_code=1, category="GPU", restarter=True), True, True, Action.REQUEUE, None),
        # a hang is still ajr's
        (obs(kind=Observed.HANG, state="RUNNING"), True, True, Action.REQUEUE, None),
        # no restarter: a crash is requeued; nor before policy v2
        (
            obs(kind=Observed.CRASH, state="RUNNING", category="GPU"),
            False,
            True,
            Action.REQUEUE,
            None,
        ),
        (
            obs(kind=Observed.CRASH, state="RUNNING", category="GPU"),
            True,
            False,
            Action.REQUEUE,
            None,
        ),
    ],
)
def test_in_job_restarter(observation, flag, v2, action, outcome):
    decision = decide(
        observation,
        config=CONFIG,
        max_requeues=5,
        history=[],
        v2=v2,
        in_job_restarter=flag,
    )
    assert decision.action is action, decision.reasons
    if outcome is not None:
        assert decision.outcome is outcome


def test_a_preemption_is_no_crashloop_step():
    config = RecoveryConfig(crashloop_threshold=3)
    preempted = obs(state="PREEMPTED", exit_code=0, attempt=2)
    history = [requeued("unknown", checkpoints=0), requeued("unknown", checkpoints=0)]
    old = decide(preempted, config=config, max_requeues=10, history=history)
    assert old.outcome is Outcome.CRASHLOOP  # before policy v2
    new = decide(preempted, config=config, max_requeues=10, history=history, v2=True)
    assert (new.action, new.charge) == (Action.REQUEUE, "")
