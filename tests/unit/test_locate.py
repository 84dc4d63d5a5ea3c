"""Finding an attempt's log by name and start time, never an earlier attempt's."""

import time

import pytest

from activities.logs.locate import attempt_log_pattern, candidates, pick_attempt_log, stamp_to_epoch

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
