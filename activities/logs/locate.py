"""Finding the log file of one attempt: `{job name}_{job id}_date_%y-%m-%d_time_%H-%M-%S.log`."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass

from models.slurm import JobState, SlurmJob

# `date +'date_%y-%m-%d_time_%H-%M-%S'` writes a 2-digit year; the seed's own example name
# (megatron_1234567_date_2024-07-31_time_18-15-55.log) has 4 digits. Both are accepted.
STAMP = r"date_(\d\d-\d\d-\d\d|\d{4}-\d\d-\d\d)_time_(\d\d-\d\d-\d\d)"
# Any attempt log: job name, job ID, stamp.
LOG_NAME = re.compile(rf"^(?P<name>.+)_(?P<job>\d+)_{STAMP}\.log$")
# The batch script takes DATETIME after Slurm's start time; allow for clock skew between hosts.
# Only for a job's first attempt: a requeued attempt's log must be stamped at or after its own
# start, since the log of the attempt before it may be stamped a second or two earlier.
START_SLACK_S = 2.0
# A stamp later than now (or than the attempt's end) is planted, not written by the attempt;
# allow this much clock skew between the batch host and the worker.
FUTURE_SLACK_S = 60.0


@dataclass(frozen=True)
class LogCandidate:
    path: str
    stamped_at: float  # epoch seconds from the name (local time, as `date` wrote it)


def attempt_log_pattern(job_name: str, job_id: int) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(job_name)}_{job_id}_{STAMP}\.log$")


def stamp_to_epoch(day: str, clock: str) -> float | None:
    try:
        year = "%Y" if len(day) == 10 else "%y"
        return time.mktime(time.strptime(f"{day} {clock}", f"{year}-%m-%d %H-%M-%S"))
    except ValueError:
        return None


def candidates(
    names: Iterable[str], directory: str, pattern: re.Pattern[str], owner_uid: int | None = None
) -> list[LogCandidate]:
    """The names that match, with their stamps; only files `owner_uid` owns, when given.

    The owner is that of the directory entry itself (a symlink's own owner): another user may
    not plant a log, or a link, in a job's world-writable directory. The opener checks the file
    it finally opens again.
    """
    found = []
    for name in names:
        match = pattern.match(name)
        if not match:
            continue
        stamped = stamp_to_epoch(match.group(1), match.group(2))
        if stamped is None:
            continue
        path = os.path.join(directory, name)
        if owner_uid is not None:
            try:
                if os.lstat(path).st_uid != owner_uid:
                    continue
            except OSError:
                continue
        found.append(LogCandidate(path, stamped))
    return found


def pick_attempt_log(
    found: Iterable[LogCandidate],
    attempt_started_at: float,
    earlier: Iterable[str] = (),
    latest_stamp: float | None = None,
    *,
    first_attempt: bool = True,
) -> str | None:
    """The newest log stamped within the attempt's window that no earlier attempt wrote.

    The window runs from the attempt's start to `latest_stamp` (now, or the attempt's end): a
    stamp outside it was not written by this attempt. The first attempt's window opens
    START_SLACK_S early (clock skew); a later attempt's opens at its start, never before: the
    attempt before it may have stamped its log a second or two earlier (requeued right after it
    began), and its record may not name that log. The logs earlier attempts used are excluded
    by name too (a requeued attempt can start within the same second as its predecessor's log).
    """
    used = set(earlier)
    earliest = attempt_started_at - (START_SLACK_S if first_attempt else 0.0)
    latest = float("inf") if latest_stamp is None else latest_stamp + FUTURE_SLACK_S
    eligible = [c for c in found if earliest <= c.stamped_at <= latest and c.path not in used]
    if not eligible:
        return None
    return max(eligible, key=lambda c: (c.stamped_at, c.path)).path


def search_dirs(work_dir: str, stdout_path: str, configured: Iterable[str]) -> list[str]:
    dirs: list[str] = []
    for directory in (work_dir, os.path.dirname(stdout_path) if stdout_path else "", *configured):
        if directory and os.path.isabs(directory) and directory not in dirs:
            dirs.append(directory)
    return dirs


def find_attempt_log(
    dirs: Iterable[str],
    job_name: str,
    job_id: int,
    attempt_started_at: float,
    earlier: Iterable[str] = (),
    *,
    owner_uid: int | None = None,
    latest_stamp: float | None = None,
    first_attempt: bool = True,
) -> str | None:
    """The attempt's log in `dirs`: the job user's own file, stamped within the attempt."""
    pattern = attempt_log_pattern(job_name, job_id)
    found: list[LogCandidate] = []
    for directory in dirs:
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        found.extend(candidates(names, directory, pattern, owner_uid))
    return pick_attempt_log(
        found, attempt_started_at, earlier, latest_stamp, first_attempt=first_attempt
    )


@dataclass
class AttemptRun:
    """What one watch has seen of its attempt in Slurm: does Slurm show the attempt's own run?

    Slurm counts a requeue (restart count N) at once, while it still shows the job finishing
    the attempt before: COMPLETING, with a StartTime that is that attempt's at first and then
    follows the clock (seen on Slurm 22.05), for as long as the attempt takes to exit; then
    PENDING. Taken for attempt N's run, that StartTime opens the log window on the earlier
    attempt's log (a log stamped in the last seconds: requeued right after it appeared). So a
    COMPLETING job with restart count N is attempt N's own end only once this watch has seen
    attempt N queued or running (or N is the first attempt); RUNNING, or an end, with restart
    count N always is attempt N's.
    """

    attempt: int
    waited: bool = False  # seen attempt N queued (not started yet) or running

    def own_run(self, job: SlurmJob) -> bool:
        """Whether `job` (Slurm now) shows this attempt running, finishing or ended."""
        if job.restart_count != self.attempt:
            return False
        if job.state in _NOT_STARTED:
            self.waited = True
            return False
        if job.state is JobState.COMPLETING:
            return self.attempt == 0 or self.waited
        own = job.state is JobState.RUNNING or job.state.is_ended
        self.waited = self.waited or own
        return own


# Slurm shows the attempt queued (or suspended): a COMPLETING after this is its own end.
_NOT_STARTED = frozenset({JobState.PENDING, JobState.REQUEUED, JobState.SUSPENDED})
