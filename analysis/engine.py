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
the first cause. An immediate signal that is only a victim (srun's "task 0: Exited with exit
code 8") before any cause waits until time moves on (a later line's time, the next `silence`
poll, the attempt's end): the cause printed with it, just after it, is then part of the report.

Phase-aware hang allowance (NVRx's section timeouts, seed 004, in log terms). A silence is
never a hang before `hang_timeout_s` (the documented "one line every two minutes"), in any phase:
- setup (no progress report yet): a hang only once `setup_timeout_s` have passed since the
  first line, and, for a job whose progress lines ajr does not recognise, not before
  cadence_factor x the longest silence it has already come back from (at most
  `setup_timeout_s`): a job that prints once per ten-minute epoch is slow, not hung;
- checkpointing (any save-start form: Megatron's, plain "saving checkpoint", HF/DeepSpeed/
  torchtitan wording, telemetry spans, site start patterns): `checkpoint_timeout_s` from the start
  of the save; evaluating ("Running Evaluation", "Validating", ...): `eval_timeout_s`; loading
  (datasets built or loaded mid-run): `setup_timeout_s`. Each ends at the next progress report;
- training: `hang_timeout_s`, or more for a job whose own iteration cadence is slower
  (cadence_factor x the longest recent interval between progress reports, at most
  `setup_timeout_s`). After the first report, before a second gives a cadence, the start's
  rhythm (cadence_factor x its longest silence) still counts: a job that reports every ten
  steps may print minutes apart.

Every knob is a field of `analysis.settings.EngineSettings` (`AnalyzerContext.settings`).

State that matters across a worker restart (pending failure signals, phase, cadence, the
throughput baseline) is exported by `export_state` into the watcher's heartbeated cursor and
restored by `restore_state`, so a resumed watch neither loses a crash waiting for its
confirmation nor falls back to the start-up allowance.

Stragglers (activities/logs/throughput.py): a persistent drop of the reported TFLOP throughput
below the job's own baseline, or an NVRx straggler warning (whose ranks are matched to nodes by
the score rows that follow it), is returned once as a STRAGGLER finding: slow, not dead. Only
progress and NVRx lines reach this code, so it costs nothing on other lines.

Training telemetry library records (activities/logs/telemetry.py) are read as what they are:
iteration events as progress (with their tflops), checkpoint_save spans as saves, error records
as the exception they carry; an error that reached the training loop or main function span ends
training and is reported at once.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

from analysis import telemetry
from analysis.analyzer import AnalyzerContext, Finding, Milestones
from analysis.attribution import Attribution, attribute
from analysis.checkpoints import TRAINING_DONE, CheckpointEvent, CheckpointMatcher, Kind
from analysis.detectors import (
    APPLICATION,
    EVALUATING,
    GPU,
    LOADING,
    NodeNames,
    Progress,
    Signal,
    Traceback,
    csv_header,
    csv_progress,
    detect_crash,
    exception_signal,
    may_matter,
    missed_heartbeat,
    next_candidate,
    parse_progress,
    phase_marker,
    table_header,
)
from analysis.finish import FinishWatch, is_launch
from analysis.layout import block_layout
from analysis.lines import parse_timestamp, split_prefix, stop_time, zone_shift
from analysis.rank_balance import Imbalance, RankBalance, RankTable, line_work
from analysis.restarter import mentions_in_job_restarter
from analysis.signals import quiet_nccl_info, write_denied
from analysis.throughput import (
    BarRate,
    ThroughputMonitor,
    ThroughputSettings,
    parse_nvrx,
    stated_step_seconds,
)
from models.categories import Category
from models.recovery import Observed

_MAX_SIGNALS = 64  # per attempt: enough for attribution, bounded for very noisy failures
STATE_VERSION = 3
_STATE_SIGNALS = 8  # signals carried across a worker restart (bounded heartbeat size)
_STATE_LINE_CHARS = 1000
_CADENCE_WINDOW = 32
_RECENT_SAVES = 64
# Failures of a command before the training program started, which a checkpoint load after them
# shows the job went past.
_WENT_PAST = frozenset({"bad_arguments", "cannot_run"})
# Saves measured before a save's own pace bounds the wait for the next one, and how many times
# the cadence factor the slowest of them may take.
_SAVES_MEASURED = 1
_SAVE_FACTOR = 4.0
_SAME_LOAD_S = 60.0  # loads of one step this close together: every rank printing the same load


# A silence is an excerpt's cut when training got at least this near its own pace across it.
_CUT_PACE = 2.0
# Gaps shorter than this are never asked whether they are a cut (one line parsed each): no hang
# is that short, and asking of every line would cost a file reader's fast path.
_CUT_CHECK_S = 10.0
# A progress bar's redraws feed the throughput baseline once per this many steps.
_REDRAW_RATE_EVERY = 10


# NCCL's INFO lines once its transport is up: the network it chose, a communicator ready.
_NCCL_WENT_ON = re.compile(r"NCCL INFO (?:NET/\w+ ?: Using \[|Using network \w|.*\bInit COMPLETE)")
# A rank's NCCL heartbeat monitor finding the job's TCPStore gone: "Failed to check the "should
# dump" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: ...".
_STORE_HOST_GONE = "TCPStore server has shut down too early"
# torch elastic's agent (and NVRx's ft_launcher) restarting its workers in place: "[default]
# Worker group FAILED. 3/3 attempts left; will restart worker group" (at INFO: older torch
# releases printed it by default, newer ones with LOGLEVEL=INFO; ft_launcher prints it).
_RELAUNCH = re.compile(r"Worker group \w+\. \d+/\d+ attempts left; will restart worker group")
# The phase from such a restart to the relaunch's first report: rendezvous, start-up, a load.
RELAUNCHING = "relaunching"
_NCCL_TRANSPORT_WARNINGS = frozenset({"transport_error", "nccl_ib_completion_error"})


class LogEngine:
    def __init__(self, context: AnalyzerContext) -> None:
        self._context = context
        settings = context.settings
        self._hang = settings.hang_timeout_s
        self._setup_s = settings.setup_timeout_s
        self._layout = block_layout(context.job_nodes, context.job_tasks)
        self._ckpt_s = settings.checkpoint_timeout_s
        self._eval_s = settings.eval_timeout_s
        self._factor = settings.cadence_factor
        self._confirm_s = settings.crash_confirm_s
        self._confirm_reports = settings.confirm_progress
        self._stop_grace = settings.stop_grace_s
        self._nan_reports = settings.nan_reports
        # NVRx's default gpu_relative/individual_perf_threshold (seed 004).
        self._straggler_score = settings.straggler_score

        self._names = NodeNames(context.job_nodes)
        self._ckpt = CheckpointMatcher(
            settings.checkpoint_patterns, settings.checkpoint_start_patterns
        )
        self._site_ckpt = self._ckpt.has_site_patterns
        self._tb = Traceback()

        self._first_line_at: float | None = None
        # Before the first recognised progress report: when the last line came, and the longest
        # silence the job has come back from (its own rhythm, for jobs whose progress lines
        # ajr does not know).
        self._last_line_at: float | None = None
        self._longest_quiet = 0.0
        self._signals: list[Signal] = []  # unreported failure signals, in log order
        self._pending_since: float | None = None
        self._pending_fatal = False  # a pending signal is fatal (not only a warning)
        self._pending_iteration: int | None = None
        self._reports_since_pending = 0
        self._pending_prestart = False  # the pending signals came before any progress report
        # A stop from outside (SIGTERM, preemption) that training went on after, and when it
        # came: the job spends its grace period saving, then ends of it (see final_finding).
        self._stopped: tuple[Signal, float] | None = None

        self._iteration: int | None = None
        self._progress_reports = 0
        self._last_progress_at: float | None = None
        self._report_line: str | None = None  # the latest progress report, any form
        self._step_s: float | None = None  # seconds per iteration: the last two reports', or stated
        self._intervals: deque[float] = deque(maxlen=_CADENCE_WINDOW)
        self._nan_streak = 0

        self._checkpoints = 0
        self._saved_iterations: deque[int] = deque(maxlen=_RECENT_SAVES)
        self._last_save_report = -2
        self._saving_since: float | None = None
        # A save that began and has not been seen to end: (step, since, ends when training
        # goes on). Still open when the attempt dies, it was interrupted: no checkpoint.
        self._open_save: tuple[int | None, float, bool] | None = None
        # A save begun after the final iteration was cut off: the end is not safe (the final
        # checkpoint is lost), whatever closes the save's record.
        self._final_save_cut = False
        self._interrupted_saves = 0
        self.saves: deque[tuple[int | None, float]] = deque(maxlen=_RECENT_SAVES)  # (step, at)
        # The same saves with how long each took, for the records (not carried in the state:
        # the watcher keeps what it has recorded in its cursor).
        self.save_spans: deque[tuple[int | None, float, float | None]] = deque(maxlen=_RECENT_SAVES)
        self.loads: deque[tuple[int | None, float]] = deque(maxlen=16)  # (step, at)
        # Loads begun, ended or not (a reader of a whole file tells attempts apart by them; not
        # carried in the state: the watcher reads each attempt's own log).
        self.loads_begun = 0
        self._first_progress_at: float | None = None
        self._first_progress_after_load: float | None = None
        # Another phase where silence is normal (EVALUATING, LOADING, RELAUNCHING) and when it
        # began.
        self._other_phase: tuple[str, float] | None = None

        self._crashed = False  # a CRASH was reported: later signals are its aftermath
        # An immediate signal that is only a victim (srun's "task 0: Exited with exit code 8",
        # torchrun's summary), before any cause: its cause may be printed with it, just after
        # it (slurmstepd's own error, another rank's interleaved output). Reported once time
        # moves on (the next poll, the next stamped line, the attempt's end), with what came.
        # Connections a peer reset or closed before it are no cause either: they say a peer
        # went away, and why (Slurm's "Node failure on n3") may come with the victim. Nor is an
        # abort: its cause is another line (torchrun's summary copies the worker's traceback);
        # nor a SIGKILL (slurmstepd's "Detected 1 oom-kill event(s)" says who, at the step's end).
        self._held_at: float | None = None
        # Done means done: when the log showed training reach its final iteration.
        self._finish = FinishWatch()
        self._finished_at: float | None = None
        self._signal_after_finish = False  # a failure signal came after training said it finished
        # c10d's last "could not resolve" warning: no cause by itself (c10d prints it for IPv6
        # lookups of healthy jobs too), it explains a store connect that then times out.
        self._unresolved: Signal | None = None
        self._restarter = False  # an in-job restarter (NVRx ft_launcher) runs the job
        # srun's own lines are in this log: it reports here how each task ended, so a step's
        # cancel with no such report and no other failure came from outside the job.
        self._srun_speaks = False
        self._relaunching = False  # its launcher restarts the workers after a failure
        self._hang_reported = False  # NVRx said a rank missed its heartbeat: reported once
        self._rank_nodes: dict[int, str] = {}
        self._stragglers: dict[int, str | None] = {}
        self._straggler_what = ""  # the first NVRx warning's reason
        self._straggler_lines: list[str] = []  # its evidence (bounded)
        self._straggler_waiting = False  # a warning named ranks whose nodes may follow
        self._straggler_reported = False  # STRAGGLER is reported once per attempt
        self._urgent: Finding | None = None  # a finding found while processing a line
        # Per-rank timings: a rank slow in its own work while the others wait (rank_balance.py).
        self._balance = RankBalance(settings.straggler_score, settings.straggler_rank_reports)
        self._table: RankTable | None = None  # a per-rank table being read
        self._csv: tuple[str, ...] | None = None  # the columns of a CSV metrics header
        self._table_lines: deque[str] = deque(maxlen=4)
        self._throughput_settings = ThroughputSettings(
            warmup=settings.throughput_warmup,
            window=settings.throughput_window,
            drop=settings.throughput_drop,
            sustained=settings.throughput_sustained,
            deep_drop=settings.throughput_deep_drop,
            deep_sustained=settings.throughput_deep_sustained,
            deep_span_s=settings.throughput_deep_span_s,
            quiet=settings.throughput_quiet,
        )
        # One baseline per throughput metric the job reports (TFLOP/s, tokens/s, samples/s,
        # it/s, MFU, time per step): a drop in any of them is a straggler.
        self._monitors: dict[str, ThroughputMonitor] = {}
        self._rated: dict[str, int] = {}  # metric -> the step whose reading was taken last
        self._bars: dict[int | None, BarRate] = {}  # rank -> its tqdm bar's speed
        self._rate_lines: deque[str] = deque(maxlen=4)
        self._telemetry_error: tuple[str, str] | None = None
        self.last_attribution: Attribution | None = None
        self.last_progress: Progress | None = None  # the report on the line `feed` just read

    # --- the LogAnalyzer protocol ---------------------------------------------------------

    @property
    def checkpoints(self) -> int:
        return self._checkpoints

    @property
    def rank_nodes(self) -> tuple[str, ...]:
        """The node each rank ran on (block distribution), when the job's layout is known."""
        return tuple(self._layout)

    @property
    def first_progress_at(self) -> float | None:
        """When this attempt's first training step report came (restart proven: work goes on)."""
        return self._first_progress_after_load or self._first_progress_at

    @property
    def interrupted_saves(self) -> int:
        """Saves that began and never ended (one still open counts: the attempt is over)."""
        return self._interrupted_saves + (1 if self._open_save is not None else 0)

    def milestones(self) -> Milestones:
        load = self.loads[-1] if self.loads else (None, None)
        save = self.saves[-1] if self.saves else (None, None)
        return Milestones(
            first_step_at=self.first_progress_at,
            loaded_step=load[0],
            loaded_at=load[1],
            last_save_step=save[0],
            last_save_at=save[1],
            interrupted_saves=self.interrupted_saves,
            saves=tuple(self.save_spans),
            # A save begun after the last step and never finished: the end is not safe yet.
            training_done_at=(
                self._finished_at if self._open_save is None and not self._final_save_cut else None
            ),
            in_job_restarter=self._restarter,
        )

    def feed(self, line: str, at: float, *, matters: bool = False) -> Finding | None:
        """One line, written at `at`. `matters`: the caller knows `may_matter(line)` is True (the
        prefilter found it), so it is not asked again."""
        held = self._release_held(at)
        found = self._feed(line, at, matters)
        return held if held is not None else found

    def _release_held(self, at: float) -> Finding | None:
        """The held victim's report, once time has moved on past it."""
        if self._held_at is None or at <= self._held_at:
            return None
        return self._report(Observed.CRASH)

    def _feed(self, line: str, at: float, matters: bool) -> Finding | None:
        self.last_progress = None
        if self._first_line_at is None:
            self._first_line_at = at
        if not self._progress_reports:
            self._note_quiet(at)
        if (
            matters
            or self._tb.active
            or self._site_ckpt
            or self._table is not None
            or may_matter(line)
        ):
            signal = self._process(line, at)
            if signal is not None and signal.name == "name_unresolved":
                self._unresolved, signal = signal, None
            if signal is not None and self._finished_at is not None and _teardown(signal):
                signal = None
            if signal is not None and self._checkpoints and write_denied(signal):
                # The job had saved checkpoints, and now the file system refuses it a write: its
                # permissions changed under the running job (a directory made immutable or
                # chowned, a read-only remount), not the code's doing.
                signal = replace(signal, name="storage_denied", category=Category.STORAGE,
                                 requeue=True)  # fmt: skip
            if self._urgent is not None and signal is None:  # rare: a straggler, a fatal error
                return self._take_urgent()
            if signal is not None:
                self._signal_after_finish = self._signal_after_finish or (
                    self._finished_at is not None
                )
                if len(self._signals) < _MAX_SIGNALS:
                    self._signals.append(signal)
                if self._crashed:
                    # The attempt is already reported dead: what follows (tasks killed, other
                    # ranks' errors) is its aftermath, kept for attribution, not a new crash.
                    return None
                if signal.hang:
                    if self._held_at is not None:
                        return self._report(Observed.CRASH)  # the held victim came first
                    return self._report_hang(signal)
                # A step that could not start its program, before training reported anything,
                # may be a probe the batch script runs first (`srun nvidia-smi`): the job may go
                # on. srun's exit of its tasks then waits like a warning: training going on
                # clears it, the attempt's end (or the start-up allowance) makes it a crash.
                if signal.outside_stop and signal.immediate:
                    hung = self._hung_when_stopped(signal, at)
                    if hung is not None:
                        return hung
                if signal.immediate and not (
                    signal.victim and not self._progress_reports and self._only_failed_steps()
                ):
                    if signal.victim and all(
                        s.victim or s.peer_lost or s.cause_elsewhere or s.name == "killed"
                        for s in self._signals
                    ):
                        if self._held_at is None:
                            self._held_at = at
                        return None
                    return self._report(Observed.CRASH)
                if self._pending_since is None:
                    self._pending_since = at
                    self._pending_iteration = self._iteration
                    self._reports_since_pending = 0
                    self._pending_prestart = not self._progress_reports
                self._pending_fatal = self._pending_fatal or signal.fatal
        if self._pending_since is None:  # the common case, without a call
            return None
        return self._confirmed(at)

    def feed_lines(self, lines: Sequence[str], at: float) -> list[Finding]:
        """`feed` each line in order; return the findings, in order. The fast path for batches."""
        return self.feed_block("\n".join(lines), at) if lines else []

    def feed_block(self, block: str, at: float) -> list[Finding]:
        """`feed` each line of `block` (one line at least, joined by "\\n"); the findings.

        Exactly `feed` per line (tests/unit/test_engine_blocks.py checks it), but the lines
        `may_matter` rejects are skipped by one RE2 search over the block instead of a Python
        call each, while `_idle` says `feed` would do nothing with them. All findings come back
        (a STRAGGLER may precede a CRASH in one block); most blocks have none.
        """
        data = block.encode("utf-8", "surrogatepass")
        ascii_only = len(data) == len(block)  # then byte offsets are str offsets
        if self._first_line_at is None:
            self._first_line_at = at
        if not self._progress_reports:
            self._note_quiet(at)
        findings: list[Finding] = []
        held = self._release_held(at)  # every line of a block has one time
        if held is not None:
            findings.append(held)
        pos, end = 0, len(data)
        while pos <= end:
            matters = self._idle(at)
            if matters:  # skip to the next line the prefilter accepts
                pos = next_candidate(data, pos)
                if pos < 0:
                    break
            stop = data.find(b"\n", pos)
            if stop < 0:
                stop = end
            if ascii_only:
                line = block[pos:stop]
            else:
                line = data[pos:stop].decode("utf-8", "surrogatepass")
            finding = self._feed(line, at, matters)
            if finding is not None:
                findings.append(finding)
            pos = stop + 1
        return findings

    def _note_quiet(self, at: float) -> None:
        """Before training reports progress: the longest silence the job came back from."""
        if self._last_line_at is not None and at - self._last_line_at > self._longest_quiet:
            self._longest_quiet = at - self._last_line_at
        self._last_line_at = at

    def no_silence_until(self, at: float) -> None:
        """The time up to `at` was no silence (an excerpt's cut, training that went on at its
        pace across a gap): nor is it a quiet the job came back from before it reported
        progress, which would stretch the start's rhythm. The watcher of a whole log never sees
        such a gap; `check-log` reading an excerpt tells the engine of each.

        A failure signal pending (or a victim's report held) since before the gap came at some
        time within it, the log cannot say when: its window starts at `at`, as the watcher,
        reading lines as they are written, would have timed it (lines without a time that
        report progress up to a rank's error are, most often, written just before it)."""
        if self._last_line_at is not None and at > self._last_line_at:
            self._last_line_at = at
        if self._pending_since is not None and at > self._pending_since:
            self._pending_since = at
        if self._held_at is not None and at > self._held_at:
            self._held_at = at

    @property
    def has_progress(self) -> bool:
        """Whether training has reported progress in this attempt (the setup phase is over)."""
        return self._progress_reports > 0

    @property
    def reads_every_line(self) -> bool:
        """Whether `feed` must see every line now, not only those `may_matter` accepts: inside a
        traceback, with site checkpoint patterns, or while a failure signal is pending."""
        return (
            self._tb.active
            or self._site_ckpt
            or self._table is not None
            or self._pending_since is not None
        )

    def _idle(self, at: float) -> bool:
        """True when `feed(line, at)` does nothing for a line `may_matter` rejects."""
        # Mirrors `feed`: such a line is processed only inside a traceback or with site
        # checkpoint patterns, and otherwise only reaches `_confirmed`, which acts once a
        # pending signal is `_confirm_window()` old. Keep the two in step.
        return (
            not self._tb.active
            and not self._site_ckpt
            and self._table is None
            and (
                self._pending_since is None
                or not self._pending_fatal
                or at - self._pending_since < self._confirm_window()
            )
        )

    def silence(self, silent_for: float, at: float) -> Finding | None:
        held = self._release_held(at)
        if held is not None:
            return held
        if self._straggler_waiting:  # no score rows followed the warning: report what it named
            self._resolve_straggler()
        if self._urgent is not None:
            return self._take_urgent()
        confirmed = self._confirmed(at)
        if confirmed is not None:
            return confirmed
        allowance = self.hang_allowance(at - silent_for)
        if silent_for < allowance:
            return None
        where = f"after iteration {self._iteration}" if self._iteration is not None else ""
        summary = (
            f"no new log line for {silent_for:.0f}s in phase {self.phase}"
            f" (allowance {allowance:.0f}s){' ' + where if where else ''}"
        )
        # Warnings the job printed before it fell silent (a NCCL transport error, a GPU that
        # stopped answering) are what it hangs on.
        cause = None
        if self._pending_since is not None:
            cause = self._attribute(self.pending)
        if cause is not None:
            self._crashed = True
            self._pending_since = None
            return Finding(
                Observed.HANG,
                f"{summary}, after: {cause.summary}",
                evidence=cause.evidence,
                culprit_nodes=cause.culprit_nodes,
                category=cause.category,
                requeue_warranted=True,
                confidence=cause.confidence,
            )
        return Finding(
            Observed.HANG,
            summary,
            evidence=tuple(s.line for s in self._signals[:4]),
            category=Category.UNKNOWN,
            requeue_warranted=True,
        )

    def final_finding(self) -> Finding | None:
        """The attempt has ended: the failure signals training never got past, as a CRASH;
        or the stop from outside that training went on after for its grace period."""
        signals = self._signals
        if self._stopped is not None and self._stopped[0] not in signals:
            signals = [self._stopped[0], *signals]
        if self._crashed or not signals:
            return None
        if self._finished_at is not None and not self._signal_after_finish:
            # The program said training finished after its last failure signal: it got past them
            # (a save that failed and was written elsewhere, a warning it retried).
            return None
        result = self._attribute(signals)
        if result is None:
            return None
        self.last_attribution = result
        return Finding(
            Observed.CRASH,
            result.summary,
            evidence=result.evidence,
            culprit_nodes=result.culprit_nodes,
            category=result.category,
            requeue_warranted=result.requeue,
            confidence=result.confidence,
        )

    # --- state the watcher or attribution may read ----------------------------------------

    @property
    def progress_reports(self) -> int:
        """How many progress reports training has made in this attempt."""
        return self._progress_reports

    @property
    def phase(self) -> str:
        if self._saving_since is not None:
            return "checkpointing"
        if self._other_phase is not None:
            return self._other_phase[0]
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
        return self._attribute(self._signals)

    def _attribute(self, signals: Sequence[Signal]) -> Attribution | None:
        """`signals`' cause, with what the engine knows of the job: its ranks' nodes, its
        nodes, whether srun writes to this log."""
        return attribute(signals, self._layout, self._context.job_nodes, self._srun_speaks)

    @property
    def stragglers(self) -> dict[int, str | None]:
        """Ranks NVRx reported as stragglers, with their node when a score row named it."""
        return dict(self._stragglers)

    def gap_is_no_silence(self, text: str, gap: float, at: float, reports_then: int) -> bool:
        """For a reader of a whole file (`ajr check-log`, the corpus replay): whether the `gap`
        seconds between two stamped lines, the later one `text` stamped `at`, were not the job's
        silence: lines without a time reported progress in it (the engine had made
        `reports_then` reports by the earlier stamped line), or it is a cut (`gap_is_cut`), or
        training had finished and a launcher starts the program again: the time between one
        run's end and the next launch appending to the file is no run's silence."""
        return gap >= _CUT_CHECK_S and (
            self._progress_reports > reports_then
            or self.gap_is_cut(text, at)
            or (self._finished_at is not None and is_launch(text))
        )

    def gap_is_cut(self, text: str, at: float) -> bool:
        """Whether a silence that ends with the line `text`, stamped `at`, is lines an excerpt
        left out: the line reports training as far on as the job's own pace takes it in that
        time (a pasted log cut without a "..." mark). A job that stalled is no further on."""
        last, step_s = self._last_progress_at, self._step_s
        if last is None or step_s is None or self._iteration is None or self._crashed:
            return False
        progress = parse_progress(text)
        if progress is None or progress.iteration is None:
            return False
        steps = progress.iteration - self._iteration
        return steps > 0 and at - last <= _CUT_PACE * steps * step_s

    def hang_allowance(self, last_line_at: float) -> float:
        """Seconds of silence after `last_line_at` that make a hang in the current phase.

        Never less than the hang timeout: a silence-only hang has a documented minimum.
        """
        if self._saving_since is not None:
            budget = self._ckpt_s
            took = [span for _, _, span in self.save_spans if span is not None]
            if len(took) >= _SAVES_MEASURED:
                # This job's own saves so far: one that takes many times longer than the
                # slowest of them is stuck (the checkpoint allowance stays the ceiling).
                budget = min(budget, self._factor * _SAVE_FACTOR * max(took))
            return max(self._hang, budget - (last_line_at - self._saving_since))
        if self._other_phase is not None:
            which, since = self._other_phase
            budget = self._eval_s if which == EVALUATING else self._setup_s
            return max(self._hang, budget - (last_line_at - since))
        if not self._progress_reports:
            start = self._first_line_at if self._first_line_at is not None else last_line_at
            rhythm = min(self._setup_s, self._factor * self._longest_quiet)
            return max(self._hang, self._setup_s - (last_line_at - start), rhythm)
        cadence = self.cadence_s
        if cadence is None:
            # One report so far: how often the job reports is not known yet (torchtitan's every
            # 10 steps may be minutes apart). The start's own rhythm bounds the wait, as before it.
            rhythm = min(self._setup_s, self._factor * self._longest_quiet)
            return max(self._hang, rhythm)
        return max(self._hang, min(self._setup_s, self._factor * cadence))

    # --- state carried across a worker restart ---------------------------------------------

    def export_state(self) -> dict[str, Any]:
        """What a resumed watch needs to go on exactly where this one stands (small, JSON-able).

        The checkpoint count is not here: the watcher carries it in its cursor.
        """
        return {
            "v": STATE_VERSION,
            "first_line_at": self._first_line_at,
            "last_line_at": self._last_line_at,
            "longest_quiet": self._longest_quiet,
            "signals": [_signal_state(s) for s in self._signals[:_STATE_SIGNALS]],
            "pending_since": self._pending_since,
            "pending_iteration": self._pending_iteration,
            "reports_since_pending": self._reports_since_pending,
            "pending_prestart": self._pending_prestart,
            "iteration": self._iteration,
            "progress_reports": self._progress_reports,
            "last_progress_at": self._last_progress_at,
            "report_line": (self._report_line or "")[:_STATE_LINE_CHARS] or None,
            "intervals": list(self._intervals),
            "nan_streak": self._nan_streak,
            "saved_iterations": list(self._saved_iterations)[-8:],
            "last_save_report": self._last_save_report,
            "saving_since": self._saving_since,
            "open_save": list(self._open_save) if self._open_save else None,
            "interrupted_saves": self._interrupted_saves,
            "final_save_cut": self._final_save_cut,
            "saves": [list(x) for x in list(self.saves)[-8:]],
            "loads": [list(x) for x in self.loads],
            "first_progress_at": self._first_progress_at,
            "first_progress_after_load": self._first_progress_after_load,
            "other_phase": list(self._other_phase) if self._other_phase else None,
            "crashed": self._crashed,
            "held_at": self._held_at,
            "hang_reported": self._hang_reported,
            "straggler_reported": self._straggler_reported,
            "finished_at": self._finished_at,
            "signal_after_finish": self._signal_after_finish,
            "unresolved": _signal_state(self._unresolved) if self._unresolved else None,
            "stopped": (
                [_signal_state(self._stopped[0]), self._stopped[1]] if self._stopped else None
            ),
            "restarter": self._restarter,
            "srun_speaks": self._srun_speaks,
            "relaunching": self._relaunching,
            "csv": list(self._csv) if self._csv else None,
            "finish_telemetry_error": self._finish.telemetry_error,
            "balance": [self._balance.streak_rank, self._balance.streak, self._balance.confirmed],
            "throughput": {
                metric: {
                    "baseline": monitor.baseline,
                    "reports": monitor.reports,
                    "confirmed": monitor.confirmed,
                    "startup": list(monitor._startup),
                    "early": list(monitor._early),
                    "degraded": list(monitor._degraded),
                    "degraded_from": monitor.degraded_from,
                    "last_at": monitor.last_at,
                }
                for metric, monitor in self._monitors.items()
            },
        }

    def restore_state(self, state: Mapping[str, Any]) -> bool:
        """Take over an exported state; False (and nothing changed) if it cannot be read."""
        if not isinstance(state, Mapping) or state.get("v") != STATE_VERSION:
            return False
        try:
            signals = [_signal_from(raw) for raw in state.get("signals") or []]
            other = state.get("other_phase")
            other_phase = (str(other[0]), float(other[1])) if other else None
            monitors = {
                str(metric): _monitor_from(raw, self._throughput_settings)
                for metric, raw in (state.get("throughput") or {}).items()
            }
            first_line_at = _opt_float(state.get("first_line_at"))
            last_line_at = _opt_float(state.get("last_line_at"))
            longest_quiet = float(state.get("longest_quiet") or 0.0)
            pending_since = _opt_float(state.get("pending_since"))
            pending_iteration = _opt_int(state.get("pending_iteration"))
            reports_since_pending = int(state.get("reports_since_pending") or 0)
            iteration = _opt_int(state.get("iteration"))
            progress_reports = int(state.get("progress_reports") or 0)
            last_progress_at = _opt_float(state.get("last_progress_at"))
            report_line = state.get("report_line")
            intervals = [float(x) for x in state.get("intervals") or []]
            nan_streak = int(state.get("nan_streak") or 0)
            saved = [int(x) for x in state.get("saved_iterations") or []]
            last_save_report = int(state.get("last_save_report", -2))
            saving_since = _opt_float(state.get("saving_since"))
            raw_open = state.get("open_save")
            open_save = (
                (_opt_int(raw_open[0]), float(raw_open[1]), bool(raw_open[2])) if raw_open else None
            )
            saves = [(_opt_int(x[0]), float(x[1])) for x in state.get("saves") or []]
            loads = [(_opt_int(x[0]), float(x[1])) for x in state.get("loads") or []]
            first_progress = _opt_float(state.get("first_progress_at"))
            first_after_load = _opt_float(state.get("first_progress_after_load"))
            interrupted = int(state.get("interrupted_saves") or 0)
            finished_at = _opt_float(state.get("finished_at"))
            raw_unresolved = state.get("unresolved")
            unresolved = _signal_from(raw_unresolved) if raw_unresolved else None
            raw_stop = state.get("stopped")
            stopped = (_signal_from(raw_stop[0]), float(raw_stop[1])) if raw_stop else None
            finish = FinishWatch(bool(state.get("finish_telemetry_error")))
            csv = tuple(str(c) for c in state["csv"]) if state.get("csv") else None
        except (TypeError, ValueError, KeyError, IndexError):
            return False
        self._first_line_at = first_line_at
        self._last_line_at = last_line_at
        self._longest_quiet = longest_quiet
        self._signals = signals
        self._pending_since = pending_since
        self._pending_fatal = pending_since is not None and any(x.fatal for x in signals)
        self._pending_iteration = pending_iteration
        self._reports_since_pending = reports_since_pending
        self._pending_prestart = bool(state.get("pending_prestart"))
        self._iteration = iteration
        self._progress_reports = progress_reports
        self._last_progress_at = last_progress_at
        self._report_line = str(report_line) if report_line else None
        self._intervals = deque(intervals, maxlen=_CADENCE_WINDOW)
        self._nan_streak = nan_streak
        self._saved_iterations = deque(saved, maxlen=_RECENT_SAVES)
        self._last_save_report = last_save_report
        self._saving_since = saving_since
        self._open_save = open_save
        self._interrupted_saves = interrupted
        self._final_save_cut = bool(state.get("final_save_cut"))
        self.saves = deque(saves, maxlen=_RECENT_SAVES)
        self.loads = deque(loads, maxlen=16)
        self._first_progress_at = first_progress
        self._first_progress_after_load = first_after_load
        self._other_phase = other_phase
        self._crashed = bool(state.get("crashed"))
        self._held_at = _opt_float(state.get("held_at"))
        self._hang_reported = bool(state.get("hang_reported"))
        self._straggler_reported = bool(state.get("straggler_reported"))
        self._finished_at, self._finish = finished_at, finish
        self._signal_after_finish = bool(state.get("signal_after_finish"))
        self._unresolved = unresolved
        self._stopped = stopped
        self._restarter = bool(state.get("restarter"))
        self._srun_speaks = bool(state.get("srun_speaks"))
        self._relaunching = bool(state.get("relaunching"))
        self._csv = csv
        balance = state.get("balance")
        if isinstance(balance, list) and len(balance) == 3:
            rank, streak, confirmed = balance
            self._balance.streak_rank = int(rank) if isinstance(rank, int) else None
            self._balance.streak = int(streak) if isinstance(streak, int) else 0
            self._balance.confirmed = bool(confirmed)
        self._monitors = monitors
        return True

    # --- internals --------------------------------------------------------------------------

    def _process(self, line: str, at: float) -> Signal | None:
        signal = self._tb.feed(line, self._names)
        if self._tb.retracted:
            self._retract_stop()
        if signal is not None or self._tb.consumed:
            return signal
        # After a stop from outside, an end of training is the program's way out of its grace
        # period ("Training completed" once the signal's save is written), not its end.
        finished = self._finished_at is None and not self._crashed and self._finish.feed(line)
        if finished and not self._stopping():
            self._finished_at = at
        if not self._restarter and mentions_in_job_restarter(line):
            self._restarter = True
        if not self._srun_speaks and "srun: " in line:
            self._srun_speaks = split_prefix(line)[2].startswith("srun: ")
        if quiet_nccl_info(line):
            if self._pending_since is not None and ("Us" in line or "COMPLETE" in line):
                self._nccl_went_on(line)
            return None
        if _STORE_HOST_GONE in line:
            self._store_host_gone()
            return None
        if "attempts left" in line and _RELAUNCH.search(line):
            # The failure just reported is the launcher's to handle: the relaunch (its
            # rendezvous, start-up and checkpoint load) has the start-up allowance to report.
            self._other_phase = (RELAUNCHING, at)
            self._relaunching = True  # until the relaunch reports (a load on the way included)
            return None
        if self._table is not None:
            if self._table.row(split_prefix(line)[2]):
                self._table_lines.append(line)
                return None
            self._close_table()
        if "rank" in line or "Rank" in line or "RANK" in line:
            table = RankTable.open(split_prefix(line)[2])
            if table is not None:
                self._table = table
                self._table_lines.clear()
                self._table_lines.append(line)
                return None
        if self._straggler_waiting and "Rank=" not in line and "STRAGGLER" not in line:
            self._resolve_straggler()  # the NVRx report is over
        if telemetry.MARKER in line:
            record = telemetry.parse_record(line)
            if record is not None:
                return self._on_telemetry(record, line, at)
        events = self._ckpt.match_all(line)
        if events:
            for event in events:
                self._on_checkpoint(event, at)
            # Megatron's "Saving a checkpoint and exiting now. ...", a save that failed ("Error
            # writing (tmp) checkpoint file: ...: Resource exhausted: ..."), and a save a stop
            # from outside made ("Received SIGTERM: saving checkpoint before shutdown", "saved;
            # exiting for preemption").
            if (
                "xiting" in line
                or "rror" in line
                or "ailed" in line
                or "xception" in line
                or "SIG" in line
            ):
                return detect_crash(line, self._names)
            return None
        if self._open_save is not None and self._open_save[2] and TRAINING_DONE.search(line):
            self._close_save(at)  # training ended normally after the save: it went through
            return None
        if "," in line or self._csv is not None:
            # a metrics logger's CSV (or table in columns): its header, then rows of numbers
            text = split_prefix(line)[2]
            if self._csv is not None:
                row = csv_progress(text, self._csv)
                if row is not None:
                    return self._on_progress(row, line, at)
            columns = csv_header(text) if "," in line else None
            if columns is not None:
                self._csv = columns
                return None
        progress = parse_progress(line)
        if progress is not None:
            if (
                "rror" in line
                or "xception" in line
                or "illed" in line
                or "dumped" in line
                or "ERROR" in line
                or "SIG" in line
                or "reducing" in line
            ):
                # A failure report that also counts something ("Detected 2 oom-kill events in
                # step 3756240.batch", "FloatingPointError: ... at iteration=1029!", Megatron's
                # "ERROR:...:Rank 1, node node2, device 0, iteration #14: ...") is the failure:
                # it is no step of training. So is a progress bar the shell's death report was
                # appended to ("20/1094 [00:41<11:04]/bin/run: line 6: 3305 Killed"), or a
                # signal's ("... 3.31s/it, v_num=29][rank: 2] Received SIGTERM: 15"), or
                # DeepSpeed's loss scaler's ("417/2724 [...][...] OVERFLOW! ... Attempted loss
                # scale: 0, reducing to 0": the step that overflowed is no step). Not "loss
                # scale": Megatron's every iteration line reports its loss scale.
                failure = detect_crash(line, self._names)
                if failure is not None:
                    return failure
            if "\r" in line and line.count("\r", line.find("\r") + 1) > 0:
                return self._on_redraws(progress, line, at)
            return self._on_progress(progress, line, at)
        if "Rank=" in line or "STRAGGLER" in line:
            self._on_straggler(line)
            return None
        marker = phase_marker(line)
        if marker is not None:
            # Each marker renews the phase's budget: an evaluation that says it moved on to its
            # next batch (or the next checkpoint's evaluation) is not hung since the first.
            self._other_phase = (marker, at)
            if marker == EVALUATING:
                self._interrupt_throughput()
        if "heartbeat" in line:
            missed = missed_heartbeat(line)
            if missed is not None:
                which, waited = missed
                return Signal(
                    "missed_heartbeat", Category.UNKNOWN,
                    f"NVRx: a rank missed its {which} heartbeat (waited {waited:.0f}s)", line,
                    True, (), None, True, victim=True, hang=True,
                )  # fmt: skip
        if self._csv is None and "," not in line:  # never in place of a CSV header
            columns = table_header(split_prefix(line)[2])
            if columns is not None:
                self._csv = columns
                return None
        return detect_crash(line, self._names)

    def _on_redraws(self, whole: Progress, line: str, at: float) -> Signal | None:
        """A progress bar redrawn with carriage returns (tqdm: HF Trainer, Lightning, ...): one
        physical line may hold a whole epoch's redraws, each its own report."""
        redraws = [(p, s) for s in line.split("\r") if (p := parse_progress(s)) is not None]
        if len(redraws) < 2:
            return self._on_progress(whole, line, at)  # one report, however it was drawn
        found = None
        for progress, segment in redraws:
            if progress.rates and (progress.iteration or 0) % _REDRAW_RATE_EVERY:
                # A bar's rate is a per-step reading: taken every 10th step (the cadence
                # frameworks log at), a few slow steps in a row are not a sustained drop.
                progress = progress._replace(rates=())
            found = self._on_progress(progress, segment, at) or found
        return found

    def _on_progress(self, progress: Progress, line: str, at: float) -> Signal | None:
        self.last_progress = progress
        if self._stopped is not None and at - self._stopped[1] > self._stop_grace:
            self._stopped = None  # training outlived any grace period: that stop was not one
        if "rank" in line or "Rank" in line or "RANK" in line:
            work = line_work(line)
            if work is not None:
                self._on_imbalance(self._balance.report(*work), line)
        if "validation" in line or "evaluat" in line:
            # Megatron's "validation loss at iteration N": the next interval may include its time.
            self._interrupt_throughput()
        previous = self._iteration
        if (
            progress.iteration is not None
            and previous is not None
            and progress.iteration <= previous
        ):
            if progress.iteration == previous:  # the same step's other line: DeepSpeed prints
                self._take_rates(progress, line, at)  # "step=10, ..." then its timers' rate
            return self._nan_check(progress, line)  # a repeated or other rank's report
        if self._open_save is not None:
            step, _, infer = self._open_save
            moved_on = progress.iteration is None or step is None or progress.iteration > step
            if infer and moved_on:
                self._close_save(at)  # training went on after it: the save went through
        if self._open_save is None:
            self._saving_since = None  # a step after a save start: the save is over
        self._other_phase = None  # and so is an evaluation or a data-loading phase
        if self._pending_since is None:
            self._relaunching = False  # the relaunch got past the failure (or none was pending)
        if self._first_progress_at is None:
            self._first_progress_at = at
        if self.loads and self._first_progress_after_load is None:
            self._first_progress_after_load = at
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
                if progress.iteration is not None and previous is not None:
                    self._step_s = (when - self._last_progress_at) / (progress.iteration - previous)
            self._last_progress_at = when
            if self._step_s is None and progress.iteration is not None:
                # One report so far: the pace the line states, until two reports measure it.
                self._step_s = stated_step_seconds(line)
        if progress.iteration is not None:
            self._iteration = progress.iteration
        self._progress_reports += 1
        self._report_line = line
        self._unresolved = None  # training started: the names it needed resolved
        self._take_rates(progress, line, at)
        if self._pending_since is not None:
            advanced = (
                progress.iteration is None
                or self._pending_iteration is None
                or progress.iteration > self._pending_iteration
            )
            if advanced:
                self._reports_since_pending += 1
            if self._reports_since_pending >= self._confirm_reports:
                if self._stopped is None:
                    stop = next((s for s in self._signals if s.outside_stop), None)
                    if stop is not None:
                        self._stopped = (stop, self._pending_since)
                self._went_on()  # training went on: not fatal
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

    def _on_checkpoint(self, event: CheckpointEvent, at: float) -> None:
        if event.kind is Kind.SAVE_START:
            if event.weak and self._open_save is not None:
                return  # another line of the save already begun
            if self._open_save is not None and self._open_save[2]:
                self._close_save(at)  # a new save began: the previous one went through
            self._open_save = (event.iteration, at, event.infer)
            self._saving_since = at
            self._interrupt_throughput()
        elif event.kind is Kind.SAVE_DONE:
            if event.weak and self._open_save is None and self._counted_lately():
                return  # Megatron's timer row after a save its own line already counted
            self._on_saved(event.iteration, at)
        elif event.kind is Kind.LOAD_START:
            self._other_phase = (LOADING, at)
            self.loads_begun += 1
        else:
            # Every rank may print the load: the same step within a minute is the same load;
            # later (a restart that resumed from the same checkpoint, or a step no line names)
            # it is another.
            last = self.loads[-1] if self.loads else None
            if last is None or last[0] != event.iteration or at - last[1] > _SAME_LOAD_S:
                self.loads.append((event.iteration, at))
                if self._progress_reports:
                    # A relaunch resumed: new processes, maybe on other nodes, whose speed is
                    # their own (a drop is measured against their baseline, not the last run's).
                    self._monitors.clear()
            if (
                self._pending_since is not None
                and self._pending_prestart
                and not self._crashed
                and all(s.name in _WENT_PAST for s in self._signals)
            ):
                # The batch script's command that failed before the launch (`conda activate`
                # in a shell not set up for it) did not end the job: its program has started
                # and loaded a checkpoint since.
                self._went_on()
            self._first_progress_after_load = None
            if event.iteration is not None and self._iteration is None:
                self._iteration = event.iteration

    def _went_on(self) -> None:
        """The job went on past the failure signals pending: none of them was fatal."""
        self._signals.clear()
        self._pending_since = None
        self._pending_fatal = False

    def end_of_attempt(self, *, failed: bool, at: float) -> None:
        """The attempt is over: a save it was still in ended with it (if it did not fail)."""
        if self._open_save is None:
            return
        if failed or not self._open_save[2]:
            self._cut_save()
        else:
            self._close_save(at)

    def _only_failed_steps(self) -> bool:
        """The failures so far are only steps whose program could not start (slurmstepd's
        `execve(): nvidia-smi: No such file or directory`) and srun's exits of their tasks:
        before training, a batch script may go on to its training step."""
        return all(s.victim or s.name == "cannot_run" for s in self._signals)

    def _confirm_window(self) -> float:
        """How long a fatal pending signal waits for training to go on before it is a crash:
        the start-up allowance for steps that failed before training (it may yet start), and
        for a failure the job's launcher said it restarts the workers after."""
        if self._relaunching or (self._pending_prestart and self._only_failed_steps()):
            return max(self._confirm_s, self._setup_s)
        return self._confirm_s

    def _retract_stop(self) -> None:
        """A rank's StopIteration was caught after all ("During handling of the above
        exception"): it is no failure; what the handler raised, if anything, is."""
        for i in range(len(self._signals) - 1, -1, -1):
            if self._signals[i].detail == "StopIteration":
                del self._signals[i]
                break
        if self._crashed:
            return
        if not self._signals:
            self._pending_since = None
        self._pending_fatal = self._pending_since is not None and any(
            s.fatal for s in self._signals
        )

    def _cut_save(self) -> None:
        self._interrupted_saves += 1
        self._open_save = None
        self._final_save_cut = self._final_save_cut or self._finished_at is not None

    def _counted_lately(self) -> bool:
        return self._progress_reports - self._last_save_report <= 1

    def _close_save(self, at: float) -> None:
        """The open save ended (its end line came, or training went on after it)."""
        if self._open_save is not None:
            step = self._open_save[0]
            self._open_save = None
            self._on_saved(step, at)

    def _on_saved(self, iteration: int | None, at: float) -> None:
        began = self._open_save[1] if self._open_save is not None else None
        if iteration is None and self._open_save is not None:
            iteration = self._open_save[0]  # the end line of a save whose start named its step
        self._open_save = None
        self._saving_since = None
        self._interrupt_throughput()
        if iteration is not None:
            if iteration in self._saved_iterations:
                return
            self._saved_iterations.append(iteration)
        self._checkpoints += 1
        self._last_save_report = self._progress_reports
        self.saves.append((iteration, at))
        self.save_spans.append((iteration, at, None if began is None else max(0.0, at - began)))

    def _on_straggler(self, line: str) -> None:
        report = parse_nvrx(line)
        if report is None:
            return
        if len(self._rank_nodes) < 65536:
            self._rank_nodes.update(report.nodes)
        if report.score is not None:
            rank = report.ranks[0]
            if rank in self._stragglers or report.score < self._straggler_score:
                self._stragglers[rank] = report.nodes[rank]
        else:
            for rank in report.ranks:
                self._stragglers[rank] = self._rank_nodes.get(rank)
            self._straggler_what = self._straggler_what or report.what
            if len(self._straggler_lines) < 4:
                self._straggler_lines.append(line)
            self._straggler_waiting = True
        if self._straggler_waiting and None not in self._stragglers.values():
            self._resolve_straggler()

    def _resolve_straggler(self) -> None:
        self._straggler_waiting = False
        if self._straggler_reported or self._crashed:
            return
        self._straggler_reported = True
        ranks = sorted(self._stragglers)
        nodes = self._straggler_nodes()
        on = f" on {', '.join(nodes)}" if nodes else ""
        what = self._straggler_what or "straggler detected"
        self._urgent = Finding(
            Observed.STRAGGLER,
            f"NVRx straggler detection: {what}: ranks {ranks}{on}",
            evidence=tuple(self._straggler_lines),
            culprit_nodes=nodes,
            category=GPU,
            requeue_warranted=True,
        )

    def _straggler_nodes(self) -> tuple[str, ...]:
        """The job nodes of the ranks NVRx named (any node when the job's nodes are unknown)."""
        found: list[str] = []
        for node in self._stragglers.values():
            if node is None:
                continue
            if self._names:
                short = node.split(".", 1)[0]
                node = node if node in self._names else short
                if node not in self._names:
                    continue
            if node not in found:
                found.append(node)
        return tuple(found)

    def _take_rates(self, progress: Progress, line: str, at: float) -> None:
        """Each throughput reading once per step and metric (ranks repeat the same report).

        A tqdm bar's rate ("it/s") is read without the steps a resumed run's bar starts with
        (`BarRate`, per rank: ranks draw their own bars); once a bar is found to count them, the
        readings taken from it so far are no baseline.
        """
        for metric, printed in progress.rates:
            rate: float | None = printed
            if progress.bar is not None and metric == "its":
                rate = self._bar_rate(progress.bar, printed, line)
            if rate is None:
                continue
            if progress.iteration is not None:
                if self._rated.get(metric) == progress.iteration:
                    continue
                self._rated[metric] = progress.iteration
            self._on_rate(metric, rate, line, at)

    def _bar_rate(self, bar: tuple[int, float], printed: float, line: str) -> float | None:
        """The rate of the tqdm bar this line redraws, without a resumed run's restored steps."""
        rank = split_prefix(line)[0]
        rates = self._bars.get(rank)
        if rates is None:
            if len(self._bars) >= 64:
                return None
            rates = self._bars[rank] = BarRate()
        had_offset = rates.offset
        rate = rates.reading(*bar, printed)
        if rates.offset and not had_offset and "its" in self._monitors:
            # the readings the bar gave so far counted steps it did not do: no baseline
            self._monitors["its"] = ThroughputMonitor(self._throughput_settings)
        return rate

    def _close_table(self) -> None:
        table, self._table = self._table, None
        if table is not None:
            self._on_imbalance(self._balance.table(table.rows), None)

    def _on_imbalance(self, found: Imbalance | None, line: str | None) -> None:
        if line is not None:
            self._table_lines.append(line)
        if found is None or self._straggler_reported or self._crashed:
            return
        self._straggler_reported = True
        node = found.node
        if node is None and found.rank < len(self._layout):
            node = self._layout[found.rank] or None
        self._stragglers[found.rank] = node
        nodes = self._straggler_nodes()
        self._urgent = Finding(
            Observed.STRAGGLER,
            found.summary(),
            evidence=tuple(self._table_lines),
            culprit_nodes=nodes,
            category=GPU,
            requeue_warranted=True,
        )

    def _interrupt_throughput(self) -> None:
        """A checkpoint save or an evaluation ran: the next report(s) may include its time."""
        for monitor in self._monitors.values():
            monitor.interrupted()

    def _on_rate(self, metric: str, rate: float, line: str, at: float) -> None:
        monitor = self._monitors.get(metric)
        if monitor is None:
            if len(self._monitors) >= 8:
                return
            monitor = self._monitors[metric] = ThroughputMonitor(self._throughput_settings)
        if not self._rate_lines or self._rate_lines[-1] != line:
            self._rate_lines.append(line)
        drop = monitor.report(rate, self._iteration, at)
        if drop is None or self._straggler_reported or self._crashed:
            return
        self._straggler_reported = True
        nodes = self._straggler_nodes()  # NVRx may already have named the slow ranks
        self._urgent = Finding(
            Observed.STRAGGLER,
            drop.summary(metric),
            evidence=tuple(self._rate_lines),
            culprit_nodes=nodes,
            category=GPU if nodes else Category.UNKNOWN,
            requeue_warranted=True,
        )

    def _on_telemetry(self, record: telemetry.Record, line: str, at: float) -> Signal | None:
        event = telemetry.interpret(record)
        if isinstance(event, telemetry.Iteration):
            rates = (("tflops", event.tflops),) if event.tflops else ()
            progress = Progress(event.iteration, event.tflops, event.loss, rates=rates)
            return self._on_progress(progress, line, at)
        if isinstance(event, telemetry.CheckpointSave):
            kind = Kind.SAVE_DONE if event.done else Kind.SAVE_START
            self._on_checkpoint(CheckpointEvent(kind, event.iteration, pattern="telemetry"), at)
            return None
        if isinstance(event, telemetry.CheckpointLoad):
            kind = Kind.LOAD_DONE if event.done else Kind.LOAD_START
            self._on_checkpoint(CheckpointEvent(kind, event.iteration, pattern="telemetry"), at)
            return None
        if isinstance(event, telemetry.Error):
            return self._on_telemetry_error(event, line)
        return None

    def _on_telemetry_error(self, error: telemetry.Error, line: str) -> Signal | None:
        fatal = error.span in telemetry.FATAL_SPANS
        key = (error.exc_type, error.message)
        if key == self._telemetry_error:
            # The same exception recorded again by an enclosing span: not a new signal, but if
            # it has now left the training loop, the pending crash is certain.
            if fatal and self._pending_since is not None and not self._crashed:
                self._urgent = self._report(Observed.CRASH)
            return None
        self._telemetry_error = key
        if error.exc_type:
            signal = exception_signal(error.exc_type, error.message, line, error.rank, self._names)
        else:  # an error message without an exception: the application may go on
            signal = Signal(
                "telemetry_error", APPLICATION, f"training telemetry error: {error.message[:200]}",
                line, False, self._names.find(line), error.rank,
            )  # fmt: skip
        if signal is not None and fatal and error.exc_type and not signal.immediate:
            signal = replace(signal, immediate=True)
        return signal

    def _nccl_went_on(self, line: str) -> None:
        """NCCL set up its transport after the transport warnings pending (a HCA it could not
        open, a port it could not bind): it chose another and went on; they were survived."""
        if _NCCL_WENT_ON.search(line) is None:
            return
        self._keep_signals(
            [s for s in self._signals if s.fatal or s.name not in _NCCL_TRANSPORT_WARNINGS]
        )

    def _store_host_gone(self) -> None:
        """The process that hosted the job's TCPStore (rank 0's) has exited, finished or not:
        the broken pipes and resets other ranks' heartbeat monitors logged on the way are its
        exit seen from afar, not a network fault. Its own error, if it had one, is a fatal
        signal of its own and stays."""
        self._keep_signals([s for s in self._signals if s.fatal or not s.peer_lost])

    def _keep_signals(self, kept: list[Signal]) -> None:
        """Keep only `kept` of the failure signals (with none left, nothing is pending)."""
        if len(kept) == len(self._signals):
            return
        self._signals = kept
        if not kept:
            self._pending_since = None
            self._pending_fatal = False

    def _stopping(self) -> bool:
        """A stop from outside came in this attempt: its grace period, if training goes on."""
        return self._stopped is not None or any(s.outside_stop for s in self._signals)

    def _take_urgent(self) -> Finding | None:
        finding, self._urgent = self._urgent, None
        if finding is not None and finding.kind is Observed.STRAGGLER and self._crashed:
            return None  # a crash was reported meanwhile: the straggler no longer matters
        return finding

    def _confirmed(self, at: float) -> Finding | None:
        """A fatal pending signal training did not get past within the window: a CRASH.

        Pending warnings alone (a NCCL WARN, a storage hiccup) wait: training going on clears
        them, silence turns them into a HANG, the attempt ending into a CRASH.
        """
        if self._pending_since is None or at - self._pending_since < self._confirm_window():
            return None
        if not self._pending_fatal:
            return None
        if self._crashed:
            self._pending_since = None
            return None
        return self._report(Observed.CRASH)

    def _hung_when_stopped(self, stop: Signal, at: float) -> Finding | None:
        """A stop from outside (a time limit, a cancel, a SIGTERM) that found training silent for
        many times its own cadence ended a job that had already hung: a HANG, not the batch
        system's doing (a job that hangs each attempt until its limit is a crashloop, and the
        time it held its nodes was lost). The silence a live watch would have called a hang,
        had the stop not come first (`hang_allowance` in training): never less than
        `hang_timeout_s`, the seed's "a line at least every two minutes", nor more than the
        setup allowance. Not during a save, an evaluation or data loading, whose silences are
        their own.

        Both times are the log's own: the last report's stamp and the stop's (slurmstepd's
        "CANCELLED AT ..."), so the watcher and check-log, which reads a line without a time at
        the time of the line before it, measure the same silence; without both, none is known.
        """
        cadence = self.cadence_s
        if (
            cadence is None
            or self._report_line is None
            or self._saving_since is not None
            or self._other_phase is not None
            or self._finished_at is not None
        ):
            return None
        stopped = stop_time(split_prefix(stop.line)[2])
        reported = parse_timestamp(split_prefix(self._report_line)[2], near=stopped)
        if stopped is None or reported is None:
            return None
        silent = stopped - reported
        if silent < self.hang_allowance(reported) or zone_shift(
            self._report_line, stop.line, silent
        ):
            return None
        self._crashed = self._hang_reported = True
        self._pending_since = None
        return Finding(
            Observed.HANG,
            f"no progress for {silent:.0f}s after iteration {self._iteration}"
            f" ({silent / cadence:.0f}x its {cadence:.0f}s cadence) when it was stopped:"
            f" {stop.summary}",
            evidence=(stop.line,),
            category=Category.UNKNOWN,
            requeue_warranted=True,
        )

    def _report_hang(self, hang: Signal) -> Finding | None:
        """A collective or rendezvous never completed: the job hangs, unless a rank died first.

        Attribution follows the first rank that stopped: a fatal failure before the timeout is
        a CRASH of that cause; otherwise a HANG, caused by the warnings before it if any.
        """
        # An abort before the timeout is mostly the watchdog's own teardown (printed first by
        # the launcher's summary); a rank's own error is a signal of its own.
        died_first = any(s.fatal and not (s.victim or s.hang or s.teardown) for s in self._signals)
        if died_first:
            return self._report(Observed.CRASH)
        if self._unresolved is not None and "to connect" in hang.line:
            # A connect to the rendezvous store that timed out after its host's name did not
            # resolve never reached a peer to wait for: the lookup failed, the network's crash.
            if len(self._signals) < _MAX_SIGNALS:
                self._signals.append(replace(self._unresolved, fatal=True))
            return self._report(Observed.CRASH)
        if "Rendezvous" in hang.line and not self._progress_reports:
            first = next((i for i, s in enumerate(self._signals) if s.name == "rendezvous"), None)
            if first is not None:
                # The rendezvous timed out after its hosts had failed to connect to its store,
                # before training began: the job never formed; no peer was waited for. The
                # connections failed: the network's crash (a host that died has its own error).
                self._signals[first] = replace(self._signals[first], fatal=True)
                return self._report(Observed.CRASH)
        cause = self._attribute(self._signals)
        self._crashed = self._hang_reported = True
        self._pending_since = None
        evidence = (hang.line, *(cause.evidence if cause else ()))[:8]
        return Finding(
            Observed.HANG,
            hang.summary + (f", after: {cause.summary}" if cause else ""),
            evidence=evidence,
            culprit_nodes=cause.culprit_nodes if cause else (),
            category=cause.category if cause else Category.UNKNOWN,
            requeue_warranted=True,
            confidence=cause.confidence if cause else None,
        )

    def _report(self, kind: Observed) -> Finding | None:
        self._held_at = None
        if self._open_save is not None:  # the attempt died in the middle of a save
            self._cut_save()
        result = self._attribute(self._signals)
        self._pending_since = None
        self._pending_fatal = False
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
            confidence=result.confidence,
        )


def _signal_state(signal: Signal) -> dict[str, Any]:
    state = asdict(signal)
    state["line"] = signal.line[:_STATE_LINE_CHARS]
    state["summary"] = signal.summary[:_STATE_LINE_CHARS]
    return state


def _signal_from(raw: Mapping[str, Any]) -> Signal:
    fields = dict(raw)
    fields["nodes"] = tuple(str(n) for n in fields.get("nodes") or ())
    fields["category"] = Category(fields.get("category") or Category.UNKNOWN)
    return Signal(**{k: v for k, v in fields.items() if k in Signal.__dataclass_fields__})


def _monitor_from(raw: Mapping[str, Any], settings: ThroughputSettings) -> ThroughputMonitor:
    monitor = ThroughputMonitor(settings)
    monitor.baseline = _opt_float(raw.get("baseline"))
    monitor.reports = int(raw.get("reports") or 0)
    monitor.confirmed = bool(raw.get("confirmed"))
    monitor._startup = [float(x) for x in raw.get("startup") or []]
    monitor._early = [float(x) for x in raw.get("early") or []]
    monitor._degraded = [float(x) for x in raw.get("degraded") or []]
    monitor.degraded_from = _opt_float(raw.get("degraded_from"))
    monitor.last_at = _opt_float(raw.get("last_at"))
    return monitor


def _teardown(signal: Signal) -> bool:
    """Once training has reached its end, the way a distributed job comes apart: ranks losing
    their peers and the store as others exit first (a reset, a closed connection, a rendezvous
    heartbeat that finds the store gone), a process's exit reported without a cause, and the
    batch system's stop (a time limit that came as the run ended), a warning (an exception that
    ended one thread of the process, not the process). None of it is a failure of
    the work. A fault of its own (a GPU, the node, the disk, the program, a process that died
    of a signal, as a segfault in the destructors at exit) still is one: ajr then stops the job
    (its nodes are wanted) and never requeues it (done means done)."""
    return (
        signal.category is Category.NETWORK
        or signal.outside_stop
        or (signal.victim and signal.category is Category.UNKNOWN)
        or not signal.fatal  # a warning: nothing it could precede is left to fail
    )


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
