"""Finding the log file of one attempt: `{job name}_{job id}_date_%y-%m-%d_time_%H-%M-%S.log`."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass

# `date +'date_%y-%m-%d_time_%H-%M-%S'` writes a 2-digit year; the seed's own example name
# (megatron_1234567_date_2024-07-31_time_18-15-55.log) has 4 digits. Both are accepted.
STAMP = r"date_(\d\d-\d\d-\d\d|\d{4}-\d\d-\d\d)_time_(\d\d-\d\d-\d\d)"
# Any attempt log: job name, job ID, stamp.
LOG_NAME = re.compile(rf"^(?P<name>.+)_(?P<job>\d+)_{STAMP}\.log$")
# The batch script takes DATETIME after Slurm's start time; allow for clock skew between hosts.
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
) -> str | None:
    """The newest log stamped within the attempt's window that no earlier attempt wrote.

    The window runs from the attempt's start to `latest_stamp` (now, or the attempt's end): a
    stamp outside it was not written by this attempt. A requeued attempt can start within the
    same second as its predecessor's log stamp, so the time alone cannot tell them apart: the
    logs earlier attempts used are excluded by name.
    """
    used = set(earlier)
    latest = float("inf") if latest_stamp is None else latest_stamp + FUTURE_SLACK_S
    eligible = [
        c
        for c in found
        if attempt_started_at - START_SLACK_S <= c.stamped_at <= latest and c.path not in used
    ]
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
    return pick_attempt_log(found, attempt_started_at, earlier, latest_stamp)
