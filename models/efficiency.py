"""Training-efficiency KPIs of one job from its attempts' timelines: pure, no I/O.

The seeds' definition (AJR user guide): downtime runs from the last checkpoint save before a
failure to the first checkpoint load after it. ajr splits each such gap into consecutive parts
that add up to it exactly:

    last save -> failure line          recomputed work (trained, not saved: done again)
    failure line -> ajr saw it         detection
    seen -> attempt killed and held    shutdown
    held -> next attempt starts        requeue (queue wait), or manual overhead when ajr did not
                                       requeue it (a person resubmitted or requeued the job)
    next start -> first load/step      restart

Times are epoch seconds, 0 meaning unknown; a later mark never precedes an earlier one (each is
clamped to the one before), so the parts never go negative and always sum to the gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# The parts of a downtime, in the order they happen (report and database column names).
PARTS = ("recomputed", "detection", "shutdown", "requeue", "manual", "restart")


@dataclass(frozen=True)
class AttemptTimes:
    """What the records know of one attempt's timeline."""

    attempt: int
    submitted_at: float = 0.0
    started_at: float = 0.0
    ended_at: float = 0.0
    anomaly_at: float = 0.0  # the failure's line read (a hang: the last line before silence)
    seen_at: float = 0.0  # ajr's watch returned with it
    held_at: float = 0.0  # killed and held by ajr's requeue
    first_step_at: float = 0.0
    loaded_at: float = 0.0
    save_times: tuple[float, ...] = ()
    failed: bool = False  # the attempt ended in (or was ended for) a failure
    requeued_by_ajr: bool = False

    @property
    def resumed_at(self) -> float:
        """Training went on: the checkpoint load (the seeds' end of downtime), else the first
        iteration for a job that prints no load line (0: not yet)."""
        return self.loaded_at or self.first_step_at

    @property
    def failed_at(self) -> float:
        return self.anomaly_at or self.ended_at or self.seen_at


@dataclass(frozen=True)
class Interruption:
    """One failure and the recovery after it, split into consecutive parts."""

    attempt: int  # the attempt that failed
    since: float  # its last checkpoint save (or where it resumed training, without one)
    until: float  # the next attempt's first load/iteration (or now/the end, when open)
    parts: dict[str, float] = field(default_factory=dict)  # PARTS -> seconds
    open: bool = False  # the next attempt has not resumed training yet
    restart_success: bool | None = None  # None: no restart (yet)

    @property
    def downtime_s(self) -> float:
        return self.until - self.since


@dataclass(frozen=True)
class JobEfficiency:
    span_s: float  # first start to the end (or now)
    productive_s: float
    downtime_s: float
    parts: dict[str, float]  # PARTS -> seconds, summed over interruptions
    queue_wait_s: float  # before the first start, plus every requeue's wait
    efficiency_pct: float  # training time efficiency: productive / span
    ettr: float  # effective training time ratio: productive / (submit to end)
    failures: int
    restarts: int
    restart_successes: int
    interruptions: list[Interruption]


def _at_least(floor: float, value: float) -> float:
    return max(floor, value) if value > 0 else floor


def interruption(
    failed: AttemptTimes,
    following: AttemptTimes | None,
    *,
    now: float,
    success_window_s: float,
) -> Interruption:
    """The downtime after `failed`, up to `following`'s resumption (or `now` while open)."""
    since = _last_save_before(failed)
    t_fail = _at_least(since, failed.failed_at)
    t_seen = _at_least(t_fail, failed.seen_at)
    t_held = _at_least(t_seen, failed.held_at or failed.ended_at)
    parts = dict.fromkeys(PARTS, 0.0)
    parts["recomputed"] = t_fail - since
    parts["detection"] = t_seen - t_fail
    parts["shutdown"] = t_held - t_seen
    if following is None:
        # Nothing after it (yet): a stopped job ends here, a running recovery is open.
        end = t_held if not now else max(t_held, now)
        wait = "requeue" if failed.requeued_by_ajr else "manual"
        parts[wait] = end - t_held
        return Interruption(failed.attempt, since, end, parts, open=bool(now))
    wait = "requeue" if failed.requeued_by_ajr else "manual"
    if following.started_at <= 0:
        end = max(t_held, now)
        parts[wait] = end - t_held
        return Interruption(failed.attempt, since, end, parts, open=True)
    t_start = _at_least(t_held, following.started_at)
    parts[wait] = t_start - t_held
    resumed = following.resumed_at
    if resumed <= 0:
        end = max(t_start, now) if now else t_start
        parts["restart"] = end - t_start
        return Interruption(failed.attempt, since, end, parts, open=bool(now), restart_success=None)
    t_resumed = _at_least(t_start, resumed)
    parts["restart"] = t_resumed - t_start
    return Interruption(
        failed.attempt,
        since,
        t_resumed,
        parts,
        restart_success=restart_succeeded(following, success_window_s),
    )


def _last_save_before(attempt: AttemptTimes) -> float:
    """The last save before the failure; without one, everything since the attempt resumed
    training (or started) is recomputed."""
    cutoff = attempt.failed_at or float("inf")
    saves = [t for t in attempt.save_times if 0 < t <= cutoff]
    if saves:
        return max(saves)
    return attempt.resumed_at or attempt.started_at or attempt.failed_at


def restart_succeeded(attempt: AttemptTimes, window_s: float) -> bool | None:
    """A restart succeeded once it saved its first checkpoint within `window_s` of its start
    (None: not decided yet, no save and the window still open is not known here)."""
    if attempt.started_at <= 0:
        return None
    saves = [t for t in attempt.save_times if t >= attempt.started_at]
    if saves and min(saves) - attempt.started_at <= window_s:
        return True
    if attempt.failed or attempt.ended_at > 0:
        return False
    return None


def job_efficiency(
    attempts: Sequence[AttemptTimes], *, now: float, success_window_s: float = 3600.0
) -> JobEfficiency:
    """The job's KPIs from its attempts (in order). `now` is used for a job still running or
    an interruption still open; pass the job's end for a finished job (or 0 to close nothing)."""
    ordered = sorted(attempts, key=lambda a: a.attempt)
    if not ordered:
        return JobEfficiency(0, 0, 0, dict.fromkeys(PARTS, 0.0), 0, 100.0, 1.0, 0, 0, 0, [])
    first, last = ordered[0], ordered[-1]
    start = first.started_at or first.submitted_at
    # Ended and not requeued: the job is over (a requeued one waits for its next attempt).
    finished = last.ended_at > 0 and not last.requeued_by_ajr
    end = last.ended_at if last.ended_at > 0 else now
    stops: list[Interruption] = []
    for index, attempt in enumerate(ordered):
        if not attempt.failed:
            continue
        following = ordered[index + 1] if index + 1 < len(ordered) else None
        open_until = 0.0 if (following is None and finished) else now
        stops.append(
            interruption(attempt, following, now=open_until, success_window_s=success_window_s)
        )
    if stops:
        end = max(end, max(s.until for s in stops))
    span = max(0.0, end - start) if start > 0 else 0.0
    parts = {name: sum(s.parts[name] for s in stops) for name in PARTS}
    downtime = min(span, sum(s.downtime_s for s in stops))
    productive = max(0.0, span - downtime)
    submitted = first.submitted_at or start
    initial_wait = max(0.0, start - submitted) if start > 0 else 0.0
    whole = max(0.0, end - submitted) if submitted > 0 else 0.0
    restarts = [s for s in stops if s.restart_success is not None]
    return JobEfficiency(
        span_s=span,
        productive_s=productive,
        downtime_s=downtime,
        parts=parts,
        queue_wait_s=initial_wait + parts["requeue"],
        efficiency_pct=100.0 * productive / span if span > 0 else 100.0,
        ettr=productive / whole if whole > 0 else 1.0,
        failures=len(stops),
        restarts=len(restarts),
        restart_successes=sum(1 for s in restarts if s.restart_success),
        interruptions=stops,
    )
