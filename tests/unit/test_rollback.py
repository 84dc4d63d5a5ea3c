"""Checkpoint rollback: when, to what, never twice; and the file the job reads (table tests)."""

import json
import os
from pathlib import Path

import pytest

from activities.rollback import write_rollback_file
from models.categories import Category
from models.recovery import Action, AttemptRecord, LogCursor, Observation, Observed
from models.rollback import RollbackRequest
from workflows.rollback import Failure, from_observation, from_record, plan, signature

pytestmark = pytest.mark.unit

SEGV = "0: Rank0: (1) segmentation fault at 0x7f3a2b"


def record(attempt, loaded=10, loaded_at=100.0, failed_at=130.0, evidence=SEGV, saved=None):
    return AttemptRecord(
        attempt=attempt,
        observed=Observed.CRASH,
        category=Category.UNKNOWN,
        evidence=[evidence],
        action=Action.REQUEUE,
        acted=True,
        loaded_step=loaded,
        loaded_at=loaded_at,
        decided_at=failed_at,
        last_save_step=saved,
    )


def failure(
    loaded=10,
    loaded_at=200.0,
    failed_at=230.0,
    evidence="1: Rank1: (1) segmentation fault at 0x7f00aa",
):
    return Failure(loaded, loaded_at, failed_at, signature("UNKNOWN", evidence))


@pytest.mark.parametrize(
    ("current", "history", "rolled_back_from", "expected"),
    [
        # the same failure soon after loading 10, twice: load the one before 10
        (failure(), [record(0)], [], (10, None)),
        # ajr saw step 8 saved earlier: that one is named
        (failure(), [record(0, loaded=None, saved=8), record(1)], [], (10, 8)),
        # once only: 10 was rolled back from already
        (failure(), [record(0)], [10], None),
        # a different checkpoint loaded each time
        (failure(loaded=12), [record(0)], [], None),
        # a different failure
        (failure(evidence="CUDA error: an illegal memory access"), [record(0)], [], None),
        # not soon after the load (window 600 s)
        (failure(failed_at=1000.0), [record(0)], [], None),
        (failure(), [record(0, failed_at=900.0)], [], None),
        # no load seen
        (failure(loaded=None), [record(0, loaded=None)], [], None),
        # the first failure: nothing to compare
        (failure(), [], [], None),
        # after a rollback from 10 to 8: the same failure twice after loading 8 rolls back again
        (failure(loaded=8), [record(1), record(2, loaded=8)], [10], (8, None)),
    ],
)
def test_plan(current, history, rolled_back_from, expected):
    found = plan(current, history, window_s=600.0, rolled_back_from=rolled_back_from)
    assert (None if found is None else (found.bad_step, found.load_step)) == expected


def test_signatures_ignore_numbers_only():
    assert signature("GPU", "rank 3 Xid 79 at 0xdead") == signature(
        "GPU", "rank 7 Xid 31 at 0xbeef"
    )
    assert signature("GPU", "x") != signature("NODE", "x")


def test_observation_and_record_agree():
    observation = Observation(
        kind=Observed.CRASH,
        attempt=1,
        category=Category.UNKNOWN,
        evidence=[SEGV],
        cursor=LogCursor(loaded_step=10, loaded_at=100.0),
    )
    assert from_observation(observation, 130.0) == from_record(record(0))


def _request(**kw):
    return RollbackRequest(
        job_id=7, user_name="root", attempt=1, load_before_step=10, avoid_steps=[10], **kw
    )


def test_the_file_is_written_for_the_job(tmp_path: Path):
    result = write_rollback_file(str(tmp_path), _request(load_step=8))
    assert result.written, result.detail
    data = json.loads((tmp_path / "ajr_rollback_7.json").read_text())
    assert (data["load_before_step"], data["load_step"], data["avoid_steps"]) == (10, 8, [10])
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_planted_symlink_is_replaced_never_followed(tmp_path: Path):
    target = tmp_path / "precious"
    target.write_text("keep")
    jobdir = tmp_path / "job"
    jobdir.mkdir()
    (jobdir / "ajr_rollback_7.json").symlink_to(target)
    assert write_rollback_file(str(jobdir), _request()).written
    assert target.read_text() == "keep"
    assert not (jobdir / "ajr_rollback_7.json").is_symlink()


def test_a_directory_of_another_user_is_refused(tmp_path: Path):
    other = tmp_path / "other"
    other.mkdir()
    os.chown(other, 65534, 65534)
    result = write_rollback_file(str(other), _request())
    assert not result.written and "not owned" in result.detail
    assert list(other.iterdir()) == []


@pytest.mark.parametrize(
    ("directory", "user"), [("relative/dir", "root"), ("/tmp", "no-such-user")]
)
def test_bad_inputs_are_refused(directory, user):
    request = _request()
    request.user_name = user
    assert not write_rollback_file(directory, request).written
