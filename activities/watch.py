"""Watching one attempt of a job until something needs a decision.

One long activity per attempt: it reads the shared cluster snapshot (no per-job Slurm query),
tails the attempt's log, and returns only when the attempt crashes, hangs, ends or moves on. It
heartbeats its log cursor, with the analyzer's own state, so after a worker dies another worker
resumes from the same offset, phase and pending findings.

Slurm's silence is never read as an answer: while slurmctld does not answer, nothing is decided
(a finding read meanwhile waits until Slurm confirms the attempt still runs), the outage is
reported once as a note, and a job counts as VANISHED only after slurmctld itself has said
"Invalid job id" for it, again and again over `vanish_confirm_s`, while answering for the cluster.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import logging
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from temporalio import activity

from activities import telemetry
from activities.logs.access import JobUser, LogAccessDenied, opener_for
from activities.logs.locate import AttemptRun, find_attempt_log, search_dirs
from activities.logs.reader import LogReader
from activities.logs.scanner import LogScanner, LogUnavailable
from activities.slurm.client import SlurmClient
from activities.slurm.poller import ClusterPoller
from activities.slurm.runner import SlurmError
from analysis.analyzer import AnalyzerContext, Finding, LogAnalyzer
from models.activities import ActivityName
from models.categories import Category
from models.checkpoints import merged_saves
from models.placement import UNUSABLE_NODE_STATES
from models.recovery import LogCursor, Observation, Observed, WatchRequest
from models.slurm import JobState, SlurmJob

log = logging.getLogger(__name__)

AnalyzerFactory = Callable[[AnalyzerContext], LogAnalyzer]


class Unknown(enum.Enum):
    """Slurm gave no usable answer about the job: decide nothing, keep watching."""

    UNREACHABLE = "unreachable"  # slurmctld did not answer (timeout, refused, degraded reply)
    MISSING = "missing"  # slurmctld answers but lists no such job: not yet proof it is gone


UNREACHABLE = Unknown.UNREACHABLE
MISSING = Unknown.MISSING

HEARTBEAT_EVERY_S = 5.0
LOCATE_EVERY_S = 1.0
# Between two polls a quiet log costs one `lseek` of its open file; the `stat` of its path that
# sees a replacement (a rotated or swapped log) comes every this many polls. The trade: a log
# replaced while its old file gets no new bytes is followed up to this many polls later (2 s at
# the production 0.5 s), instead of at the next poll (`LogScanner.unchanged`).
PATH_CHECK_EVERY_POLLS = 4
# A job missing from good answers is asked about directly at most this often.
DIRECT_CHECK_EVERY_S = 2.0
# Slurm unreachable this long is reported (once per outage) as a note in the job's workflow.
UNREACHABLE_REPORT_AFTER_S = 15.0
MAX_EVIDENCE = 10
MAX_EVIDENCE_CHARS = 1000  # evidence travels in workflow state: keep it small


class Clock:
    """Wall time, a monotonic time and sleeping: the real ones, or a test's virtual time.

    With `tick_s` > 0, every sleep ends on the first tick (a multiple of `tick_s` on the event
    loop's clock) at or after its due time, and all the sleeps due at one tick share one timer.
    1,000 watches polling every 0.5 s are then ~20 timers a second instead of 2,000 (each with
    its own heap entry, event loop iteration and cancel): measured with bench/watch_cpu.py at
    1,000 jobs, the watches' CPU fell from ~20 % to ~12 % of a core. The trade: a sleep lasts
    up to `tick_s` longer than asked (never shorter). The watches' phases stay spread: each
    poll's jittered interval lands on one of several ticks at random.
    """

    def __init__(self, tick_s: float = 0.0) -> None:
        self._tick_s = tick_s
        self._loop: asyncio.AbstractEventLoop | None = None
        self._due: dict[int, list[asyncio.Future[None]]] = {}  # tick number -> its sleepers

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        if self._tick_s <= 0 or seconds <= 0:
            await asyncio.sleep(seconds)
            return
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # another event loop (tests): its ticks are its own
            self._loop, self._due = loop, {}
        tick = math.ceil((loop.time() + seconds) / self._tick_s)
        sleepers = self._due.get(tick)
        if sleepers is None:
            sleepers = self._due[tick] = []
            loop.call_at(tick * self._tick_s, self._wake, tick, sleepers)
        woken: asyncio.Future[None] = loop.create_future()
        sleepers.append(woken)
        await woken  # a cancelled sleeper's future is cancelled: _wake skips it

    def _wake(self, tick: int, sleepers: list[asyncio.Future[None]]) -> None:
        if self._due.get(tick) is sleepers:
            del self._due[tick]
        for woken in sleepers:
            if not woken.done():
                woken.set_result(None)


def _cursor_from(details: Any, fallback: LogCursor) -> LogCursor:
    if isinstance(details, LogCursor):
        return details
    if isinstance(details, dict):
        known = {k: v for k, v in details.items() if k in LogCursor.__dataclass_fields__}
        try:
            return LogCursor(**known)
        except TypeError:
            return fallback
    return fallback


def _finding_state(finding: Finding) -> dict[str, Any]:
    return {
        "kind": finding.kind.value,
        "summary": finding.summary[:MAX_EVIDENCE_CHARS],
        "evidence": [line[:MAX_EVIDENCE_CHARS] for line in finding.evidence[:MAX_EVIDENCE]],
        "culprit_nodes": list(finding.culprit_nodes),
        "category": finding.category,
        "requeue_warranted": finding.requeue_warranted,
        "confidence": finding.confidence,
    }


def _confidence(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _finding_from(state: dict[str, Any]) -> Finding | None:
    try:
        return Finding(
            Observed(state["kind"]),
            str(state.get("summary", "")),
            tuple(str(e) for e in state.get("evidence") or ()),
            tuple(str(n) for n in state.get("culprit_nodes") or ()),
            Category(state.get("category") or Category.UNKNOWN),
            state.get("requeue_warranted"),
            _confidence(state.get("confidence")),
        )
    except (KeyError, ValueError, TypeError):
        return None


@dataclass
class _AttemptLog:
    """The watcher's view of the attempt's log file."""

    cursor: LogCursor
    scanner: LogScanner | None = None
    dirs: list[str] = field(default_factory=list)
    next_locate_at: float = 0.0
    problem: str = ""


class WatchActivities:
    def __init__(
        self,
        poller: ClusterPoller,
        control: SlurmClient,
        analyzer_factory: AnalyzerFactory,
        *,
        poll_interval: float = 0.5,
        clock: Clock | None = None,
        read_gather_s: float | None = None,
        poll_jitter: float = 0.1,
    ) -> None:
        self._poller = poller
        self._control = control
        self._analyzer_factory = analyzer_factory
        self._poll_interval = poll_interval
        # Every watch's log reads, one thread call per gathering window (activities/logs/reader),
        # and the watches' sleeps end on shared ticks (see Clock): both a tenth of a poll, at
        # most 50 ms.
        window = min(0.05, poll_interval / 10)
        self._reader = LogReader(window if read_gather_s is None else read_gather_s)
        self._clock = clock or Clock(tick_s=window)
        self._poll_jitter = poll_jitter

    @activity.defn(name=ActivityName.WATCH_ATTEMPT)
    async def watch_attempt(self, request: WatchRequest) -> Observation:
        details = activity.info().heartbeat_details if activity.in_activity() else ()
        cursor = _cursor_from(details[0] if details else None, request.cursor)
        watcher = _AttemptWatcher(self, request, cursor)
        telemetry.JOBS_WATCHED.add(1, {"cluster": request.cluster})
        try:
            return await watcher.run()
        finally:
            telemetry.JOBS_WATCHED.add(-1, {"cluster": request.cluster})
            watcher.close()


class _AttemptWatcher:
    def __init__(self, owner: WatchActivities, request: WatchRequest, cursor: LogCursor) -> None:
        self.owner = owner
        self.request = request
        self.log = _AttemptLog(cursor=cursor)
        self.analyzer: LogAnalyzer | None = None
        self.checkpoint_base = cursor.checkpoints
        # A finding Slurm has not yet confirmed (kept across a worker restart by the cursor).
        self.unconfirmed: Finding | None = _finding_from(cursor.unconfirmed)
        self.first_finding: Finding | None = self.unconfirmed
        self.found_at = 0.0  # when this watcher read a finding (metrics: crash line -> held)
        self.ignore = set(request.ignore)
        self.last_beat = 0.0
        self.details: dict[str, Any] | None = None  # what the last heartbeat carried
        self.missing_since: float | None = None  # wall time the job was first found missing
        self.next_direct_check = 0.0
        self.slurm_error = ""
        self.last_known: SlurmJob | None = None
        # Whether Slurm shows this attempt's own run yet, not the end of the one before it.
        self.run_seen = AttemptRun(request.attempt, waited=bool(cursor.running_since))

    def close(self) -> None:
        if self.log.scanner is not None:
            # Not under a read of the shared reader's thread (a cancelled watch's may still run).
            self.owner._reader.close(self.log.scanner)

    # --- what Slurm says ------------------------------------------------------------------

    async def _current_job(self) -> SlurmJob | Unknown | None:
        """The job now; None once slurmctld has confirmed it has no record of it."""
        request = self.request
        snapshot = self.owner._poller.latest
        if not snapshot.ok:
            # slurmctld is struggling: thousands of watchers must not each query it now.
            self.slurm_error = snapshot.error
            return UNREACHABLE
        job = snapshot.jobs.get(request.job_id)
        if job is not None and job.restart_count >= request.attempt:
            self.missing_since = None
            return job
        # Missing from a good snapshot, or a snapshot taken before this attempt began (before
        # the requeue): ask slurmctld directly rather than judge from stale data. Both are rare.
        now = self.owner._clock.monotonic()
        if now < self.next_direct_check:
            return MISSING
        self.next_direct_check = now + DIRECT_CHECK_EVERY_S
        control = self.owner._control
        try:
            job = await control.show_job(request.job_id)
            if job is not None:
                self.missing_since = None
                return job
            known = await control.job_known(request.job_id)
        except SlurmError as exc:
            self.slurm_error = str(exc)
            return UNREACHABLE
        if known:
            return MISSING  # listed by scontrol though not by squeue: keep watching
        first = self.missing_since = self.missing_since or self.owner._clock.time()
        if self.owner._clock.time() - first >= request.config.vanish_confirm_s:
            return None
        return MISSING

    def _unreachable(self, now: float) -> Observation | None:
        """Slurm does not answer: remember since when, and say so once it has lasted."""
        cursor = self.log.cursor
        if not cursor.slurm_unreachable_since:
            cursor.slurm_unreachable_since = now
            log.warning("job %s: Slurm cannot say: %s", self.request.job_id, self.slurm_error)
        if cursor.slurm_unreachable_reported:
            return None
        waited = now - cursor.slurm_unreachable_since
        if waited < UNREACHABLE_REPORT_AFTER_S:
            return None
        cursor.slurm_unreachable_reported = True
        return self._note(
            Observed.SLURM_UNREACHABLE,
            f"Slurm unreachable for {waited:.0f}s ({self.slurm_error[:300]}): "
            "nothing is decided or changed until slurmctld answers again",
        )

    def _answered(self, now: float) -> Observation | None:
        """Slurm answers (again): a reported outage is over, and that is noted once."""
        cursor = self.log.cursor
        since, reported = cursor.slurm_unreachable_since, cursor.slurm_unreachable_reported
        cursor.slurm_unreachable_since, cursor.slurm_unreachable_reported = 0.0, False
        if not reported:
            return None
        return self._note(
            Observed.SLURM_RECOVERED, f"Slurm answers again after {now - since:.0f}s unreachable"
        )

    def _note(self, kind: Observed, detail: str) -> Observation:
        job = self.last_known or SlurmJob(
            job_id=self.request.job_id, name="", state=JobState.UNKNOWN
        )
        self._beat(force=True)
        # A note is no decision: a finding still awaiting Slurm's confirmation stays carried.
        observation = self._observation(kind, job, detail, keep_unconfirmed=True)
        observation.evidence = []
        return observation

    async def _still_running(self, job: SlurmJob) -> bool | None:
        """Slurm's word, not the snapshot's, before acting on what a log line says.

        A user's scancel also writes lines that look like failures (slurmstepd's "CANCELLED",
        srun's "task 0: Terminated"); they arrive after slurmctld has ended the job. Acting on
        them from a snapshot up to one poll old would requeue a job its owner cancelled, so a
        live finding counts only while slurmctld still shows the attempt RUNNING. None: Slurm
        cannot say now (ask again later; never act on silence).
        """
        try:
            current = await self.owner._control.show_job(job.job_id)
        except SlurmError as exc:
            self.slurm_error = str(exc)
            return None
        return (
            current is not None
            and current.state is JobState.RUNNING
            and current.restart_count == self.request.attempt
        )

    # --- the loop -------------------------------------------------------------------------

    def _observation(
        self, kind: Observed, job: SlurmJob, detail: str = "", *, keep_unconfirmed: bool = False
    ) -> Observation:
        finding = self.first_finding
        return Observation(
            kind=kind,
            attempt=self.request.attempt,
            state=job.state,
            exit_code=job.exit_status.code,
            signal=job.exit_status.signal,
            restart_count=job.restart_count,
            nodes=list(job.nodes),
            culprit_nodes=list(finding.culprit_nodes) if finding else [],
            evidence=[line[:MAX_EVIDENCE_CHARS] for line in finding.evidence[:MAX_EVIDENCE]]
            if finding
            else [],
            detail=detail or (finding.summary if finding else ""),
            category=finding.category if finding else None,
            requeue_warranted=finding.requeue_warranted if finding else None,
            cursor=self._cursor_now(unconfirmed=keep_unconfirmed),
            confidence=finding.confidence if finding else None,
            submitted_at=job.submit_time,
            started_at=job.start_time or self.log.cursor.running_since,
            ended_at=job.end_time if job.state.is_ended else 0.0,
            seen_at=self.owner._clock.time(),
            found_at=self.found_at,
        )

    def _cursor_now(self, *, unconfirmed: bool = True) -> LogCursor:
        """A copy of the cursor with the analyzer's state: what another worker resumes from."""
        cursor = self.log.cursor
        self._note_milestones()
        return dataclasses.replace(
            cursor,
            analyzer=self.analyzer.export_state() if self.analyzer is not None else cursor.analyzer,
            unconfirmed=_finding_state(self.unconfirmed)
            if unconfirmed and self.unconfirmed is not None
            else {},
        )

    def _note_milestones(self) -> None:
        """What the log told of this attempt's progress: its first step (the restart worked),
        the checkpoint it loaded and the last one it saved (the efficiency records' ends)."""
        if self.analyzer is None:
            return
        seen, cursor = self.analyzer.milestones(), self.log.cursor
        if seen.first_step_at and not cursor.first_step_at:
            cursor.first_step_at = seen.first_step_at
        if seen.loaded_at is not None:
            cursor.loaded_step, cursor.loaded_at = seen.loaded_step, seen.loaded_at
        if seen.last_save_at is not None:
            cursor.last_save_step, cursor.last_save_at = seen.last_save_step, seen.last_save_at
        cursor.interrupted_saves = seen.interrupted_saves
        cursor.saves = merged_saves(cursor.saves, seen.saves)
        cursor.training_done_at = seen.training_done_at or 0.0
        cursor.in_job_restarter = cursor.in_job_restarter or seen.in_job_restarter

    def _beat(self, force: bool = False) -> None:
        now = self.owner._clock.monotonic()
        if activity.in_activity() and (force or now - self.last_beat >= HEARTBEAT_EVERY_S):
            activity.heartbeat(self._details())
            self.last_beat = now

    def _details(self) -> dict[str, Any]:
        """The heartbeat's details: the cursor as plain JSON data, rebuilt only when it changed.

        Temporal keeps only the details of the latest heartbeat (one without any would erase
        the cursor a retried watch resumes from), so every heartbeat carries them. They are the
        cursor's fields as a plain dict, exactly what the JSON converter makes of the dataclass
        (and what `_cursor_from` reads back), built with `dataclasses.asdict` only when a field
        differs from the last one sent: an unchanged cursor (most heartbeats of a quiet job) is
        re-sent as the same dict, which the converter encodes in C.
        """
        cursor, sent = self._cursor_now(), self.details
        if sent is None or any(getattr(cursor, name) != value for name, value in sent.items()):
            self.details = sent = dataclasses.asdict(cursor)
        return sent

    async def run(self) -> Observation:
        request = self.request
        while True:
            job = await self._current_job()
            if job is UNREACHABLE:
                note = self._unreachable(self.owner._clock.time())
                if note is not None:
                    return note
                self._beat()
                await self.owner._clock.sleep(self.owner._poll_interval * 4)
                continue
            recovered = self._answered(self.owner._clock.time())
            if recovered is not None:
                return recovered
            if job is MISSING:
                self._beat()
                await self.owner._clock.sleep(self.owner._poll_interval)
                continue
            if job is None:
                gone = SlurmJob(job_id=request.job_id, name="", state=JobState.UNKNOWN)
                return self._observation(
                    Observed.VANISHED,
                    gone,
                    "slurmctld answered 'Invalid job id' for the job for "
                    f"{request.config.vanish_confirm_s:.0f}s while answering for the cluster",
                )
            assert isinstance(job, SlurmJob)
            self.last_known = job
            if job.restart_count > request.attempt:
                return self._observation(Observed.REQUEUED, job, "the job was requeued outside ajr")
            if self.run_seen.own_run(job):
                observation = await self._follow_log(job)
                if observation is not None:
                    return observation
            if job.state.is_ended:
                return await self._ended(job)
            waited = self._straggler_wait_over(job) if self.unconfirmed is None else None
            if waited is not None:
                return waited
            self._beat()
            await self._pause()

    async def _pause(self) -> None:
        """One poll interval, give or take `poll_jitter` of it at random.

        Watches answered by one batch of the shared log reader would otherwise all wake
        together again, for ever (and batches near each other would merge): at 1,000 jobs, the
        whole worker's watches in lock-step, their heartbeats in bursts, and hundreds of watches
        timing out at once, again and again. A random walk keeps their phases spread; the
        reader still serves the watches whose reads fall within one window in one call.
        """
        owner = self.owner
        jitter = owner._poll_jitter
        factor = 1.0 + random.uniform(-jitter, jitter) if jitter else 1.0
        await owner._clock.sleep(owner._poll_interval * factor)

    async def _ended(self, job: SlurmJob) -> Observation:
        if job.state is JobState.NODE_FAIL and job.partition:
            try:
                states = await self.owner._control.partition_nodes(job.partition)
            except SlurmError:
                states = {}
        else:
            states = {}
        self.unconfirmed = None  # the end is what is reported now
        if self.analyzer is not None:
            # A save the attempt was still in ended with it, or was cut off.
            self.analyzer.end_of_attempt(
                failed=job.state is not JobState.COMPLETED, at=self.owner._clock.time()
            )
            if self.first_finding is None:
                # Failure signals the job printed and never got past explain how it ended.
                self.first_finding = self.analyzer.final_finding()
        self.log.cursor.checkpoints = self._checkpoints()
        observation = self._observation(Observed.EXITED, job)
        failed = [n for n in job.nodes if states.get(n, "") in UNUSABLE_NODE_STATES]
        observation.culprit_nodes = sorted(set(observation.culprit_nodes) | set(failed))
        return observation

    def _straggler_wait_over(self, job: SlurmJob) -> Observation | None:
        """While a straggler waits for its requeue: the next checkpoint save, or the deadline."""
        request = self.request
        if request.return_after_checkpoints < 0:
            return None
        checkpoints = self._checkpoints()
        if checkpoints > request.return_after_checkpoints:
            detail = f"checkpoint save {checkpoints} completed: requeue now, no work lost"
        elif self.owner._clock.time() >= request.return_by:
            detail = "no checkpoint save before the deadline: requeue anyway"
        else:
            return None
        self.log.cursor.checkpoints = checkpoints
        return self._observation(Observed.STRAGGLER, job, detail)

    def _checkpoints(self) -> int:
        return self.checkpoint_base + (self.analyzer.checkpoints if self.analyzer else 0)

    def _analyzer_for(self, job: SlurmJob) -> LogAnalyzer:
        if self.analyzer is None:
            config = self.request.config
            self.analyzer = self.owner._analyzer_factory(
                AnalyzerContext(job_nodes=job.nodes, job_tasks=job.tasks, settings=config.analysis)
            )
            saved = self.log.cursor.analyzer
            if saved and not self.analyzer.restore_state(saved):
                log.warning("job %s: analyzer state not restored", job.job_id)
        return self.analyzer

    async def _locate(self, job: SlurmJob) -> None:
        state = self.log
        now = self.owner._clock.monotonic()
        # An attempt that wrote its log and ended between two looks gets one last look: its
        # end is judged with its log read (a quick crash after a requeue), not without a cause.
        if state.scanner is not None or (now < state.next_locate_at and not job.state.is_ended):
            return
        state.next_locate_at = now + LOCATE_EVERY_S
        if not state.dirs:
            stdout_path, work_dir = job.stdout_path, job.work_dir
            if not stdout_path:
                try:
                    stdout_path, work_dir_shown = await self.owner._control.job_paths(job.job_id)
                except SlurmError:
                    return
                work_dir = work_dir or work_dir_shown
            state.dirs = search_dirs(work_dir, stdout_path, self.request.config.log_dirs)
        path = state.cursor.path or find_attempt_log(
            state.dirs,
            job.name,
            job.job_id,
            job.start_time or state.cursor.running_since,
            self.request.earlier_logs,
            owner_uid=job.user_id,
            latest_stamp=job.end_time
            if job.state.is_ended and job.end_time
            else self.owner._clock.time(),
            first_attempt=self.request.attempt == 0,
        )
        if not path:
            return
        user = JobUser(uid=job.user_id, gid=job.group_id, name=job.user_name)
        offset = state.cursor.offset if state.cursor.path == path else 0
        state.scanner = LogScanner(
            path,
            offset,
            opener=opener_for(user),
            path_check_s=self.owner._poll_interval * PATH_CHECK_EVERY_POLLS,
        )
        if state.cursor.path != path:
            state.cursor.path, state.cursor.offset, state.cursor.lines = path, 0, 0
        log.info("job %s attempt %s: watching %s", job.job_id, self.request.attempt, path)

    async def _follow_log(self, job: SlurmJob) -> Observation | None:
        cursor = self.log.cursor
        now = self.owner._clock.time()
        if not cursor.running_since:
            cursor.running_since = job.start_time or now
        await self._locate(job)
        analyzer = self._analyzer_for(job)
        # Every line read is fed, even after a finding: later lines only add evidence, and a
        # resumed watch (same offset) must not skip lines the analyzer never saw.
        for finding in await self._read_and_feed(job, analyzer, now):
            if not cursor.anomaly_at:
                cursor.anomaly_at = now  # the read that brought the finding's line
            # A straggler waits for its next save; a crash or a hang read with it is acted on.
            overrides = finding.kind in (Observed.CRASH, Observed.HANG)
            if self.first_finding is None or (
                overrides and self.first_finding.kind is Observed.STRAGGLER
            ):
                self.first_finding = finding
            if not self.found_at:
                self.found_at = now
            if job.state.is_ended or finding.kind in self.ignore:
                continue
            if self.unconfirmed is None or (
                overrides and self.unconfirmed.kind is Observed.STRAGGLER
            ):
                self.unconfirmed = finding
        cursor.checkpoints = self._checkpoints()
        if self.unconfirmed is not None:
            running = await self._still_running(job)
            if running is None:
                self._beat(force=True)  # keep the finding: acted on once Slurm confirms
                return None
            finding, self.unconfirmed = self.unconfirmed, None
            if running:
                self.first_finding = self.first_finding or finding
                return self._observation(finding.kind, job)
            # Not running any more: the loop sees the real end next; the line stays evidence.
            return None
        if job.state is not JobState.RUNNING:
            return None
        return await self._silence(job, analyzer, now)

    async def _read_and_feed(
        self, job: SlurmJob, analyzer: LogAnalyzer, now: float
    ) -> list[Finding]:
        """New complete lines to the analyzer: by block when it can take them (the engine)."""
        scanner, cursor = self.log.scanner, self.log.cursor
        if scanner is None:
            return []
        feed_block = getattr(analyzer, "feed_block", None)
        try:
            chunks = await self.owner._reader.read(scanner, blocks=feed_block is not None)
            self.log.problem = ""
        except (LogUnavailable, LogAccessDenied) as exc:
            if str(exc) != self.log.problem:
                log.warning("job %s: log %s unreadable: %s", job.job_id, cursor.path, exc)
            self.log.problem = str(exc)
            return []
        if not chunks:
            return []
        cursor.offset = scanner.offset
        cursor.last_line_at = now
        findings: list[Finding] = []
        if feed_block is not None:
            for block in chunks:
                cursor.lines += block.count("\n") + 1
                findings += feed_block(block, now)
            return findings
        cursor.lines += len(chunks)
        for line in chunks:
            finding = analyzer.feed(line, now)
            if finding is not None:
                findings.append(finding)
        return findings

    async def _silence(
        self, job: SlurmJob, analyzer: LogAnalyzer, now: float
    ) -> Observation | None:
        cursor = self.log.cursor
        running_for = now - cursor.running_since
        if cursor.last_line_at:
            finding = analyzer.silence(now - cursor.last_line_at, now)
        elif running_for < self.request.config.startup_timeout_s:
            return None
        elif cursor.path:
            finding = Finding(
                Observed.STARTUP_TIMEOUT,
                f"running {running_for:.0f}s and {cursor.path} has no line yet",
            )
        else:
            # A job that logs elsewhere may be perfectly healthy: say so, never kill it for that.
            finding = Finding(
                Observed.LOG_MISSING,
                f"running {running_for:.0f}s and no log named {job.name}_{job.job_id}_date_"
                f"..._time_....log in {', '.join(self.log.dirs) or '(no directory known)'}; "
                "crashes and hangs cannot be detected for this attempt",
            )
        if finding is None or finding.kind in self.ignore:
            return None
        if finding.kind is not Observed.LOG_MISSING and not await self._still_running(job):
            return None  # ended (the loop sees the real end next) or Slurm cannot say
        if not cursor.anomaly_at and finding.kind is not Observed.LOG_MISSING:
            # A silence's anomaly began with the last line read (or the attempt's start).
            cursor.anomaly_at = cursor.last_line_at or cursor.running_since
        self.first_finding = self.first_finding or finding
        self._beat(force=True)
        return self._observation(finding.kind, job, finding.summary)
