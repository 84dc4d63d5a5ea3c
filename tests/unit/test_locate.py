"""Finding an attempt's log by name and start time, never an earlier attempt's."""

import time

import pytest

from activities.logs.locate import (
    AttemptRun,
    attempt_log_pattern,
    candidates,
    pick_attempt_log,
    stamp_to_epoch,
)
from models.slurm import JobState, SlurmJob

pytestmark = pytest.mark.unit

START = time.mktime(time.strptime("24-07-31 18-15-55", "%y-%m-%d %H-%M-%S"))


@pytest.mark.parametrize(
    ("name", "matches"),
    [
        ("megatron_1234567_date_24-07-31_time_18-15-55.log", True),
        ("megatron_1234567_date_2024-07-31_time_18-15-55.log", True),  # the seed's own example
        ("megatron_1234568_date_24-07-31_time_18-15-55.log", False),  # another job
        ("megatron_1234567_date_24-07-31_time_18-15-55.log.1", False),
        ("other_1234567_date_24-07-31_time_18-15-55.log", False),
        ("megatron_1234567.log", False),
    ],
)
def test_name_pattern(name, matches):
    assert bool(attempt_log_pattern("megatron", 1234567).match(name)) is matches


def test_both_year_forms_mean_the_same_time():
    assert (
        stamp_to_epoch("24-07-31", "18-15-55") == stamp_to_epoch("2024-07-31", "18-15-55") == START
    )


def test_pick_the_new_attempts_log_not_the_previous_one():
    pattern = attempt_log_pattern("t", 9)
    names = [
        "t_9_date_24-07-31_time_18-15-55.log",
        "t_9_date_24-07-31_time_18-15-56.log",
        "t_9_date_24-07-31_time_18-10-00.log",
    ]
    found = candidates(names, "/logs", pattern)
    # the attempt started at 18:15:55; the 18:10 log belongs to an earlier attempt
    assert pick_attempt_log(found, START) == "/logs/t_9_date_24-07-31_time_18-15-56.log"
    # a requeued attempt can start within the same second: the earlier log is excluded by name
    assert (
        pick_attempt_log(found, START, earlier=["/logs/t_9_date_24-07-31_time_18-15-56.log"])
        == "/logs/t_9_date_24-07-31_time_18-15-55.log"
    )
    assert pick_attempt_log(found, START + 60) is None


def test_only_the_job_users_own_files_stamped_within_the_attempt(tmp_path):
    """The probe planted `<name>_<id>_date_30-01-01...log` as another user: never picked."""
    import os

    now = time.time()
    stamp = time.strftime("%y-%m-%d_time_%H-%M-%S", time.localtime(now - 5))
    own = tmp_path / f"t_9_date_{stamp}.log"
    planted = tmp_path / "t_9_date_30-01-01_time_00-00-00.log"  # the future: planted
    other = (
        tmp_path / f"t_9_date_{time.strftime('%y-%m-%d_time_%H-%M-%S', time.localtime(now))}.log"
    )
    for path in (own, planted, other):
        path.write_text("0: x\n")
    os.chown(own, 4242, 4242)
    os.chown(planted, 4242, 4242)
    os.chown(other, 4343, 4343)  # newest, but another user's
    names = os.listdir(tmp_path)
    pattern = attempt_log_pattern("t", 9)
    found = candidates(names, str(tmp_path), pattern, owner_uid=4242)
    assert sorted(c.path for c in found) == sorted([str(own), str(planted)])
    assert pick_attempt_log(found, now - 10, latest_stamp=now) == str(own)
    # without the window the planted future stamp would win: the window is what stops it
    assert pick_attempt_log(found, now - 10) == str(planted)


def test_a_later_attempt_takes_no_log_stamped_before_its_start():
    """The first attempt's window opens START_SLACK_S early (clock skew); a requeued attempt's
    at its own start: the attempt before it may have stamped its log a second or two earlier,
    and its record may not name it (requeued before its watch had read it)."""
    pattern = attempt_log_pattern("t", 9)
    found = candidates(["t_9_date_24-07-31_time_18-15-54.log"], "/logs", pattern)
    assert pick_attempt_log(found, START) == "/logs/t_9_date_24-07-31_time_18-15-54.log"
    assert pick_attempt_log(found, START, first_attempt=False) is None
    found = candidates(["t_9_date_24-07-31_time_18-15-55.log"], "/logs", pattern)
    assert pick_attempt_log(found, START, first_attempt=False) == found[0].path


def job(state: JobState, restart_count: int = 1, start_time: float = START) -> SlurmJob:
    return SlurmJob(
        job_id=9, name="t", state=state, restart_count=restart_count, start_time=start_time
    )


R, CG, PD, CD, F = (
    JobState.RUNNING,
    JobState.COMPLETING,
    JobState.PENDING,
    JobState.COMPLETED,
    JobState.FAILED,
)


@pytest.mark.parametrize(
    ("attempt", "shown", "own"),
    [
        # Requeued (restart count 1) while attempt 0 still finishes: COMPLETING, attempt 0's
        # start time; its own run begins with RUNNING, and its COMPLETING after is its own end.
        (1, [job(CG), job(CG, start_time=START + 1), job(PD), job(R, start_time=START + 9)],
         [False, False, False, True]),
        (1, [job(CG), job(R, start_time=START + 9), job(CG, start_time=START + 9)],
         [False, True, True]),
        # Watched from the queue (ajr's own requeue): its COMPLETING is its end.
        (1, [job(PD), job(CG, start_time=START + 9)], [False, True]),
        (1, [job(JobState.REQUEUED), job(CG)], [False, True]),
        # Ended: that is the attempt's own end, even if its run was never seen.
        (1, [job(CG), job(CD, start_time=START + 9)], [False, True]),
        (1, [job(F)], [True]),
        (1, [job(R)], [True]),
        # The first attempt has none before it: its COMPLETING is its own.
        (0, [job(CG, restart_count=0)], [True]),
        # Slurm's view of another attempt (a stale answer, a further requeue) is not this one's.
        (1, [job(R, restart_count=0), job(CG, restart_count=2), job(PD, restart_count=0),
             job(CG)], [False, False, False, False]),
        (2, [job(R)], [False]),
    ],
)  # fmt: skip
def test_a_watch_sees_its_attempts_own_run(attempt, shown, own):
    run = AttemptRun(attempt)
    assert [run.own_run(j) for j in shown] == own


def test_a_resumed_watch_knows_the_attempt_ran():
    """A watch resumed on another worker (its cursor saw the attempt running): COMPLETING is
    the attempt's own end."""
    assert AttemptRun(1, waited=True).own_run(job(CG))
