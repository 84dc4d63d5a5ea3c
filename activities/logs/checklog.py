"""`ajr check-log`: whether a log meets ajr's format rules, and what ajr would detect in it.

The rules are the seed's "How do I know if my logs are in the right format?" plus ajr's own
checkpoint patterns. The file is read with `LogScanner` and replayed through `LogEngine` with
each line's own timestamp as its arrival time (a line without one inherits the previous one),
so the anomaly reported is the first one ajr's watcher would have acted on:

- CRASH: a finding from `feed`, or failure signals still pending when the file ends (the job
  did not train on after them);
- HANG: a gap between consecutive line timestamps that `LogEngine.silence` calls a hang, i.e.
  longer than the hang timeout in training (more for a slow iteration cadence), or than the
  setup/checkpoint/evaluation allowances in those phases; the time across a line that only
  marks a cut in an excerpt ("...", "[...]", "(200 lines omitted)") is unknown, not silence;
- STRAGGLER: the engine's STRAGGLER finding (a sustained TFLOP drop or an NVRx report).

Reading is bounded in memory like the watcher's; the report keeps every TFLOP value and save.
"""

from __future__ import annotations

import os
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import re2

from activities.logs.locate import LOG_NAME
from activities.logs.scanner import LogScanner, LogUnavailable
from analysis.analyzer import AnalyzerContext, Finding
from analysis.attempts import slurm_cancelled, slurm_own
from analysis.detectors import TOKEN_SEARCH, Signal
from analysis.engine import LogEngine
from analysis.lines import (
    ELISION_HINT,
    SRUN_CHUNK_BYTES,
    SrunJoiner,
    is_elision,
    parse_timestamp,
    split_prefix,
    zone_shift,
)
from models.categories import Category
from models.engine_settings import EngineSettings
from models.recovery import Observed

# Causes in the hardware itself: a GPU that failed and took its node down is one fault.
_HARDWARE = frozenset({Category.GPU, Category.NODE})
# The name ajr's locator accepts, with the job name and ID apart: one definition for both.
_NAME = LOG_NAME
# Shares of non-empty lines below which a rule counts as broken: lines outside srun (the batch
# script's own echo) and multi-line output (timer tables, tracebacks) legitimately lack them.
_MIN_TIMESTAMPED = 0.9
_MIN_RANKED = 0.9
_MAX_EVIDENCE = 8
_MAX_EXAMPLES = 3
# Lines without a timestamp before the first timestamped one wait (bounded) for its time, so
# that the engine's setup phase starts when the job did, not at epoch 0.
_MAX_LEADING = 10_000

ANOMALIES = ("CRASH", "HANG", "STRAGGLER")
EXIT_OK, EXIT_FORMAT, EXIT_ANOMALY, EXIT_UNREADABLE = 0, 1, 3, 4


class CheckLogError(Exception):
    """The file cannot be read."""


@dataclass(frozen=True)
class Problem:
    rule: str  # file_name | timestamps | rank_prefixes | line_cadence | tflops | checkpoints
    problem: str
    fix: str


@dataclass(frozen=True)
class Detected:
    """One finding ajr would have acted on, with the line (1-based) that triggered it."""

    kind: str
    summary: str
    line: int
    category: str
    requeue: bool | None
    culprit_nodes: tuple[str, ...]
    culprit_ranks: tuple[int, ...]
    evidence: tuple[str, ...]
    # What the watcher's cursor holds at that moment, for the policy's verdict (done means
    # done; an in-job restarter restarts a crash in place).
    training_done: bool = False
    in_job_restarter: bool = False
    at: float | None = None  # the log's time when it was found (None: no timestamps)


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint saved or loaded: its step, when (the line's own time), at which line."""

    step: int | None
    at: float | None
    line: int

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "time": _iso(self.at), "line": self.line}


def _iso(at: float | None) -> str | None:
    if not at:
        return None
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


@dataclass
class CheckReport:
    path: str
    hang_timeout_s: float
    job_id: int | None = None
    lines: int = 0
    size: int = 0
    timestamped: int = 0
    ranked: int = 0
    nonempty: int = 0
    sampled: bool = False  # timestamped/ranked were counted on a sample of a big log's lines
    # Bulk-read stretches: their silences were not measured one by one, only bounded by this.
    skimmed_gap_s: float = 0.0
    largest_gap_s: float | None = None
    gap_lines: tuple[int, int] | None = None  # (line before, line after) the largest gap
    findings: list[Detected] = field(default_factory=list)
    checkpoint_saves: list[Checkpoint] = field(default_factory=list)
    checkpoint_loads: list[Checkpoint] = field(default_factory=list)
    interrupted_saves: int = 0  # saves that began and never ended (the job died in them)
    first_step_at: float | None = None  # the first training step report (after a load)
    tflops: list[float] = field(default_factory=list)
    stragglers: dict[int, str | None] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # A straggler is requeued at its next checkpoint save, or this long after it (the recovery
    # policy's `straggler_checkpoint_wait_s`): a crash or hang before then is what ajr acts on.
    straggler_wait_s: float = 1800.0
    # The line each attempt of the job begins at: one file may hold several, when Slurm
    # requeued the job (preemption, `scontrol requeue`) and its output was appended.
    attempts: list[int] = field(default_factory=lambda: [1])

    def attempt_of(self, finding: Detected) -> int:
        """The attempt (0-based) `finding` was found in."""
        return bisect_right(self.attempts, finding.line) - 1

    @property
    def last_attempt(self) -> list[Detected]:
        """The findings of the file's last attempt: the one whose fate the verdict is about
        (an earlier attempt's preemption was Slurm's to requeue, and it did)."""
        return [d for d in self.findings if d.line >= self.attempts[-1]]

    @property
    def anomaly(self) -> Detected | None:
        """The finding ajr's watcher would have acted on: the first, unless it is a straggler
        (slow is not dead: ajr waits for its next checkpoint save) and the attempt crashed or
        hung within the wait. (The live wait ends at the straggler's next save, counted from
        the watcher's read that found it, which takes in every line written by then; check-log
        does not model reads: a save written a read's interval or more after the straggler's
        line ends the wait here. tests/unit/test_watcher_agrees.py checks that the two agree on
        every corpus log.)"""
        findings = self.last_attempt
        if not findings:
            return None
        first = findings[0]
        if first.kind != Observed.STRAGGLER.value:
            return first
        for later in findings[1:]:
            waited = None if first.at is None or later.at is None else later.at - first.at
            if waited is not None and waited >= self.straggler_wait_s:
                break  # requeued when the wait ran out
            if any(self._ends_wait(first, save, later) for save in self.checkpoint_saves):
                break  # requeued once the next save was written
            if later.kind != Observed.STRAGGLER.value:
                return later
        return first

    @staticmethod
    def _ends_wait(straggler: Detected, save: Checkpoint, later: Detected) -> bool:
        """`save` came between the straggler and `later`, in a read after the one that found
        the straggler."""
        return (
            straggler.line < save.line < later.line
            and straggler.at is not None
            and save.at is not None
            and save.at - straggler.at >= _READ_EVERY_S
        )

    @property
    def exit_code(self) -> int:
        if self.anomaly is not None:
            return EXIT_ANOMALY
        return EXIT_FORMAT if self.problems else EXIT_OK

    def to_json(self) -> dict[str, Any]:
        first = self.anomaly
        return {
            "path": self.path,
            "job_id": self.job_id,
            "anomaly": first.kind if first else "NONE",
            "summary": first.summary if first else "",
            "attribution": first.category if first else None,
            "requeue": first.requeue if first else None,
            "culprit_nodes": list(first.culprit_nodes) if first else [],
            "culprit_ranks": list(first.culprit_ranks) if first else [],
            "evidence": list(first.evidence) if first else [],
            "checkpoint_saves": [c.to_json() for c in self.checkpoint_saves],
            "checkpoint_loads": [c.to_json() for c in self.checkpoint_loads],
            "interrupted_saves": self.interrupted_saves,
            "first_step_time": _iso(self.first_step_at),
            "tflops": self.tflops,
            "format_problems": [vars(p) for p in self.problems],
            "findings": [
                {
                    "kind": d.kind,
                    "summary": d.summary,
                    "line": d.line,
                    "attempt": self.attempt_of(d),
                }
                for d in self.findings
            ],
            "attempts": [{"start_line": line} for line in self.attempts],
            "stragglers": {str(rank): node for rank, node in sorted(self.stragglers.items())},
            "lines": self.lines,
            "bytes": self.size,
            "timestamped_lines": self.timestamped,
            "ranked_lines": self.ranked,
            "format_counts_sampled": self.sampled,
            "skimmed_gap_bound_s": self.skimmed_gap_s,
            "largest_gap_s": self.largest_gap_s,
            "hang_timeout_s": self.hang_timeout_s,
            "exit_code": self.exit_code,
        }

    def render(self) -> list[str]:
        """The report for a person, one string per line."""
        out = [f"{self.path}: {self.lines} lines, {self.size} bytes"]
        out.append("format:")
        broken = {p.rule for p in self.problems}
        for rule, what in _RULES:
            out.append(f"  {'FAIL' if rule in broken else 'ok  '} {what}")
            for p in self.problems:
                if p.rule == rule:
                    out += [f"       {p.problem}", f"       fix: {p.fix}"]
        first = self.anomaly
        out.append("what ajr detects:")
        if len(self.attempts) > 1:
            starts = ", ".join(map(str, self.attempts))
            out.append(
                f"  {len(self.attempts)} attempts in this file (Slurm requeued the job), from lines"
                f" {starts}: the verdict is the last attempt's"
            )
            for d in self.findings:
                if d.line < self.attempts[-1]:
                    which = self.attempt_of(d) + 1
                    out.append(f"  attempt {which}: {d.kind} at line {d.line}: {d.summary}")
        if first is None:
            out.append("  no anomaly: ajr would let this job run")
        else:
            requeue = {True: "yes", False: "no (a requeue cannot help)", None: "policy decides"}
            out += [
                f"  {first.kind} at line {first.line}: {first.summary}",
                f"  cause: {first.category}; requeue: {requeue[first.requeue]}",
            ]
            if first.culprit_nodes:
                out.append(
                    f"  culprit nodes (excluded on requeue): {', '.join(first.culprit_nodes)}"
                )
            if first.culprit_ranks:
                out.append(f"  culprit ranks: {', '.join(map(str, first.culprit_ranks))}")
            out.append("  evidence:")
            out += [f"    {line}" for line in first.evidence]
            for other in self.last_attempt:  # the acted-on one may be later than a straggler
                if other is not first:
                    when = "then" if other.line >= first.line else "before it"
                    out.append(f"  {when} {other.kind} at line {other.line}: {other.summary}")
        for what, done in (("saves", self.checkpoint_saves), ("loads", self.checkpoint_loads)):
            shown = ", ".join(
                ("?" if c.step is None else str(c.step)) + (f" at {_iso(c.at)}" if c.at else "")
                for c in done[:10]
            )
            more = " ..." if len(done) > 10 else ""
            out.append(f"  checkpoint {what}: {len(done)}{f' ({shown}{more})' if shown else ''}")
        if self.interrupted_saves:
            out.append(f"  interrupted saves (began, never ended): {self.interrupted_saves}")
        if self.tflops:
            t = self.tflops
            out.append(
                f"  throughput reports: {len(t)} (TFLOP/s: first {t[0]:g}, min {min(t):g},"
                f" max {max(t):g}, last {t[-1]:g})"
            )
        if self.largest_gap_s is not None and self.gap_lines is not None:
            before, after = self.gap_lines
            out.append(
                f"  longest silence: {self.largest_gap_s:.0f}s (lines {before}-{after});"
                f" hang timeout {self.hang_timeout_s:.0f}s"
            )
            if self.skimmed_gap_s > self.largest_gap_s:
                out.append(
                    f"  (stretches read in bulk: silences there of at most "
                    f"{self.skimmed_gap_s:.0f}s, less than the hang timeout)"
                )
        return out


_RULES = (
    ("file_name", "job ID in the file name ({name}_{jobid}_date_%y-%m-%d_time_%H-%M-%S.log)"),
    ("timestamps", "timestamps on lines"),
    ("rank_prefixes", "rank prefixes (srun -l)"),
    ("line_cadence", "a line at least every hang timeout (2 minutes by default)"),
    ("tflops", "throughput lines with TFLOP"),
    ("checkpoints", "checkpoint saves ajr recognises"),
)


def check_log(
    path: str,
    *,
    settings: EngineSettings | None = None,
    nodes: Sequence[str] = (),
    silent_for: float = 0.0,
) -> CheckReport:
    """Read `path` once and report its format problems and what ajr would detect in it.

    `settings` are the engine's (the watcher's own, from `AJR_*`); `silent_for` is how long the
    file has not grown while its job still runs (0: the log is complete as it is).
    """
    settings = settings or EngineSettings()
    replay = _Replay(path, settings, tuple(nodes))
    # srun cuts labelled lines longer than 1024 bytes into chunks: put them back together so
    # a long traceback or NCCL line is judged whole (the watcher matches chunk by chunk).
    joiner = SrunJoiner()
    try:
        with LogScanner(path) as scanner:
            while True:
                before = scanner.offset + scanner.pending_bytes
                # Blocks (a chunk's lines in one string): most lines are never split apart.
                blocks = scanner.read_blocks()
                replay.blocks(blocks, joiner)
                if not blocks and scanner.offset + scanner.pending_bytes == before:
                    replay.blocks([], joiner, final=True)
                # A read may return no line yet move on (a line longer than one read): stop
                # only at the end of the file.
                if not blocks and scanner.offset + scanner.pending_bytes == before:
                    break
            tail = _unterminated_tail(path, scanner.offset)
    except LogUnavailable as exc:
        raise CheckLogError(exc.reason) from exc
    if tail is not None:  # the writer is done: its last line needs no newline
        for whole in _rejoined(joiner, tail):
            replay.line(whole)
    for label, text in joiner.flush():
        replay.line(f"{label}: {text}")
    report = replay.finish(silent_for)
    report.size = os.path.getsize(path)
    report.problems = _problems(report, os.path.basename(path))
    return report


def _unterminated_tail(path: str, offset: int, limit: int = 65536) -> str | None:
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            data = fh.read(limit + 1)
    except OSError as exc:
        raise CheckLogError(f"cannot read {path}: {exc}") from exc
    if not data:
        return None
    return data[:limit].decode("utf-8", "replace").removesuffix("\r")


def _rejoined(joiner: SrunJoiner, raw: str) -> list[str]:
    """`raw`, or nothing while it is held as an srun chunk, or the lines it completes."""
    _, label, text = split_prefix(raw)
    if label is None:
        return [raw]
    return [
        raw if (done_label, done_text) == (label, text) else f"{done_label}: {done_text}"
        for done_label, done_text in joiner.push(label, text)
    ]


def _nth_newline(text: str, start: int, n: int, avg: int) -> int:
    """Where the `n`th (>= 1) "\\n" at or after `start` is in `text`, or -1 if there are fewer.

    Counted, not walked: `avg` (characters per line, a guess) says how far to count; each
    count aims a little short, so the stretches counted shrink and are each counted once, and
    the last few newlines are found one by one."""
    lo, hi, need, avg = start, len(text), n, max(1, avg)
    while need > 16:  # the answer, if any, is the `need`th newline in [lo, hi)
        stop = min(hi, lo + (need - need // 8) * avg)
        count = text.count("\n", lo, stop)
        if count >= need:  # overshot (lines shorter than guessed)
            if count - need < 16:
                at = stop
                for _ in range(count - need + 1):
                    at = text.rfind("\n", lo, at)
                return at
            hi, avg = stop, max(1, (stop - lo) // count)  # far: count a shorter stretch
            continue
        if stop == len(text):
            return -1
        if count:
            avg = max(1, (stop - lo) // count)
        else:
            avg *= 2
        lo, need = stop, need - count
    at = lo - 1
    for _ in range(need):
        at = text.find("\n", at + 1)
        if at < 0:
            return -1
    return at


def _lines_end(text: str, start: int, n: int, avg: int) -> int:
    """Where the `n` lines of `text` from `start` end (the newline after the last, or the end of
    `text`), or -1 if fewer than `n` lines start there."""
    at = _nth_newline(text, start, n, avg)
    if at >= 0:
        return at
    return len(text) if text.count("\n", start) == n - 1 else -1


def _has_line_of(text: str, length: int) -> bool:
    """Whether a line of `text` has `length` (>= 2) characters or more."""
    # Such a line covers a whole window [k*step, (k+1)*step) from the start of `text`: a
    # newline in every window rules it out, at one C search per window; else measure.
    step = length // 2
    find = text.find
    if all(find("\n", at, at + step) >= 0 for at in range(0, len(text) - step + 1, step)):
        return False
    return max(map(len, text.split("\n"))) >= length


# The engine's prefilter and the excerpt-cut hint in one RE2 pattern: one pass over a run finds
# both the lines the engine reads and the lines that may be cuts.
_EITHER = re2.compile(b"(?:" + TOKEN_SEARCH.pattern + b")|(?:" + ELISION_HINT.pattern + b")")


def _candidates(data: bytes) -> list[int] | None:
    """Where the lines of `data` (ASCII lines joined by b"\\n") that the engine's prefilter
    accepts start (what `next_candidate` finds), in order; None if a line is an excerpt's cut
    (`has_elision`). Neither pattern matches across a newline, so each is asked per line."""
    found: list[int] = []
    pos = 0
    while (m := _EITHER.search(data, pos)) is not None:
        start = max(pos, data.rfind(b"\n", pos, m.start()) + 1)
        end = data.find(b"\n", m.end())
        end = end if end >= 0 else len(data)
        if TOKEN_SEARCH.search(data, start, end) is not None:
            found.append(start)
        if ELISION_HINT.search(data, start, end) is not None and is_elision(
            split_prefix(data[start:end].decode())[2]
        ):
            return None
        pos = end + 1
    return found


# Lines skimmed together (see `_Replay._skim`), and how many of them are parsed for the format
# counts: big logs are read at the engine's block speed, small ones line by line.
_RUN = 2048
_MIN_RUN = 128
_SAMPLE = 64
_TOO_LONG = "too long"
# How often the watcher reads a job's log by default (`log_poll_interval`): lines written this
# long after one it read were read later.
_READ_EVERY_S = 0.5
_MAX_HELD = 20_000  # lines held while a new attempt is not yet proven (see `_Replay._feed`)
# Progress reports after a "DUE TO JOB REQUEUE" cancel that prove the requeued job is running:
# more than the one a dying process might print in its grace time.
_RESUMED = 2


class _Replay:
    """Feeds lines to a LogEngine at their own times and collects what the report needs."""

    def __init__(self, path: str, settings: EngineSettings, nodes: tuple[str, ...]) -> None:
        self.report = CheckReport(path=path, hang_timeout_s=settings.hang_timeout_s)
        self.engine = LogEngine(AnalyzerContext(job_nodes=nodes, settings=settings))
        self.at: float | None = None  # the latest line timestamp seen
        self.last_stamped = 0  # the line number that carried it
        self.stamp_text = ""  # and its text (a time zone changing between stamps: zone_shift)
        self.leading: list[str] = []  # lines before the first timestamp
        self.cut = False  # an excerpt's cut since the last timestamp: the gap is not silence
        self.reports_at_stamp = 0  # the engine's progress reports up to the last stamped line
        # Lines read and not yet replayed, joined by "\n": from `pos` (none when past the end).
        self.text, self.pos = "", 1
        self.avg = 64  # the last skimmed run's bytes per line: where to look for a run's end
        # Another attempt in the same file (analysis/attempts.py): Slurm's cancel was seen
        # (`cancelled`), the next line of the job's own begins what may be the next attempt
        # (`next_start`); the lines fed from there are held until a checkpoint load proves it
        # (or, after a cancel that says the job was requeued, training's progress reports:
        # `requeued`), then read again by a fresh engine.
        self.settings, self.nodes = settings, nodes
        self.cancelled = self.requeued = False
        self.progress_at_start = 0  # the engine's progress reports before `next_start`
        self.next_start: int | None = None
        self.held: list[tuple[str, float, int]] = []
        self.tflops_at_start = 0  # TFLOP reports before `next_start`
        self.attempt_findings = 0  # index of the current attempt's first finding
        self.interrupted_before = 0  # saves the attempts ended so far began and never ended

    def blocks(self, blocks: list[str], joiner: SrunJoiner, *, final: bool = False) -> None:
        """Every line of `blocks` (lines joined by "\\n", as `LogScanner.read_blocks` returns
        them), in order: runs that cannot hold anything new are skimmed. The last lines, fewer
        than a run, wait for the next call (`final`: there is none).

        The lines are never split into a list except where they are read one by one: a run is
        a slice of the text, found by counting newlines."""
        if blocks:
            head = [self.text[self.pos :]] if self.pos <= len(self.text) else []
            self.text, self.pos = "\n".join(head + blocks), 0
        text = self.text
        while self.pos <= len(text):  # lines remain (an empty last line is a line)
            start = self.pos
            full = _lines_end(text, start, _RUN, self.avg)
            if full < 0 and not final:
                return  # fewer than a run: wait for more
            size, end = _RUN, full
            while size >= _MIN_RUN and not joiner.holding:
                if end < 0:  # fewer lines than a run (at the file's end)
                    size = 0
                    break
                run = text[start:end]
                verdict = self._skimmable(run)
                if isinstance(verdict, list):
                    self._skim(run, verdict, size)
                    self.avg = max(1, (end - start) // size)
                    break
                if verdict != _TOO_LONG:
                    size = 0
                    break
                size //= 2  # the run spans too long a time: try a shorter one
                end = _lines_end(text, start, size, self.avg) if size >= _MIN_RUN else -1
            else:
                size = 0
            if size:
                self.pos = end + 1
                continue
            stop = _lines_end(text, start, _MIN_RUN, self.avg)
            if stop < 0:
                stop = len(text)
            for line in text[start:stop].split("\n"):
                for whole in _rejoined(joiner, line):
                    self.line(whole)
            self.pos = stop + 1

    def _skimmable(self, run: str) -> list[int] | str | None:
        """Where the lines of `run` (lines joined by "\\n") that the engine reads start, if its
        lines' times are known and close together, with no srun chunk and no excerpt cut: then
        no silence in it can be a hang, and only its first and last lines and the lines the
        engine reads need reading one by one. `_TOO_LONG` if only its time span is too long,
        else None."""
        if self.at is None or self.leading or self.cut or not self.engine.has_progress:
            return None  # before training reports progress, every silence shapes the next
        first = parse_timestamp(split_prefix(run[: run.find("\n")])[2], near=self.at)
        last = parse_timestamp(split_prefix(run[run.rfind("\n") + 1 :])[2], near=self.at)
        if first is None or last is None or not self.at <= first <= last:
            return None
        # Every gap inside is at most the run's span: shorter than any hang allowance.
        span = last - first
        if span >= self.report.hang_timeout_s:
            return _TOO_LONG
        if not run.isascii() or _has_line_of(run, SRUN_CHUNK_BYTES):
            return None  # a line might be an srun chunk: rejoin it line by line
        data = run.encode()  # ASCII: byte offsets are str offsets
        found = _candidates(data)
        if found is None:
            return None
        self.report.skimmed_gap_s = max(self.report.skimmed_gap_s, span)
        return found

    def _skim(self, run: str, found: list[int], size: int) -> None:
        """`line` for each of the `size` lines of `run` (see `_skimmable`), reading in full only
        the lines the engine reads (found by the engine's own prefilter over the run); the
        format counts of the others come from every `_SAMPLE`th of them."""
        engine, last = self.engine, size - 1
        nl, last_start = run.find("\n"), run.rfind("\n") + 1
        self.line(run[:nl])
        i, pos = 1, nl + 1  # the next line to read, and where it starts in `run`
        while i < last:
            matters = not engine.reads_every_line  # line j is one the prefilter found
            if not matters:
                j, at = i, pos
            else:
                k = bisect_left(found, pos)  # `next_candidate` from pos, looked up
                at = found[k] if k < len(found) else -1
                j = i + self._skip(run, pos, at if at >= 0 else last_start)
            if j == last:
                break
            if j > i:
                # The time the engine would have had: the line before's, if it has one.
                prior = split_prefix(run[run.rfind("\n", 0, at - 1) + 1 : at - 1])[2]
                before = parse_timestamp(prior, near=self.at)
                if before is not None and before >= (self.at or 0.0):
                    self.at, self.last_stamped, self.stamp_text = before, self.report.lines, prior
            stop = run.find("\n", at)  # line j < last: a newline ends it
            self.line(run[at:stop], matters=matters)
            i, pos = j + 1, stop + 1
        self.line(run[last_start:])

    def _skip(self, run: str, pos: int, stop: int) -> int:
        """Count the lines of `run` from `pos` up to `stop` (a line start), which no detector
        reads, into the format counts (from every `_SAMPLE`th line: a format's share, not an
        exact count); return how many there are. One walk finds both the samples and the count."""
        count = sampled = nonempty = stamped = ranked = 0
        while pos < stop:
            rank, _, text = split_prefix(run[pos : run.find("\n", pos)])
            sampled += 1
            if text.strip():
                nonempty += 1
                stamped += parse_timestamp(text, near=self.at) is not None
                ranked += rank is not None
            end = _nth_newline(run, pos, _SAMPLE, self.avg)  # the end of the _SAMPLEth line
            if end < 0 or end + 1 >= stop:
                count += run.count("\n", pos, stop)
                break
            count, pos = count + _SAMPLE, end + 1
        if not count:
            return 0
        r = self.report
        r.lines += count
        r.nonempty += round(count * nonempty / sampled)
        r.timestamped += round(count * stamped / sampled)
        r.ranked += round(count * ranked / sampled)
        r.sampled = r.sampled or count > 1
        return count

    def line(self, raw: str, *, matters: bool = False) -> None:
        r = self.report
        r.lines += 1
        rank, _, text = split_prefix(raw)
        if text.strip():
            r.nonempty += 1
            r.ranked += rank is not None
            if is_elision(text):
                self.cut = True
        stamp = parse_timestamp(text, near=self.at)
        if stamp is not None:
            r.timestamped += 1
            self._advance(stamp, text)
        if self.at is None:
            if len(self.leading) < _MAX_LEADING:
                self.leading.append(raw)
                return
            self.at = 0.0  # no timestamp in sight: replay with one constant time
        if self.leading:
            self._drain_leading(r.lines - len(self.leading))
        self._feed(raw, self.at, r.lines, matters)
        if stamp is not None:
            self.reports_at_stamp = self.engine.progress_reports

    def _advance(self, stamp: float, text: str) -> None:
        r = self.report
        if self.cut or (
            self.at is not None
            and (
                self.engine.gap_is_no_silence(text, stamp - self.at, stamp, self.reports_at_stamp)
                or zone_shift(self.stamp_text, text, stamp - self.at)
            )
        ):
            # An excerpt's cut, marked ("...") or not (training went on at its pace across it),
            # or progress reported by lines without a time (a tqdm bar between two stamped
            # lines), or the stamps' time zone changing: the job was not silent for the whole
            # gap, and when it was is not known.
            self.cut = False
            self.engine.no_silence_until(stamp)
            self.at, self.last_stamped, self.stamp_text = stamp, self.report.lines, text
            return
        if self.at is not None and stamp > self.at:
            gap = stamp - self.at
            # After Slurm's cancel the job winds down or waits to be requeued: the time until its
            # next line is the scheduler's, not how often the program writes one.
            if not self.cancelled and (r.largest_gap_s is None or gap > r.largest_gap_s):
                r.largest_gap_s, r.gap_lines = gap, (self.last_stamped, r.lines)
            # What the watcher's last poll before this line would have been told.
            silence = self._silence(self.at, gap)
            if silence is not None:
                found, when = silence
                self._record(found, r.lines, gap_lines=(self.last_stamped, r.lines), at=when)
        if self.at is None or stamp >= self.at:
            self.at, self.last_stamped, self.stamp_text = stamp, self.report.lines, text

    def _silence(self, since: float, silent: float) -> tuple[Finding, float] | None:
        """What `silent` seconds without a line after `since` make the engine report, and when
        the watcher would have found it: a hang once its allowance ran out, anything else (a
        held report released, a failure confirmed) at the end of the silence."""
        found = self.engine.silence(silent, since + silent)
        if found is None:
            return None
        if found.kind is Observed.HANG:
            return found, since + min(self.engine.hang_allowance(since), silent)
        return found, since + silent

    def _drain_leading(self, first: int) -> None:
        """Feed the held lines, numbered from `first`, at the time now known."""
        leading, self.leading = self.leading, []
        for number, raw in enumerate(leading, first):
            self._feed(raw, self.at or 0.0, number)

    def _feed(self, raw: str, at: float, number: int, matters: bool = False) -> None:
        if self.cancelled:
            self._maybe_next_attempt(raw, at, number)
        engine = self.engine
        saves, loads, begun = engine.checkpoints, len(engine.loads), engine.loads_begun
        found = engine.feed(raw, at, matters=matters)
        if self.next_start is not None and (
            len(engine.loads) > loads
            or engine.loads_begun > begun
            or (self.requeued and engine.progress_reports >= self.progress_at_start + _RESUMED)
        ):
            # A load begun is proof enough (Lightning's "Restoring states from the checkpoint
            # path at" with no line when it is done): a dying process does not start one. So is
            # training going on after Slurm said it requeued the job: the requeued job's.
            self._next_attempt()
            return
        if not self.cancelled and slurm_cancelled(raw):
            self.cancelled = True
            self.requeued = "DUE TO JOB REQUEUE" in raw
        if engine.checkpoints > saves and engine.saves:
            step, when = engine.saves[-1]
            self.report.checkpoint_saves.append(Checkpoint(step, when or None, number))
        if len(engine.loads) > loads:
            step, when = engine.loads[-1]
            self.report.checkpoint_loads.append(Checkpoint(step, when or None, number))
        progress = engine.last_progress
        tflops = progress.tflops if progress is not None else None
        if tflops is not None:
            self.report.tflops.append(tflops)
        if found is not None:
            self._record(found, number)

    def _maybe_next_attempt(self, raw: str, at: float, number: int) -> None:
        """Hold the lines that may be the next attempt's, from the job's first own line after
        Slurm's cancel (a bounded number: a load comes early in an attempt, or not at all)."""
        if self.next_start is None:
            # (a host-named slurmstepd's cancel, "slurmstepd-n1: error: *** JOB 16 ON n1
            # CANCELLED AT ...", reads as a line prefixed with its host: the cancel is checked
            # whole)
            if slurm_own(split_prefix(raw)[2]) or slurm_cancelled(raw) or not raw.strip():
                return
            self.next_start, self.tflops_at_start = number, len(self.report.tflops)
            self.progress_at_start = self.engine.progress_reports
        if len(self.held) < _MAX_HELD:
            self.held.append((raw, at, number))
        else:
            self.cancelled, self.next_start, self.held = False, None, []

    def _next_attempt(self) -> None:
        """A checkpoint was loaded after Slurm's cancel: a new attempt began at `next_start`.
        The attempt before is closed as the file's end would close it; the held lines are read
        again by a fresh engine, as the watcher of the new attempt reads its own log."""
        start, held = self.next_start, self.held
        assert start is not None
        r = self.report
        # What the old attempt's engine made of the held lines (and of the silence before the
        # first of them) is the new attempt's to say.
        r.findings = [d for d in r.findings if d.line < start]
        r.checkpoint_saves = [c for c in r.checkpoint_saves if c.line < start]
        r.checkpoint_loads = [c for c in r.checkpoint_loads if c.line < start]
        del r.tflops[self.tflops_at_start :]
        self._end_attempt(start - 1, self.at or 0.0)
        r.attempts.append(start)
        self.attempt_findings = len(r.findings)
        self.engine = LogEngine(AnalyzerContext(job_nodes=self.nodes, settings=self.settings))
        self.cancelled, self.next_start, self.held = False, None, []
        for raw, at, number in held:
            self._feed(raw, at, number)

    def _end_attempt(self, last_line: int, at: float) -> None:
        """The current attempt is over at `last_line` (time `at`): a crash it reported gets its
        culprit ranks from the aftermath; failure signals it never got past are its crash; a
        save still open is closed as the attempt's end closes it."""
        r = self.report
        current = r.findings[self.attempt_findings :]
        if any(d.kind == Observed.CRASH.value for d in current):
            self._complete_crash()
        elif not any(d.kind != Observed.STRAGGLER.value for d in current):
            self._crash_at_end(last_line)
        failed = any(d.kind == Observed.CRASH.value for d in r.findings[self.attempt_findings :])
        saves = self.engine.checkpoints
        self.engine.end_of_attempt(failed=failed, at=at)
        if self.engine.checkpoints > saves and self.engine.saves:
            step, when = self.engine.saves[-1]
            r.checkpoint_saves.append(Checkpoint(step, when or None, last_line))
        self.interrupted_before += self.engine.interrupted_saves

    def _record(
        self,
        found: Finding,
        number: int,
        gap_lines: tuple[int, int] | None = None,
        at: float | None = None,
    ) -> None:
        """`at`: when the watcher would have found it (a silence: once its allowance ran out);
        by default the log's time at this line."""
        ranks: tuple[int, ...] = ()  # a CRASH's are known at the end, with its aftermath
        if found.kind is Observed.STRAGGLER:
            ranks = tuple(sorted(self.engine.stragglers))
        evidence = found.evidence
        if found.kind is Observed.HANG and gap_lines is not None:
            evidence = (f"silent from line {gap_lines[0]} to line {gap_lines[1]}", *evidence)
        milestones = self.engine.milestones()
        self.report.findings.append(
            Detected(
                kind=found.kind.value,
                summary=found.summary,
                line=number,
                category=found.category,
                requeue=found.requeue_warranted,
                culprit_nodes=found.culprit_nodes,
                culprit_ranks=ranks,
                evidence=evidence[:_MAX_EVIDENCE],
                training_done=milestones.training_done_at is not None,
                in_job_restarter=milestones.in_job_restarter,
                at=at if at is not None else self.at,
            )
        )

    def finish(self, silent_for: float = 0.0) -> CheckReport:
        if self.leading:
            self._drain_leading(self.report.lines - len(self.leading) + 1)
        r = self.report
        at = self.at or 0.0
        # The watcher's next poll: e.g. an NVRx warning whose score rows never came.
        found = self.engine.silence(0.0, at)
        if found is not None:
            self._record(found, r.lines)
        # (A straggler alone decided nothing yet: ajr waits for its next save meanwhile.)
        current = r.findings[self.attempt_findings :]
        decided = any(d.kind != Observed.STRAGGLER.value for d in current)
        if silent_for > 0 and not decided:
            # The file stopped growing while its job ran on: what the watcher's polls then see.
            silence = self._silence(at, silent_for)
            if silence is not None:
                found, when = silence
                self._record(found, r.lines, gap_lines=(r.lines, r.lines), at=when)
        self._end_attempt(r.lines, at)
        r.stragglers = self.engine.stragglers
        r.interrupted_saves = self.interrupted_before
        r.first_step_at = self.engine.first_progress_at or None
        return r

    def _complete_crash(self) -> None:
        """Culprit ranks of the reported CRASH, from every signal: the lines after the report
        (the CUDA error, srun's task exit) often carry them."""
        cause = self.engine.last_attribution
        if cause is None:
            return
        ranks = _culprit_ranks(
            self.engine.signals, cause.root, cause.culprit_nodes, self.engine.rank_nodes
        )
        # The aftermath may name the node the cause's own line did not (srun's "Node failure on
        # n2" after slurmstepd's cancel "DUE TO NODE FAILURE"): the same cause, with its node.
        # A GPU that failed and then took its node down is one hardware fault too.
        whole = self.engine.attribution()
        same = whole is not None and (
            whole.category == cause.category or {whole.category, cause.category} <= _HARDWARE
        )
        named = whole.culprit_nodes if whole is not None and same else ()
        first = self.attempt_findings  # the current attempt's: an earlier one's are its own
        self.report.findings[first:] = [
            replace(d, culprit_ranks=ranks, culprit_nodes=d.culprit_nodes or named)
            if d.kind == Observed.CRASH.value
            else d
            for d in self.report.findings[first:]
        ]

    def _crash_at_end(self, last_line: int) -> None:
        """The attempt ends at `last_line` with failure signals training never got past: the
        job died of them."""
        found = self.engine.final_finding()
        cause = self.engine.last_attribution
        if found is None or cause is None:
            return
        milestones = self.engine.milestones()
        self.report.findings.append(
            Detected(
                kind=Observed.CRASH.value,
                summary=f"{found.summary} (no progress after it: the log ends)",
                line=last_line,
                category=found.category,
                requeue=found.requeue_warranted,
                culprit_nodes=found.culprit_nodes,
                culprit_ranks=_culprit_ranks(
                    self.engine.signals, cause.root, cause.culprit_nodes, self.engine.rank_nodes
                ),
                evidence=found.evidence[:_MAX_EVIDENCE],
                training_done=milestones.training_done_at is not None,
                in_job_restarter=milestones.in_job_restarter,
                at=self.at,
            )
        )


def _culprit_ranks(
    signals: Sequence[Signal],
    root: Signal | None,
    nodes: Sequence[str] = (),
    rank_nodes: Sequence[str] = (),
) -> tuple[int, ...]:
    """The root cause's rank, then the ranks of other non-victim signals of its category and of
    any signal on its culprit nodes (named, or the node the rank ran on), in log order."""
    if root is None:
        return ()
    ranks: list[int] = []
    for signal in (root, *signals):
        on = signal.nodes
        if not on and signal.rank is not None and signal.rank < len(rank_nodes):
            on = (rank_nodes[signal.rank],)
        on_culprit = any(n in nodes for n in on)  # srun's task exit there names the rank
        related = on_culprit or (signal.category == root.category and not signal.victim)
        if signal is not root and not related:
            continue
        if signal.rank is not None and signal.rank not in ranks:
            ranks.append(signal.rank)
    return tuple(ranks)


def _problems(r: CheckReport, name: str) -> list[Problem]:
    problems: list[Problem] = []
    m = _NAME.match(name)
    if m is not None:
        r.job_id = int(m["job"])
    else:
        why = "it is not {job name}_{job id}_date_%y-%m-%d_time_%H-%M-%S.log"
        problems.append(
            Problem(
                "file_name",
                f"ajr cannot find this log for a job: {name!r}: {why}",
                "in the batch script: DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'` and "
                'srun -l -u --output="${SLURM_JOB_NAME}_${SLURM_JOB_ID}_${DATETIME}.log" ...',
            )
        )
    if r.nonempty and r.timestamped < _MIN_TIMESTAMPED * r.nonempty:
        problems.append(
            Problem(
                "timestamps",
                f"{r.nonempty - r.timestamped} of {r.nonempty} non-empty lines have no timestamp"
                " (looked for YYYY-MM-DD HH:MM:SS or 'Mon DD HH:MM:SS' near the line start)",
                "start every log line with its time, e.g. Python logging "
                "format='[%(asctime)s] %(message)s', or pipe the program's output through "
                "`ts '[%Y-%m-%d %H:%M:%S]'` (moreutils) inside srun",
            )
        )
    if r.nonempty and r.ranked < _MIN_RANKED * r.nonempty:
        problems.append(
            Problem(
                "rank_prefixes",
                f"{r.nonempty - r.ranked} of {r.nonempty} non-empty lines have no rank prefix",
                "launch with `srun -l -u ...` (-l labels each line with its task number, -u "
                "stops buffering); torchrun's '[rankN]:' prefixes are read too",
            )
        )
    if r.timestamped < 2:
        problems.append(
            Problem(
                "line_cadence",
                "cannot tell how often lines are written: fewer than 2 timestamped lines",
                "add timestamps (see above) and log at least one line every 2 minutes",
            )
        )
    elif r.largest_gap_s is not None and r.largest_gap_s > r.hang_timeout_s:
        before, after = r.gap_lines or (0, 0)
        problems.append(
            Problem(
                "line_cadence",
                f"no line for {r.largest_gap_s:.0f}s (between lines {before} and {after}); "
                f"in training ajr calls {r.hang_timeout_s:.0f}s of silence a hang (less when "
                "iterations are fast: 5 iteration intervals, at least half the timeout)",
                "log at least one line every 2 minutes: a progress line per iteration (Megatron "
                "--log-interval small enough), or a heartbeat during long evaluations and saves",
            )
        )
    if not r.tflops:
        problems.append(
            Problem(
                "tflops",
                "no throughput line with 'TFLOP' and a number: ajr cannot see slowdowns "
                "(stragglers)",
                "log throughput with each iteration, e.g. Megatron's --log-throughput: "
                "'... | throughput per GPU (TFLOP/s/GPU): 386.7 | ...'",
            )
        )
    if not r.checkpoint_saves:
        problems.append(
            Problem(
                "checkpoints",
                "no checkpoint save recognised: ajr cannot tell a requeue loop that makes "
                "progress from one that does not",
                "after each save print e.g. 'successfully saved checkpoint at iteration N' "
                "(Megatron), 'SAVE_CHECKPOINT: iteration: N, ckpt saving takes S seconds' or "
                "'Saved checkpoint to PATH'; or give ajr your line as a regex in "
                "AJR_EXTRA_CHECKPOINT_PATTERNS (try it here with --checkpoint-pattern)",
            )
        )
    return problems
