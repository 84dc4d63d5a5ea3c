"""Pure parsing of one raw log line: launcher rank prefixes, timestamps, srun's split chunks."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, tzinfo
from typing import NamedTuple

import re2

# `srun -l` labels each line "%0*d: " (zero-padded task id; some versions and wrappers pad with
# spaces). torchrun / PyTorch distributed add "[rank3]:" (global rank); torch elastic's --tee
# adds "[default3]:" (the local rank of the "default" role), which says nothing about the
# global rank and is only stripped. Both may follow an srun label: "3: [rank27]:[E ...] ...".
# With --tee, a worker's own "[rank1]:" (PyTorch prints uncaught exceptions so) comes after the
# launcher's: "[default1]:[rank1]: Traceback", and "[rank0]:[rank0]: ..." under torchtitan's
# `--role rank` (the launcher's is then the local rank: the inner one is the global rank).
# Open MPI's `mpirun --tag-output` writes "[1,3]<stderr>:" (job, rank) and horovodrun
# "[3]<stdout>:" (rank).
_PREFIX = re.compile(
    r" *(?:(\d{1,7}):(?: |$))?(?:\[(?:rank(\d{1,7})|default\d{1,7})\]: ?)?(?:\[rank(\d{1,7})\]: ?)?"
)
_TAGGED = re.compile(r"\[(?:\d{1,7},)?(\d{1,7})\]<std(?:out|err)>: ?")
# pdsh (DeepSpeed's multi-node launcher) writes each host's lines as "host: line"
# ("192.168.205.202: [rank4]: Traceback ...", "v100x16-2: ..."): stripped before the rest. A host
# is `localhost`, an IPv4 address, or a name with a digit and a "-" or "." in it (worker-0,
# gpu-node3.cluster): a logger's name ("lightning.pytorch.core: ...") has no digit, a word
# with a colon ("Epoch 3: ", "rank0: ") no separator.
_PDSH_HOST = re.compile(
    r"(?:localhost|\d{1,3}(?:\.\d{1,3}){3}"
    r"|[A-Za-z][A-Za-z\d]*(?=[\w.-]*\d)(?:[-.][A-Za-z\d]+)+): "
)

# Timestamps are looked for only near the start of the text: that is where loggers put them,
# and a bounded search keeps the cost per line flat.
_TS_WINDOW = 80
_ISO = re.compile(
    r"(\d{4})[-/](\d{2})[-/](\d{2})[T ](\d{2}):(\d{2}):(\d{2})"
    r"(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?"
    # a 12-hour clock (MLPerf's "STARTING TIMING RUN AT 2024-09-28 05:34:09 PM")
    r"(?: ([AP]M)\b)?"
)
_SYSLOG = re.compile(
    r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}(\d{1,2}) "
    r"(\d{2}):(\d{2}):(\d{2})Z?\b"
    # `date` in a locale with a 12-hour clock ("Tue May 12 10:55:23 PM UTC 2026")
    r"(?: ([AP]M)\b)?"
    # ctime's and `date`'s own year after the time ("Fri Oct 23 18:57:36 CDT 2020"); syslog's
    # lines have none, and the current year is assumed
    r"(?: [A-Z]{2,5})?(?: (\d{4})\b)?"
)
# glog's prefix, which C++ code logs with (PyTorch's c10: torchrun's and ProcessGroupNCCL's lines;
# TensorFlow, MXNet, PaddlePaddle, Caffe): "W1123 20:48:03.076000 16236 api.py:753] ...", the
# month and day without a year.
_GLOG = re.compile(r"\b[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\b")
# detectron2's and MMEngine's loggers: "[11/25 08:40:09 d2.utils.events]:", "11/25 08:22:37 -
# mmengine - INFO - ...": the month and day, without a year.
_MONTH_DAY = re.compile(r"(?<![\d/])(\d{2})/(\d{2}) (\d{2}):(\d{2}):(\d{2})\b")
_MONTHS = {
    m: i
    for i, m in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}

# slurmstepd forwards task output in messages of at most this many bytes; with a label on, a
# message without a newline (a line longer than this) is written as its own labelled line with a
# newline added, so the next chunk of the same task starts a new labelled line.
SRUN_CHUNK_BYTES = 1024


class ParsedLine(NamedTuple):
    rank: int | None  # torchrun's global rank when present, else the srun task label
    text: str  # the line without launcher prefixes
    timestamp: float | None  # epoch seconds, when the text starts with a recognised timestamp
    label: int | None = None  # the srun task label alone (None without `srun -l`)


def split_prefix(raw: str) -> tuple[int | None, int | None, str]:
    """(rank, srun label, text) of a raw line: the launcher prefixes removed."""
    if raw[:1].isalnum() and ": " in raw[:64]:
        host = _PDSH_HOST.match(raw)
        if host is not None:
            raw = raw[host.end() :]
    # Most lines start with neither a digit, a space nor "[": skip the regex for them.
    if not raw or (raw[0] not in _PREFIX_START):
        return _after_actor(None, None, raw) if raw[:1] == "(" else (None, None, raw)
    if raw[0] == "[" and "]<std" in raw[:24]:  # rare: horovodrun's and mpirun's tags
        t = _TAGGED.match(raw)
        if t is not None:
            return int(t[1]), None, raw[t.end() :]
    m = _PREFIX.match(raw)
    assert m is not None  # every group is optional: the pattern always matches
    if m.end() == 0:
        return None, None, raw
    label = int(m[1]) if m[1] is not None else None
    inner = m[3] if m[3] is not None else m[2]
    rank = int(inner) if inner is not None else label
    text = raw[m.end() :]
    return _after_actor(rank, label, text) if text[:1] == "(" else (rank, label, text)


_PREFIX_START = frozenset(" 0123456789[")
# Ray prints each actor's and task's output behind its name and process ("(RayTrainWorker
# pid=688, ip=10.0.0.3) ", "(pid=4121) "), after srun's label if any; PyTorch's "[rank1]: "
# may follow it.
_ACTOR = re.compile(r"\((?:[A-Za-z_]\w* )?pid=\d+(?:, ip=[\w.:-]+)?\) (?:\[rank(\d{1,7})\]: ?)?")


def _after_actor(
    rank: int | None, label: int | None, text: str
) -> tuple[int | None, int | None, str]:
    m = _ACTOR.match(text)
    if m is None:
        return rank, label, text
    return (int(m[1]) if m[1] is not None else rank), label, text[m.end() :]


# What may stand before a line's own timestamp: launcher and logger tags in brackets, levels,
# separators, weekday names, a `time=` key. A lowercase word means the time is part of the
# message ("Started at Mon Nov 2 19:24:23", "CANCELLED AT 2024-...") and says nothing about
# when the line was written.
_TAGS = re.compile(
    r"\[[^\]]*\]?|<[^>]*>|\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b"
    r"|\b(?:time|ts|timestamp|asctime|date)\b\W*"
)
_WORD = re.compile(r"[a-z]{2,}")


# The kernel's own records pasted in with `dmesg -T`: their times say when the kernel logged
# them, not when the job's log got the line (a pasted dmesg spans days in one second).
_KERNEL_RECORD = re.compile(
    r"^\s*\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\]"
)


def _leads(text: str, start: int) -> bool:
    """Whether the timestamp found at `start` is the line's own (at its head)."""
    if text[:1] in " [" and _KERNEL_RECORD.match(text):
        return False
    return start == 0 or _WORD.search(_TAGS.sub(" ", text[:start])) is None


def parse_timestamp(
    text: str, *, tz: tzinfo = UTC, year: int | None = None, near: float | None = None
) -> float | None:
    """Epoch seconds of the timestamp that heads `text` (after tags), or None.

    Naive times are read in `tz` (the cluster's log time zone). Syslog-style and glog times
    carry no year: `year` is used, else the year of `near` (the log's latest stamp, so that a
    2024 log's year-less lines stay in 2024), else, for syslog's, the current year in `tz`
    (a glog time without `year` or `near` is not read).
    """
    m = _ISO.search(text, 0, _TS_WINDOW)
    if m is not None and not _leads(text, m.start()):
        return None
    if m is not None:
        key = (m[0], tz)  # the time's text decides its value: lines share it by the hundred
        try:
            return _STAMPS[key]
        except KeyError:
            pass
        value = _iso_epoch(m, tz)
        if len(_STAMPS) >= 4096:
            _STAMPS.clear()
        _STAMPS[key] = value
        return value
    m = _SYSLOG.search(text, 0, _TS_WINDOW)
    if m is not None and _leads(text, m.start()):
        mon, d, h, mi, s, half, stated = m.groups()
        if stated is not None and 1970 <= int(stated) <= 2100:
            year = int(stated)
        hour = str(_hour24(int(h), half))
        return _epoch(_year_of(year, near, tz), _MONTHS[mon], d, hour, mi, s, tz)
    if "/" in text[:16]:
        m = _MONTH_DAY.search(text, 0, 16)
        if m is not None and _leads(text, m.start()) and 1 <= int(m[1]) <= 12:
            mo, d, h, mi, s = m.groups()
            return _epoch(_year_of(year, near, tz), int(mo), d, h, mi, s, tz)
    # glog's lines name their source file ("file.cc:753] "). Their time counts only in a log
    # whose stamps with a year came first: a year guessed from today would put a 2025 log's
    # torchrun header ahead of all its later lines.
    if (year is not None or near) and "] " in text:
        m = _GLOG.search(text, 0, _TS_WINDOW)
        if m is not None and _leads(text, m.start()):
            mo, d, h, mi, s, frac = m.groups()
            epoch = _epoch(_year_of(year, near, tz), int(mo), d, h, mi, s, tz)
            if epoch is None or not frac:
                return epoch
            return epoch + int(frac) / 10.0 ** len(frac)
    return None


# A stamp that names its zone: ISO's "Z" or offset, or `date`'s zone word before its year
# ("Tue May 12 10:55:23 PM UTC 2026").
_ZONED = re.compile(
    r"\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})(?!\d)"
    r"|\d{2}:\d{2}:\d{2}(?: [AP]M)? [A-Z]{2,5} \d{4}\b"
)
_ZONE_STEP_S = 900.0  # every zone is a whole number of quarter hours from UTC
_MAX_ZONE_S = 14 * 3600.0
_ZONE_SLACK_S = 120.0  # the seconds that really passed between the two lines


_CANCELLED_AT = "CANCELLED AT "


def stop_time(text: str, *, tz: tzinfo = UTC) -> float | None:
    """When a stop line says the job was stopped: slurmstepd's "*** JOB 3 ON n3 CANCELLED AT
    2026-11-25T04:02:07 DUE TO TIME LIMIT ***" names the time mid-line; else the line's own."""
    at = text.find(_CANCELLED_AT)
    if at < 0:
        return parse_timestamp(text, tz=tz)
    m = _ISO.match(text, at + len(_CANCELLED_AT))
    return _iso_epoch(m, tz) if m is not None else None


def zone_shift(before: str, after: str, gap: float) -> bool:
    """Whether the jump `gap` between two stamped lines is a time zone, not time passing.

    One stamp names its zone and the other does not (a job script's `date -u` header, then the
    program's own lines in local time: "2026-03-11T10:33:09Z", then "[2026-03-11 18:33:17,277]"),
    and the jump is a whole number of quarter hours, give or take a couple of minutes.
    """
    size = abs(gap)
    if not _ZONE_STEP_S - _ZONE_SLACK_S <= size <= _MAX_ZONE_S + _ZONE_SLACK_S:
        return False
    off = size % _ZONE_STEP_S
    if min(off, _ZONE_STEP_S - off) > _ZONE_SLACK_S:
        return False
    zoned_before = _ZONED.search(before, 0, _TS_WINDOW) is not None
    return zoned_before != (_ZONED.search(after, 0, _TS_WINDOW) is not None)


def _epoch(
    year: int, month: int, day: str, hour: str, minute: str, second: str, tz: tzinfo
) -> float | None:
    """Epoch seconds of a year-less stamp's fields in `year` (None: no such date)."""
    try:
        dt = datetime(year, month, int(day), int(hour), int(minute), int(second), tzinfo=tz)
    except ValueError:
        return None
    return dt.timestamp()


def _year_of(year: int | None, near: float | None, tz: tzinfo) -> int:
    """The year of a stamp that states none: the caller's, else that of `near` (the log's
    latest stamp), else the current one."""
    if year is not None:
        return year
    return datetime.fromtimestamp(near if near else time.time(), tz).year


def _hour24(hour: int, half: str | None) -> int:
    """A 12-hour clock's hour ("10:55:23 PM") on the 24-hour clock; any other hour as it is."""
    if half is None or not 1 <= hour <= 12:
        return hour
    return hour % 12 + (12 if half == "PM" else 0)


def _iso_epoch(m: re.Match[str], tz: tzinfo) -> float | None:
    """Epoch seconds of an `_ISO` match, read in `tz` unless it names a zone."""
    y, mo, d, h, mi, s, frac, zone, half = m.groups()
    minute, second = int(mi), int(s)
    if minute > 59 or second > 60:
        return None
    hour_start = _hour_start(int(y), int(mo), int(d), _hour24(int(h), half), tz)
    if hour_start is None:
        return None
    epoch, offset = hour_start
    epoch += minute * 60 + second
    if zone is not None:
        # An explicit zone wins over `tz`: undo tz's offset, apply the zone's.
        epoch += offset - _zone_seconds(zone)
    if frac:
        epoch += int(frac) / 10 ** len(frac)
    return epoch


# (the text of an `_ISO` match, tz) -> its epoch seconds (None: not a valid time).
_STAMPS: dict[tuple[str, tzinfo], float | None] = {}

# (year, month, day, hour, tz) -> (epoch at the start of that hour, tz's UTC offset then).
# Log timestamps come in long runs within the same hour, so building a datetime (the slow
# part) happens about once an hour of log; keying by hour keeps DST changes right.
_HOURS: dict[tuple[int, int, int, int, tzinfo], tuple[float, float] | None] = {}


def _hour_start(y: int, mo: int, d: int, h: int, tz: tzinfo) -> tuple[float, float] | None:
    key = (y, mo, d, h, tz)
    try:
        return _HOURS[key]
    except KeyError:
        pass
    try:
        dt = datetime(y, mo, d, h, tzinfo=tz)
    except ValueError:
        value = None
    else:
        offset = dt.utcoffset()
        value = (dt.timestamp(), offset.total_seconds() if offset is not None else 0.0)
    if len(_HOURS) >= 4096:
        _HOURS.clear()
    _HOURS[key] = value
    return value


def _zone_seconds(zone: str) -> float:
    if zone == "Z":
        return 0.0
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    return sign * (int(digits[:2]) * 3600 + int(digits[2:4]) * 60)


def parse_line(raw: str, *, tz: tzinfo = UTC, year: int | None = None) -> ParsedLine:
    """Split a raw log line into rank, text and timestamp."""
    rank, label, text = split_prefix(raw)
    return ParsedLine(rank, text, parse_timestamp(text, tz=tz, year=year), label)


def looks_split(text: str) -> bool:
    """True when a labelled line's text is exactly one srun chunk: its line likely continues."""
    # Cheap length guards first: 1024 bytes are between 256 and 1024 characters of UTF-8.
    n = len(text)
    if n > SRUN_CHUNK_BYTES or n < SRUN_CHUNK_BYTES // 4:
        return False
    return n == SRUN_CHUNK_BYTES or len(text.encode("utf-8", "surrogatepass")) == SRUN_CHUNK_BYTES


class SrunJoiner:
    """Re-joins the chunks srun made of one long labelled line (a heuristic, see `looks_split`).

    A labelled line whose text is exactly SRUN_CHUNK_BYTES bytes is held; the following lines
    with the same label are appended until one is shorter. Lines without a label, or of other
    lengths, pass straight through, so the common case adds no delay. Other tasks' lines may
    interleave with the chunks. Memory is bounded: a held line stops growing at `max_chars`
    (and is then released), and at most `max_pending` labels are held at once (the oldest is
    released to make room). A line that happened to be exactly 1024 bytes is held until its
    task's next line, or until `flush()` (call it when the log falls silent).
    """

    def __init__(self, *, max_chars: int = 65536, max_pending: int = 1024) -> None:
        self._max_chars = max_chars
        self._max_pending = max_pending
        self._pending: dict[int, list[str]] = {}
        self._sizes: dict[int, int] = {}

    def push(self, label: int | None, text: str) -> list[tuple[int | None, str]]:
        """Feed one line; return the (label, text) lines that are now complete, in order."""
        if label is None:
            return [(label, text)]
        held = self._pending.get(label)
        split = looks_split(text)
        if held is None:
            if not split:
                return [(label, text)]
            out: list[tuple[int | None, str]] = []
            if len(self._pending) >= self._max_pending:
                oldest = next(iter(self._pending))
                out.append((oldest, self._release(oldest)))
            self._pending[label] = [text]
            self._sizes[label] = len(text)
            return out
        held.append(text)
        self._sizes[label] += len(text)
        if split and self._sizes[label] < self._max_chars:
            return []
        return [(label, self._release(label))]

    @property
    def holding(self) -> bool:
        """Whether some task's line is held, waiting for its next chunk."""
        return bool(self._pending)

    def flush(self) -> list[tuple[int | None, str]]:
        """Release every held line (e.g. when the log falls silent)."""
        return [(label, self._release(label)) for label in list(self._pending)]

    def _release(self, label: int) -> str:
        self._sizes.pop(label, None)
        return "".join(self._pending.pop(label))


# A line that only marks lines left out of an excerpt: "...", "... ...", "[...]", "<snip>",
# "(200 lines omitted)". Time across it is unknown, not silence.
_ELISION = re.compile(
    r"\s*(?:(?:\.{3,}|…+)\s*)+"
    r"|\s*[\[(<]\s*(?:\.{3}|…|snip(?:ped)?)[^\])>]{0,60}[\])>]\s*"
    r"|\s*(?:\.{3}\s*)?[\[(]?(?:\d+\s+)?(?:more\s+)?lines?\s+(?:omitted|removed|skipped|elided)"
    r"[\])]?\s*(?:\.{3})?\s*",
    re.IGNORECASE,
)


# Any text an elision line must hold: a block without it has no cut (RE2 on bytes: one linear
# pass, no offset mapping).
ELISION_HINT = re2.compile(
    "(?i)\\.\\.\\.|…|snip|omitted|elided|lines? (?:removed|skipped)".encode()
)


def is_elision(text: str) -> bool:
    """True when `text` (a line without its rank prefix) only marks an excerpt's cut."""
    return bool(text) and len(text) < 80 and _ELISION.fullmatch(text) is not None


def has_elision(block: bytes) -> bool:
    """Whether some line of `block` (UTF-8 lines joined by b"\\n") only marks an excerpt's cut."""
    pos = 0
    while (m := ELISION_HINT.search(block, pos)) is not None:
        start = block.rfind(b"\n", 0, m.start()) + 1
        end = block.find(b"\n", m.end())
        end = end if end >= 0 else len(block)
        line = block[start:end].decode("utf-8", "replace")
        if is_elision(split_prefix(line)[2]):
            return True
        pos = end + 1  # the next line: a timer row's dots are searched once
    return False
