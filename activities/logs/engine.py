"""`LogEngine`: the log-intelligence analyzer behind the `LogAnalyzer` protocol.

On top of the detectors it adds what needs memory across lines:

Crash confirmation. Unambiguous signals (Slurm cancel lines, srun task exits, segfaults, fatal
Xids, sticky CUDA errors, the NCCL watchdog) return a finding from `feed` at once. Others (a
Python exception, CUDA OOM, NCCL/IB errors, storage errors, host OOM kills) may be survivable:
the engine holds them as pending and reports them only if training does not go on. "Goes on"
means `confirm_progress` new progress reports with a higher iteration (one report may be a
line that was already on its way when the error was printed). Since `feed` sees one line at a
time, the pending finding is returned by the first `feed` or `silence` call made at least
`crash_confirm_s` after the signal (the watcher calls `silence` on every poll). An immediate
signal arriving meanwhile is reported together with the pending ones, and attribution picks
the first cause.

Phase-aware hang allowance (NVRx's section timeouts, seed 004, in log terms):
- setup (no progress report yet): silence is a hang only once `setup_timeout_s` have passed
  since the first line, and never before `hang_timeout_s` of silence;
- checkpointing (a save started, not yet finished): the same with `checkpoint_timeout_s`
  counted from the start of the save;
- training with a known cadence: max(floor, cadence_factor x the longest recent interval
  between progress reports), capped at `hang_timeout_s`; without a cadence: `hang_timeout_s`.

Settings come from `AnalyzerContext.extra` (strings): setup_timeout_s (900),
checkpoint_timeout_s (600), hang_floor_s (hang_timeout_s / 2), cadence_factor (5),
crash_confirm_s (30), confirm_progress (2), nan_reports (3), straggler_score (0.7).
"""

from __future__ import annotations

import math
from collections import deque

from activities.logs.analyzer import AnalyzerContext, Finding
from activities.logs.attribution import Attribution, attribute
from activities.logs.detectors import (
    APPLICATION,
    CheckpointMatcher,
    NodeNames,
    Progress,
    Signal,
    Traceback,
    detect_crash,
    may_matter,
    parse_progress,
    parse_straggler,
)
from activities.logs.lines import parse_timestamp, split_prefix
from models.recovery import Observed

_MAX_SIGNALS = 64  # per attempt: enough for attribution, bounded for very noisy failures
_CADENCE_WINDOW = 32
_RECENT_SAVES = 64


def _setting(context: AnalyzerContext, key: str, default: float) -> float:
    raw = context.extra.get(key)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= 0 else default


class LogEngine:
    def __init__(self, context: AnalyzerContext) -> None:
        self._context = context
        hang = context.hang_timeout_s
        self._hang = hang
        self._setup_s = _setting(context, "setup_timeout_s", 900.0)
        self._ckpt_s = _setting(context, "checkpoint_timeout_s", 600.0)
        self._floor_s = _setting(context, "hang_floor_s", hang / 2)
        self._factor = _setting(context, "cadence_factor", 5.0)
        self._confirm_s = _setting(context, "crash_confirm_s", 30.0)
        self._confirm_reports = max(1, int(_setting(context, "confirm_progress", 2)))
        self._nan_reports = max(1, int(_setting(context, "nan_reports", 3)))
        # NVRx's default gpu_relative/individual_perf_threshold (seed 004).
        self._straggler_score = _setting(context, "straggler_score", 0.7)

        self._names = NodeNames(context.job_nodes)
        self._ckpt = CheckpointMatcher(context.checkpoint_patterns)
        self._site_ckpt = self._ckpt.has_site_patterns
        self._tb = Traceback()

        self._first_line_at: float | None = None
        self._signals: list[Signal] = []  # unreported failure signals, in log order
        self._pending_since: float | None = None
        self._pending_iteration: int | None = None
        self._reports_since_pending = 0
        self._survived: deque[Signal] = deque(maxlen=16)

        self._iteration: int | None = None
        self._progress_reports = 0
        self._last_progress_at: float | None = None
        self._intervals: deque[float] = deque(maxlen=_CADENCE_WINDOW)
        self._nan_streak = 0

        self._checkpoints = 0
        self._saved_iterations: deque[int] = deque(maxlen=_RECENT_SAVES)
        self._last_save_report = -2
        self._saving_since: float | None = None

        self._crashed = False  # a CRASH was reported: later signals are its aftermath
        self._rank_nodes: dict[int, str] = {}
        self._stragglers: dict[int, str | None] = {}
        self.last_attribution: Attribution | None = None

    # --- the LogAnalyzer protocol ---------------------------------------------------------

    @property
    def checkpoints(self) -> int:
        return self._checkpoints

    def feed(self, line: str, at: float) -> Finding | None:
        if self._first_line_at is None:
            self._first_line_at = at
        if self._tb.active or self._site_ckpt or may_matter(line):
            signal = self._process(line, at)
            if signal is not None:
                if len(self._signals) < _MAX_SIGNALS:
                    self._signals.append(signal)
                if self._crashed:
                    # The attempt is already reported dead: what follows (tasks killed, other
                    # ranks' errors) is its aftermath, kept for attribution, not a new crash.
                    return None
                if signal.immediate:
                    return self._report(Observed.CRASH)
                if self._pending_since is None:
                    self._pending_since = at
                    self._pending_iteration = self._iteration
                    self._reports_since_pending = 0
        if self._pending_since is None:  # the common case, without a call
            return None
        return self._confirmed(at)

    def silence(self, silent_for: float, at: float) -> Finding | None:
        confirmed = self._confirmed(at)
        if confirmed is not None:
            return confirmed
        allowance = self.hang_allowance(at - silent_for)
        if silent_for < allowance:
            return None
        where = f"after iteration {self._iteration}" if self._iteration is not None else ""
        return Finding(
            Observed.HANG,
            f"no new log line for {silent_for:.0f}s in phase {self.phase}"
            f" (allowance {allowance:.0f}s){' ' + where if where else ''}",
            evidence=tuple(s.line for s in self._signals[:4]),
            category="UNKNOWN",
        )

    # --- state the watcher or attribution may read ----------------------------------------

    @property
    def phase(self) -> str:
        if self._saving_since is not None:
            return "checkpointing"
        return "training" if self._progress_reports else "setup"

    @property
    def iteration(self) -> int | None:
        return self._iteration

    @property
    def cadence_s(self) -> float | None:
        """The longest recent interval between progress reports, once two have been seen."""
        return max(self._intervals) if self._intervals else None

    @property
    def pending(self) -> tuple[Signal, ...]:
        """Failure signals not yet reported as a crash (e.g. to explain an exit)."""
        return () if self._crashed else tuple(self._signals)

    @property
    def signals(self) -> tuple[Signal, ...]:
        """Every failure signal kept for this attempt (bounded), reported or not."""
        return tuple(self._signals)

    def attribution(self) -> Attribution | None:
        """The cause as the signals seen so far tell it, e.g. once the attempt has exited."""
        return attribute(self._signals)

    @property
    def stragglers(self) -> dict[int, str | None]:
        """Ranks NVRx reported as stragglers, with their node when a score row named it."""
        return dict(self._stragglers)

    def hang_allowance(self, last_line_at: float) -> float:
        """Seconds of silence after `last_line_at` that make a hang in the current phase."""
        if self._saving_since is not None:
            return max(self._hang, self._ckpt_s - (last_line_at - self._saving_since))
        if not self._progress_reports:
            start = self._first_line_at if self._first_line_at is not None else last_line_at
            return max(self._hang, self._setup_s - (last_line_at - start))
        cadence = self.cadence_s
        if cadence is None:
            return self._hang
        return min(self._hang, max(self._floor_s, self._factor * cadence))

    # --- internals --------------------------------------------------------------------------

    def _process(self, line: str, at: float) -> Signal | None:
        signal = self._tb.feed(line, self._names)
        if signal is not None or self._tb.consumed:
            return signal
        progress = parse_progress(line)
        if progress is not None:
            return self._on_progress(progress, line, at)
        event = self._ckpt.match(line)
        if event is not None:
            if not event.saved:
                self._saving_since = at
            else:
                self._on_saved(event.iteration, at)
            return None
        if "Rank=" in line or "STRAGGLER" in line:
            self._on_straggler(line)
            return None
        return detect_crash(line, self._names)

    def _on_progress(self, progress: Progress, line: str, at: float) -> Signal | None:
        previous = self._iteration
        if (
            progress.iteration is not None
            and previous is not None
            and progress.iteration <= previous
        ):
            return self._nan_check(progress, line)  # a repeated or other rank's report
        self._saving_since = None  # a step after a save start: the save is over
        # The interval since the previous report: Megatron states it (time per iteration x
        # iterations); else the line's own timestamp; else the arrival time, which a batch of
        # lines read together shares (a zero interval is no information and is skipped).
        if progress.elapsed_ms is not None and progress.iteration is not None:
            if previous is not None:
                self._intervals.append(progress.elapsed_ms / 1000 * (progress.iteration - previous))
        else:
            stamped = parse_timestamp(line)  # looks near the start: a rank prefix is no bother
            when = stamped if stamped is not None else at
            if self._last_progress_at is not None and when > self._last_progress_at:
                self._intervals.append(when - self._last_progress_at)
            self._last_progress_at = when
        if progress.iteration is not None:
            self._iteration = progress.iteration
        self._progress_reports += 1
        if self._pending_since is not None:
            advanced = (
                progress.iteration is None
                or self._pending_iteration is None
                or progress.iteration > self._pending_iteration
            )
            if advanced:
                self._reports_since_pending += 1
            if self._reports_since_pending >= self._confirm_reports:
                self._survived.extend(self._signals)  # training went on: not fatal
                self._signals.clear()
                self._pending_since = None
        return self._nan_check(progress, line)

    def _nan_check(self, progress: Progress, line: str) -> Signal | None:
        bad = (progress.loss is not None and not math.isfinite(progress.loss)) or bool(
            progress.nan_iterations
        )
        if not bad:
            if progress.loss is not None or progress.nan_iterations is not None:
                self._nan_streak = 0
            return None
        self._nan_streak += 1
        if self._nan_streak < self._nan_reports:
            return None
        rank, _, _ = split_prefix(line)
        return Signal(
            "nan_loss",
            APPLICATION,
            f"loss is NaN/inf in {self._nan_streak} consecutive progress reports",
            line,
            True,
            (),
            rank,
        )

    def _on_saved(self, iteration: int | None, at: float) -> None:
        self._saving_since = None
        if iteration is None:
            # A line without its iteration (Megatron's "save-checkpoint" timer row, "Saved
            # checkpoint to") usually reports a save already counted by its own success line:
            # count it only if no save was counted within the last progress report.
            if self._progress_reports - self._last_save_report <= 1:
                return
        elif iteration in self._saved_iterations:
            return
        else:
            self._saved_iterations.append(iteration)
        self._checkpoints += 1
        self._last_save_report = self._progress_reports

    def _on_straggler(self, line: str) -> None:
        report = parse_straggler(line)
        if report is None:
            return
        if report.rank_node is not None:
            rank, node, score = report.rank_node
            if len(self._rank_nodes) < 65536:
                self._rank_nodes[rank] = node
            if rank in self._stragglers or score < self._straggler_score:
                self._stragglers[rank] = node
        for rank in report.ranks:
            self._stragglers[rank] = self._rank_nodes.get(rank)

    def _confirmed(self, at: float) -> Finding | None:
        if self._pending_since is None or at - self._pending_since < self._confirm_s:
            return None
        if self._crashed:
            self._pending_since = None
            return None
        return self._report(Observed.CRASH)

    def _report(self, kind: Observed) -> Finding | None:
        result = attribute(self._signals)
        self._pending_since = None
        if result is None:
            return None
        self._crashed = True
        self.last_attribution = result
        return Finding(
            kind,
            result.summary,
            evidence=result.evidence,
            culprit_nodes=result.culprit_nodes,
            category=result.category,
            requeue_warranted=result.requeue,
        )
