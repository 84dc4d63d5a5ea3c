"""Watching one attempt of a job until something needs a decision.

One long activity per attempt: it reads the shared cluster snapshot (no per-job Slurm query),
tails the attempt's log, and returns only when the attempt crashes, hangs, ends or moves on. It
heartbeats its log cursor, so after a worker dies another worker resumes from the same offset.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from temporalio import activity

from activities.logs.access import JobUser, LogAccessDenied, opener_for
from activities.logs.analyzer import AnalyzerContext, Finding, LogAnalyzer
from activities.logs.locate import find_attempt_log, search_dirs
from activities.logs.scanner import LogScanner, LogUnavailable
from activities.slurm.control import SlurmControl
from activities.slurm.poller import ClusterPoller
from activities.slurm.runner import SlurmError
from models.placement import UNUSABLE_NODE_STATES
from models.recovery import LogCursor, Observation, Observed, WatchRequest
from models.slurm import JobState, SlurmJob

log = logging.getLogger(__name__)

AnalyzerFactory = Callable[[AnalyzerContext], LogAnalyzer]


class Unknown(enum.Enum):
    """Slurm did not answer: decide nothing, keep watching."""

    UNKNOWN = "unknown"


UNKNOWN = Unknown.UNKNOWN

HEARTBEAT_EVERY_S = 5.0
LOCATE_EVERY_S = 1.0
MAX_EVIDENCE = 10
MAX_EVIDENCE_CHARS = 1000  # evidence travels in workflow state: keep it small


def _cursor_from(details: Any, fallback: LogCursor) -> LogCursor:
    if isinstance(details, LogCursor):
        return details
    if isinstance(details, dict):
        known = {k: v for k, v in details.items() if k in LogCursor.__dataclass_fields__}
        return LogCursor(**known)
    return fallback


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
        control: SlurmControl,
        analyzer_factory: AnalyzerFactory,
        *,
        poll_interval: float = 0.5,
    ) -> None:
        self._poller = poller
        self._control = control
        self._analyzer_factory = analyzer_factory
        self._poll_interval = poll_interval
        self._last_unknown = ""

    async def _current_job(self, job_id: int, attempt: int) -> SlurmJob | Unknown | None:
        """The job now; None once slurmctld has forgotten it; UNKNOWN while Slurm cannot say."""
        snapshot = self._poller.latest
        job = snapshot.jobs.get(job_id)
        if not snapshot.ok:
            # slurmctld is struggling: thousands of watchers must not each query it now.
            return UNKNOWN
        if job is not None and job.restart_count >= attempt:
            return job
        # Missing from a good snapshot, or a snapshot taken before this attempt began (before
        # the requeue): ask slurmctld directly rather than judge from stale data. Both are rare.
        try:
            return await self._control.show_job(job_id)
        except SlurmError as exc:
            if snapshot.ok or self._last_unknown != str(exc):
                log.warning("job %s: Slurm cannot say: %s", job_id, exc)
            self._last_unknown = str(exc)
            return UNKNOWN

    @activity.defn(name="watch_attempt")
    async def watch_attempt(self, request: WatchRequest) -> Observation:
        details = activity.info().heartbeat_details if activity.in_activity() else ()
        cursor = _cursor_from(details[0] if details else None, request.cursor)
        watcher = _AttemptWatcher(self, request, cursor)
        try:
            return await watcher.run()
        finally:
            watcher.close()


class _AttemptWatcher:
    def __init__(self, owner: WatchActivities, request: WatchRequest, cursor: LogCursor) -> None:
        self.owner = owner
        self.request = request
        self.log = _AttemptLog(cursor=cursor)
        self.analyzer: LogAnalyzer | None = None
        self.checkpoint_base = cursor.checkpoints
        self.first_finding: Finding | None = None
        self.ignore = {Observed(kind) for kind in request.ignore}
        self.last_beat = 0.0

    def close(self) -> None:
        if self.log.scanner is not None:
            self.log.scanner.close()

    def _observation(self, kind: Observed, job: SlurmJob, detail: str = "") -> Observation:
        finding = self.first_finding
        return Observation(
            kind=kind,
            attempt=self.request.attempt,
            state=job.state.value,
            exit_code=job.exit_status.code,
            signal=job.exit_status.signal,
            restart_count=job.restart_count,
            nodes=list(job.nodes),
            culprit_nodes=list(finding.culprit_nodes) if finding else [],
            evidence=[line[:MAX_EVIDENCE_CHARS] for line in finding.evidence[:MAX_EVIDENCE]]
            if finding
            else [],
            detail=detail or (finding.summary if finding else ""),
            category=finding.category if finding else "",
            requeue_warranted=finding.requeue_warranted if finding else None,
            cursor=self.log.cursor,
        )

    def _beat(self, force: bool = False) -> None:
        now = time.monotonic()
        if activity.in_activity() and (force or now - self.last_beat >= HEARTBEAT_EVERY_S):
            activity.heartbeat(self.log.cursor)
            self.last_beat = now

    async def run(self) -> Observation:
        request = self.request
        while True:
            job = await self.owner._current_job(request.job_id, request.attempt)
            if job is UNKNOWN:
                self._beat()
                await asyncio.sleep(self.owner._poll_interval * 4)
                continue
            if job is None:
                gone = SlurmJob(job_id=request.job_id, name="", state=JobState.UNKNOWN)
                return self._observation(
                    Observed.VANISHED, gone, "slurmctld no longer knows the job"
                )
            if job.restart_count > request.attempt:
                return self._observation(Observed.REQUEUED, job, "the job was requeued outside ajr")
            if job.state in (JobState.RUNNING, JobState.COMPLETING) or job.state.is_ended:
                observation = await self._follow_log(job)
                if observation is not None:
                    return observation
            if job.state.is_ended:
                return await self._ended(job)
            waited = self._straggler_wait_over(job)
            if waited is not None:
                return waited
            self._beat()
            await asyncio.sleep(self.owner._poll_interval)

    async def _ended(self, job: SlurmJob) -> Observation:
        observation = self._observation(Observed.EXITED, job)
        if job.state is JobState.NODE_FAIL and job.partition:
            try:
                states = await self.owner._control.partition_nodes(job.partition)
            except SlurmError:
                states = {}
            failed = [n for n in job.nodes if states.get(n, "") in UNUSABLE_NODE_STATES]
            observation.culprit_nodes = sorted(set(observation.culprit_nodes) | set(failed))
        observation.cursor.checkpoints = self._checkpoints()
        return observation

    def _straggler_wait_over(self, job: SlurmJob) -> Observation | None:
        """While a straggler waits for its requeue: the next checkpoint save, or the deadline."""
        request = self.request
        if request.return_after_checkpoints < 0:
            return None
        checkpoints = self._checkpoints()
        if checkpoints > request.return_after_checkpoints:
            detail = f"checkpoint save {checkpoints} completed: requeue now, no work lost"
        elif time.time() >= request.return_by:
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
                AnalyzerContext(
                    job_nodes=job.nodes,
                    job_tasks=job.tasks,
                    hang_timeout_s=config.hang_timeout_s,
                    checkpoint_patterns=tuple(config.checkpoint_patterns),
                    extra={
                        "setup_timeout_s": str(config.setup_hang_timeout_s),
                        "checkpoint_timeout_s": str(config.checkpoint_hang_timeout_s),
                        "crash_confirm_s": str(config.crash_confirm_s),
                    },
                )
            )
        return self.analyzer

    async def _locate(self, job: SlurmJob) -> None:
        state = self.log
        now = time.monotonic()
        if state.scanner is not None or now < state.next_locate_at:
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
        )
        if not path:
            return
        user = JobUser(uid=job.user_id, gid=job.group_id, name=job.user_name)
        offset = state.cursor.offset if state.cursor.path == path else 0
        state.scanner = LogScanner(path, offset, opener=opener_for(user))
        if state.cursor.path != path:
            state.cursor.path, state.cursor.offset, state.cursor.lines = path, 0, 0
        log.info("job %s attempt %s: watching %s", job.job_id, self.request.attempt, path)

    async def _follow_log(self, job: SlurmJob) -> Observation | None:
        cursor = self.log.cursor
        now = time.time()
        if not cursor.running_since:
            cursor.running_since = job.start_time or now
        await self._locate(job)
        analyzer = self._analyzer_for(job)
        actionable: Finding | None = None
        # Every line read is fed, even after a finding: later lines only add evidence, and a
        # resumed watch (same offset) must not skip lines the analyzer never saw.
        for finding in await self._read_and_feed(job, analyzer, now):
            if self.first_finding is None:
                self.first_finding = finding
            if actionable is None and finding.kind not in self.ignore and not job.state.is_ended:
                actionable = finding
        cursor.checkpoints = self._checkpoints()
        if actionable is not None and await self._still_running(job):
            self._beat(force=True)
            return self._observation(actionable.kind, job)
        if job.state is not JobState.RUNNING:
            return None
        return await self._silence(job, analyzer, now)

    async def _still_running(self, job: SlurmJob) -> bool:
        """Slurm's word, not the snapshot's, before acting on what a log line says.

        A user's scancel also writes lines that look like failures (slurmstepd's "CANCELLED",
        srun's "task 0: Terminated"); they arrive after slurmctld has ended the job. Acting on
        them from a snapshot up to one poll old would requeue a job its owner cancelled, so a
        live finding counts only while slurmctld still shows the attempt RUNNING. Otherwise the
        loop goes on to the real end state, and the finding stays as evidence.
        """
        try:
            current = await self.owner._control.show_job(job.job_id)
        except SlurmError:
            return job.state is JobState.RUNNING  # Slurm cannot say: the snapshot is all we have
        return (
            current is not None
            and current.state is JobState.RUNNING
            and current.restart_count == self.request.attempt
        )

    async def _read_and_feed(
        self, job: SlurmJob, analyzer: LogAnalyzer, now: float
    ) -> list[Finding]:
        """New complete lines to the analyzer: by block when it can take them (the engine)."""
        scanner, cursor = self.log.scanner, self.log.cursor
        if scanner is None:
            return []
        feed_block = getattr(analyzer, "feed_block", None)
        try:
            chunks = await asyncio.to_thread(
                scanner.read_blocks if feed_block else scanner.read_lines
            )
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
        if not await self._still_running(job):
            return None  # silence because it ended: the loop sees the real end next
        self.first_finding = self.first_finding or finding
        self._beat(force=True)
        return self._observation(finding.kind, job, finding.summary)
