"""The KPIs of models/efficiency.py, table-driven: each downtime split into its parts."""

from __future__ import annotations

import pytest

from models.checkpoints import merged_saves
from models.efficiency import PARTS, AttemptTimes, interruption, job_efficiency, restart_succeeded

pytestmark = pytest.mark.unit

T = 1_800_000_000.0  # an epoch origin; every time below is T + seconds


def at(seconds: float) -> float:
    return T + seconds


# attempt 0 saves at 100 and 400, crashes at 450 (line read), seen 452, held 455;
# attempt 1 starts 470, loads its checkpoint at 480.
CRASHED = AttemptTimes(
    attempt=0,
    submitted_at=at(-20),
    started_at=at(0),
    ended_at=at(455),
    anomaly_at=at(450),
    seen_at=at(452),
    held_at=at(455),
    first_step_at=at(5),
    save_times=(at(100), at(400)),
    failed=True,
    requeued_by_ajr=True,
)
RESTARTED = AttemptTimes(
    attempt=1,
    started_at=at(470),
    ended_at=at(900),
    loaded_at=at(480),
    first_step_at=at(482),
    save_times=(at(600),),
)


@pytest.mark.parametrize(
    ("failed", "following", "now", "expected", "since", "until"),
    [
        # the seed's picture: recomputed, detection, shutdown, requeue, restart
        (
            CRASHED,
            RESTARTED,
            0.0,
            {"recomputed": 50, "detection": 2, "shutdown": 3, "requeue": 15, "restart": 10},
            at(400),
            at(480),
        ),
        # no save in the attempt: everything since it began training is recomputed
        (
            AttemptTimes(**{**CRASHED.__dict__, "save_times": ()}),
            RESTARTED,
            0.0,
            {"recomputed": 445, "detection": 2, "shutdown": 3, "requeue": 15, "restart": 10},
            at(5),
            at(480),
        ),
        # ajr did not requeue it (a person did, later): the wait is manual overhead
        (
            AttemptTimes(**{**CRASHED.__dict__, "requeued_by_ajr": False, "held_at": 0.0}),
            AttemptTimes(**{**RESTARTED.__dict__, "started_at": at(3600), "loaded_at": at(3610)}),
            0.0,
            {"recomputed": 50, "detection": 2, "shutdown": 3, "manual": 3145, "restart": 10},
            at(400),
            at(3610),
        ),
        # the next attempt has not started yet: open, the requeue wait runs to now
        (
            CRASHED,
            AttemptTimes(attempt=1),
            at(500),
            {"recomputed": 50, "detection": 2, "shutdown": 3, "requeue": 45},
            at(400),
            at(500),
        ),
        # a hang: the anomaly is the last line (440), seen after the timeout (560)
        (
            AttemptTimes(
                **{
                    **CRASHED.__dict__,
                    "anomaly_at": at(440),
                    "seen_at": at(560),
                    "held_at": at(562),
                }
            ),
            AttemptTimes(**{**RESTARTED.__dict__, "started_at": at(570), "loaded_at": at(575)}),
            0.0,
            {"recomputed": 40, "detection": 120, "shutdown": 2, "requeue": 8, "restart": 5},
            at(400),
            at(575),
        ),
        # times out of order (Slurm's whole seconds): clamped, never negative, still adds up
        (
            AttemptTimes(**{**CRASHED.__dict__, "held_at": at(451)}),
            AttemptTimes(**{**RESTARTED.__dict__, "started_at": at(452.0), "loaded_at": at(452.4)}),
            0.0,
            {"recomputed": 50, "detection": 2, "shutdown": 0, "requeue": 0, "restart": 0.4},
            at(400),
            at(452.4),
        ),
    ],
)
def test_downtime_parts_add_up(failed, following, now, expected, since, until) -> None:
    stop = interruption(failed, following, now=now, success_window_s=3600)
    assert stop.since == since and stop.until == pytest.approx(until)
    assert {k: round(v, 3) for k, v in stop.parts.items() if v} == {
        k: v for k, v in expected.items() if v
    }
    assert sum(stop.parts.values()) == pytest.approx(stop.downtime_s)
    assert all(v >= 0 for v in stop.parts.values())
    assert set(stop.parts) == set(PARTS)


@pytest.mark.parametrize(
    ("attempt", "window", "expected"),
    [
        (RESTARTED, 3600, True),  # first save 130 s after its start
        (RESTARTED, 60, False),  # ... too late for a 60 s window, and the attempt is over
        (AttemptTimes(**{**RESTARTED.__dict__, "save_times": (), "ended_at": 0.0}), 60, None),
        (AttemptTimes(attempt=1), 60, None),  # not started
    ],
)
def test_restart_success_is_the_first_save_after_a_restart(attempt, window, expected) -> None:
    assert restart_succeeded(attempt, window) is expected


def test_job_kpis_of_a_recovered_job() -> None:
    kpi = job_efficiency([RESTARTED, CRASHED], now=0.0)  # any order
    assert kpi.span_s == 900 and kpi.downtime_s == 80 and kpi.productive_s == 820
    assert kpi.efficiency_pct == pytest.approx(100 * 820 / 900)
    assert kpi.ettr == pytest.approx(820 / 920)  # from the submission (20 s queued)
    assert kpi.queue_wait_s == 20 + 15
    assert kpi.failures == 1 and kpi.restarts == 1 and kpi.restart_successes == 1
    assert kpi.parts["recomputed"] == 50


def test_job_kpis_without_failures_and_without_attempts() -> None:
    ok = job_efficiency([RESTARTED], now=0.0)
    assert ok.downtime_s == 0 and ok.efficiency_pct == 100 and ok.failures == 0
    empty = job_efficiency([], now=at(10))
    assert empty.span_s == 0 and empty.failures == 0


def test_a_job_stopped_after_a_failure_loses_its_unsaved_work() -> None:
    stopped = AttemptTimes(**{**CRASHED.__dict__, "requeued_by_ajr": False})
    kpi = job_efficiency([stopped], now=0.0)
    assert kpi.failures == 1 and kpi.restarts == 0
    assert kpi.downtime_s == 55  # save at 400 -> held at 455
    assert kpi.span_s == 455


def test_saves_merged_once_each_and_bounded() -> None:
    recorded = [[1, 10.0, None], [2, 20.0, 1.5]]
    merged = merged_saves(recorded, [(2, 20.0, 1.5), (3, 30.0, 2.0)])
    assert merged == [[1, 10.0, None], [2, 20.0, 1.5], [3, 30.0, 2.0]]
    assert merged_saves(merged, [(4, 40.0, None)], limit=2) == [[3, 30.0, 2.0], [4, 40.0, None]]
