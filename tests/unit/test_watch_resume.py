"""The attempt watcher: resumes from its heartbeated cursor, and never reads Slurm's silence.

Boundary fakes: a cluster snapshot and slurmctld's answers (tests/fakes.py) instead of Slurm.
The log file, the scanner and the analyzers are real.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import os
import time
from pathlib import Path
from typing import Any

import pytest
from temporalio.testing import ActivityEnvironment

from activities import watch as watch_module
from activities.logs.scanner import LogScanner
from activities.watch import AnalyzerFactory, WatchActivities
from analysis.analyzer import AnalyzerContext, LogAnalyzer
from analysis.engine import LogEngine
from analysis.signatures import SignatureAnalyzer
from models.recovery import LogCursor, Observation, Observed, RecoveryConfig, WatchRequest
from models.slurm import JobState, SlurmJob
from tests.fakes import FakePoller, FakeSlurm, engine_settings

pytestmark = pytest.mark.unit


def running_job(tmp_path: Path, head: str | None = None) -> tuple[SlurmJob, Path, int]:
    started = time.time() - 10
    stamp = time.strftime("date_%y-%m-%d_time_%H-%M-%S", time.localtime(started + 1))
    log = tmp_path / f"train_7_{stamp}.log"
    if head is None:
        head = (
            "0: iteration 1\n0: Saved checkpoint to /ckpt/1\n0: Segmentation fault (core dumped)\n"
        )
    log.write_text(head + "0: iteration 2 after a DataLoader worker restart\n")
    job = SlurmJob(
        job_id=7,
        name="train",
        state=JobState.RUNNING,
        nodes=("node1",),
        start_time=started,
        work_dir=str(tmp_path),
        stdout_path=str(tmp_path / "slurm-7.out"),
    )
    return job, log, len(head.encode())


def request(vanish_confirm_s: float = 60.0, **knobs: Any) -> WatchRequest:
    settings = engine_settings(
        **{"hang_timeout_s": 0.5, "checkpoint_patterns": ["Saved checkpoint to"], **knobs}
    )
    config = RecoveryConfig(vanish_confirm_s=vanish_confirm_s, analysis=settings)
    return WatchRequest(cluster="c", job_id=7, attempt=0, config=config)


def watcher(
    job: SlurmJob, analyzer: AnalyzerFactory = SignatureAnalyzer
) -> tuple[WatchActivities, FakePoller, FakeSlurm]:
    poller, control = FakePoller([job]), FakeSlurm([job])
    return WatchActivities(poller, control, analyzer, poll_interval=0.05), poller, control


async def test_fresh_watch_reads_from_the_top(tmp_path: Path) -> None:
    job, log, _ = running_job(tmp_path)
    activities, _, _ = watcher(job)
    observation = await ActivityEnvironment().run(activities.watch_attempt, request())
    assert observation.kind is Observed.CRASH
    assert observation.cursor.path == str(log) and observation.cursor.checkpoints == 1


async def test_resumed_watch_continues_from_the_heartbeated_offset(tmp_path: Path) -> None:
    job, log, offset = running_job(tmp_path)
    beats: list[object] = []
    env = ActivityEnvironment()
    env.on_heartbeat = lambda *details: beats.append(LogCursor(**details[0]))
    # What the dead worker last heartbeated: the crash line was already reported and acted on.
    cursor = LogCursor(
        path=str(log),
        offset=offset,
        lines=3,
        checkpoints=1,
        last_line_at=time.time(),
        running_since=job.start_time,
    )
    env.info = dataclasses.replace(env.info, heartbeat_details=[dataclasses.asdict(cursor)])
    activities, _, _ = watcher(job)
    observation = await env.run(activities.watch_attempt, request())
    # Not the old crash line again: only the new line was read, then silence -> HANG.
    assert observation.kind is Observed.HANG
    assert observation.cursor.offset == log.stat().st_size
    assert observation.cursor.lines == 4
    assert observation.cursor.checkpoints == 1  # carried over, not counted twice
    assert beats, "the watcher heartbeats its cursor"


def engine_factory(context: AnalyzerContext) -> LogAnalyzer:
    return LogEngine(context)


async def test_a_crash_awaiting_confirmation_survives_a_worker_restart(tmp_path: Path) -> None:
    """The probe's case: a CUDA OOM line, the process hangs, the worker dies inside the window."""
    lines = "".join(
        f"0: iteration {i} | elapsed time per iteration (ms): 2000.0 | lm loss: 2.0\n"
        for i in range(1, 6)
    )
    head = lines + "0: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    job, log, _ = running_job(tmp_path, head)
    log.write_text(head)  # nothing after the OOM line: the process hangs
    config = {"crash_confirm_s": 1.0, "hang_timeout_s": 60.0, "setup_timeout_s": 900.0}
    beats: list[Any] = []
    first = ActivityEnvironment()
    first.on_heartbeat = lambda *details: beats.append(LogCursor(**details[0]))
    activities, _, _ = watcher(job, engine_factory)
    dying = asyncio.create_task(first.run(activities.watch_attempt, request(**config)))
    await asyncio.sleep(0.5)  # the OOM line is read and pending; then the worker dies
    dying.cancel()
    with pytest.raises(asyncio.CancelledError):
        await dying
    saved = beats[-1]
    assert saved.offset == log.stat().st_size
    assert saved.analyzer["signals"], "the pending OOM signal is in the heartbeated cursor"

    resumed = ActivityEnvironment()
    resumed.info = dataclasses.replace(resumed.info, heartbeat_details=[dataclasses.asdict(saved)])
    activities, _, _ = watcher(job, engine_factory)
    started = time.monotonic()
    observation = await asyncio.wait_for(
        resumed.run(activities.watch_attempt, request(**config)), timeout=20
    )
    assert observation.kind is Observed.CRASH, observation
    assert "out of memory" in observation.detail.lower()
    assert time.monotonic() - started < 10  # the window, not the 900 s start-up allowance


async def test_a_finding_waits_for_slurm_to_confirm_and_is_kept_meanwhile(
    tmp_path: Path,
) -> None:
    job, _, _ = running_job(tmp_path)
    beats: list[Any] = []
    env = ActivityEnvironment()
    env.on_heartbeat = lambda *details: beats.append(LogCursor(**details[0]))
    activities, _, control = watcher(job)
    control.reachable = False  # the snapshot still says RUNNING; slurmctld cannot confirm
    task = asyncio.create_task(env.run(activities.watch_attempt, request(hang_timeout_s=60.0)))
    await asyncio.sleep(0.6)
    assert not task.done(), "never acted on while Slurm cannot confirm"
    assert beats and beats[-1].unconfirmed["kind"] == "CRASH"
    control.reachable = True
    observation = await asyncio.wait_for(task, timeout=5)
    assert observation.kind is Observed.CRASH
    assert "Segmentation fault" in observation.evidence[0]
    assert observation.cursor.unconfirmed == {}


async def test_a_controller_outage_is_noted_once_and_then_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch_module, "UNREACHABLE_REPORT_AFTER_S", 0.3)
    job, _, _ = running_job(tmp_path, head="0: iteration 1\n")
    activities, poller, control = watcher(job)
    poller.fail()
    control.reachable = False
    env = ActivityEnvironment()
    note = await asyncio.wait_for(
        env.run(activities.watch_attempt, request(hang_timeout_s=60.0)), timeout=5
    )
    assert note.kind is Observed.SLURM_UNREACHABLE and "unreachable" in note.detail
    assert note.cursor.slurm_unreachable_reported
    # The next watch goes on from that cursor: no second note for the same outage ...
    follow = dataclasses.replace(request(hang_timeout_s=60.0), cursor=note.cursor)
    task = asyncio.create_task(env.run(activities.watch_attempt, follow))
    await asyncio.sleep(0.6)
    assert not task.done()
    # ... and one when slurmctld answers again.
    poller.publish([job])
    control.reachable = True
    back = await asyncio.wait_for(task, timeout=5)
    assert back.kind is Observed.SLURM_RECOVERED and "answers again" in back.detail


async def test_vanished_only_after_slurm_says_invalid_job_id_for_a_while(tmp_path: Path) -> None:
    job, _, _ = running_job(tmp_path, head="0: iteration 1\n")
    activities, poller, control = watcher(job)
    poller.publish([])  # a good answer without the job
    control.jobs.clear()  # and slurmctld says "Invalid job id"
    watch_module.DIRECT_CHECK_EVERY_S = 0.05
    try:
        started = time.monotonic()
        observation: Observation = await asyncio.wait_for(
            ActivityEnvironment().run(
                activities.watch_attempt, request(hang_timeout_s=60.0, vanish_confirm_s=1.0)
            ),
            timeout=5,
        )
        assert observation.kind is Observed.VANISHED
        assert time.monotonic() - started >= 1.0
        assert control.calls.count("job_known") >= 3  # asked again and again, not once
    finally:
        watch_module.DIRECT_CHECK_EVERY_S = 2.0


async def test_never_vanished_while_slurm_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slurm 22.05's degraded answer (no jobs, an error) must never look like a gone job."""
    monkeypatch.setattr(watch_module, "UNREACHABLE_REPORT_AFTER_S", 3600.0)
    job, _, _ = running_job(tmp_path, head="0: iteration 1\n")
    activities, poller, control = watcher(job)
    poller.publish([])
    control.reachable = False
    task = asyncio.create_task(
        ActivityEnvironment().run(
            activities.watch_attempt, request(hang_timeout_s=60.0, vanish_confirm_s=0.1)
        )
    )
    await asyncio.sleep(1.0)
    assert not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_an_unconfirmed_finding_is_carried_through_an_outage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read just before slurmctld froze: noted unreachable, back, then acted on; never lost."""
    monkeypatch.setattr(watch_module, "UNREACHABLE_REPORT_AFTER_S", 0.3)
    job, _, _ = running_job(tmp_path)
    activities, poller, control = watcher(job)
    control.reachable = False  # the snapshot still says RUNNING; confirmation fails
    env = ActivityEnvironment()
    task = asyncio.create_task(env.run(activities.watch_attempt, request(hang_timeout_s=60.0)))
    await asyncio.sleep(0.3)
    poller.fail()  # now the cluster poll fails too
    note = await asyncio.wait_for(task, timeout=5)
    assert note.kind is Observed.SLURM_UNREACHABLE
    assert note.cursor.unconfirmed["kind"] == "CRASH"
    poller.publish([job])
    control.reachable = True
    back = await env.run(
        activities.watch_attempt,
        dataclasses.replace(request(hang_timeout_s=60.0), cursor=note.cursor),
    )
    assert back.kind is Observed.SLURM_RECOVERED and back.cursor.unconfirmed["kind"] == "CRASH"
    crash = await env.run(
        activities.watch_attempt,
        dataclasses.replace(request(hang_timeout_s=60.0), cursor=back.cursor),
    )
    assert crash.kind is Observed.CRASH and "Segmentation fault" in crash.evidence[0]


async def test_the_cursor_carries_the_attempts_milestones(tmp_path: Path) -> None:
    """Loaded checkpoint, first step, last finished save and a save the failure cut off."""
    head = (
        "0: loading checkpoint from /ckpt at iteration 20\n"
        "0:  successfully loaded checkpoint from /ckpt at iteration 20\n"
        + "".join(
            f"0:  iteration {i} | elapsed time per iteration (ms): 900.0 | lm loss: 2.0\n"
            for i in range(21, 31)
        )
        + "0: saving checkpoint at iteration      30 to /ckpt\n"
        "0:   successfully saved checkpoint at iteration      30 to /ckpt\n"
        "0:  iteration 31 | elapsed time per iteration (ms): 900.0 | lm loss: 2.0\n"
        "0: saving checkpoint at iteration      40 to /ckpt\n"
    )
    job, log, _ = running_job(tmp_path, head)
    log.write_text(head)
    activities, poller, control = watcher(job, engine_factory)
    ended = dataclasses.replace(job, state=JobState.NODE_FAIL)
    poller.publish([ended])
    control.jobs[job.job_id] = ended
    observation = await asyncio.wait_for(
        ActivityEnvironment().run(activities.watch_attempt, request(hang_timeout_s=60.0)),
        timeout=10,
    )
    cursor = observation.cursor
    assert (cursor.loaded_step, cursor.last_save_step) == (20, 30)
    assert cursor.loaded_at and cursor.last_save_at and cursor.first_step_at
    assert cursor.loaded_at <= cursor.first_step_at <= cursor.last_save_at
    assert cursor.interrupted_saves == 1  # the save at 40 never finished: the node failed


async def test_the_next_attempt_never_takes_the_log_of_the_one_before(tmp_path: Path) -> None:
    """Requeued before the watch of attempt 0 read its log (its record names none): Slurm shows
    the job COMPLETING with restart count 1 and a start time that covers attempt 0's log. The
    watch of attempt 1 waits for attempt 1's own run and takes its log, with the crash in it."""
    now = time.time()

    def stamp(at: float) -> str:
        return time.strftime("date_%y-%m-%d_time_%H-%M-%S", time.localtime(at))

    previous = tmp_path / f"train_7_{stamp(now - 3)}.log"
    previous.write_text("0: iteration 1\n")  # attempt 0: healthy
    finishing = SlurmJob(
        job_id=7,
        name="train",
        state=JobState.COMPLETING,
        restart_count=1,
        nodes=("node1",),
        start_time=int(now - 3),
        work_dir=str(tmp_path),
        stdout_path=str(tmp_path / "slurm-7.out"),
    )
    activities, poller, control = watcher(finishing)
    task = asyncio.create_task(
        ActivityEnvironment().run(
            activities.watch_attempt,
            dataclasses.replace(request(hang_timeout_s=60.0), attempt=1),
        )
    )
    await asyncio.sleep(0.5)  # attempt 0 finishing: nothing of attempt 1 to watch yet
    assert not task.done()
    queued = control.update(7, state=JobState.PENDING, start_time=now + 120)
    poller.publish([queued])
    await asyncio.sleep(0.3)
    started = int(now - 1)
    own = tmp_path / f"train_7_{stamp(started)}.log"
    own.write_text("0: iteration 1\n0: Segmentation fault (core dumped)\n")
    running = control.update(7, state=JobState.RUNNING, start_time=started)
    poller.publish([running])
    observation = await asyncio.wait_for(task, timeout=5)
    assert (observation.kind, observation.cursor.path) == (Observed.CRASH, str(own))
    assert observation.cursor.running_since == started  # not attempt 0's start


async def test_an_attempt_that_logs_and_ends_between_two_looks_is_still_read(
    tmp_path: Path,
) -> None:
    """The log did not exist at the watch's first look (locating is throttled to once per
    LOCATE_EVERY_S); the attempt then wrote its failure and ended before the next look. Its end
    is judged with its log read, not as an exit without a cause."""
    now = time.time()
    started = int(now - 1)
    job = SlurmJob(
        job_id=7,
        name="train",
        state=JobState.RUNNING,
        nodes=("node1", "node2"),
        start_time=started,
        work_dir=str(tmp_path),
        stdout_path=str(tmp_path / "slurm-7.out"),
    )
    activities, poller, control = watcher(job, engine_factory)
    task = asyncio.create_task(
        ActivityEnvironment().run(activities.watch_attempt, request(hang_timeout_s=60.0))
    )
    await asyncio.sleep(0.2)  # looked for the log once: none yet
    stamp = time.strftime("date_%y-%m-%d_time_%H-%M-%S", time.localtime(started))
    (tmp_path / f"train_7_{stamp}.log").write_text(
        "0: iteration 1\n"
        "1: node2:4242:4250 [1] NCCL WARN NET/IB : Got completion from peer 10.0.0.1<1> with"
        " error 12, opcode 0, len 0, vendor err 129 (Send)\n"
    )
    poller.publish([control.update(7, state=JobState.FAILED)])
    observation = await asyncio.wait_for(task, timeout=5)
    assert observation.kind is Observed.EXITED
    assert observation.cursor.path, "the ended attempt's log was located and read"
    assert observation.category == "NETWORK", observation


async def test_heartbeat_details_are_rebuilt_only_when_the_cursor_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every heartbeat carries the cursor (Temporal keeps only the latest details), but an
    unchanged one is the same plain dict again, not a dataclass converted field by field."""
    job, log, _ = running_job(tmp_path, head="0: iteration 1\n")
    monkeypatch.setattr(watch_module, "HEARTBEAT_EVERY_S", 0.0)
    beats: list[Any] = []
    env = ActivityEnvironment()
    env.on_heartbeat = lambda *details: beats.append(details[0])
    activities, _, _ = watcher(job)
    task = asyncio.create_task(env.run(activities.watch_attempt, request(hang_timeout_s=60.0)))
    await asyncio.sleep(0.5)
    quiet = beats[-1]
    assert type(quiet) is dict and quiet["offset"] == log.stat().st_size and quiet["lines"] == 2
    assert sum(beat is quiet for beat in beats) >= 3, "unchanged: the same details, re-sent"
    with log.open("a") as out:
        out.write("0: iteration 3\n")
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert beats[-1] is not quiet and beats[-1]["offset"] == log.stat().st_size
    assert beats[-1]["lines"] == 3 and quiet["lines"] == 2  # what was sent is never changed
    resumed = LogCursor(**beats[-1])
    assert resumed.path == str(log) and resumed.analyzer == beats[-1]["analyzer"]


async def test_each_poll_sleeps_the_interval_give_or_take_a_tenth() -> None:
    """Watches answered by one batch of the shared log reader must not wake together for ever."""
    slept: list[float] = []

    class Recording(watch_module.Clock):
        async def sleep(self, seconds: float) -> None:
            slept.append(seconds)

    job = SlurmJob(job_id=7, name="train", state=JobState.RUNNING)
    activities = WatchActivities(
        FakePoller([job]), FakeSlurm([job]), SignatureAnalyzer, poll_interval=0.5, clock=Recording()
    )
    watcher = watch_module._AttemptWatcher(activities, request(), LogCursor())
    for _ in range(200):
        await watcher._pause()
    assert all(0.45 <= s <= 0.55 for s in slept) and len(set(slept)) > 100
    assert abs(sum(slept) / len(slept) - 0.5) < 0.01  # the same poll rate on average


async def test_a_replaced_log_is_followed_within_a_few_polls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between two looks at its path a quiet log costs one lseek of its open file: a log
    swapped under the watch (its old file getting nothing more) is still followed, at the next
    look, `PATH_CHECK_EVERY_POLLS` polls at most."""
    built: list[LogScanner] = []

    class Recorded(LogScanner):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(watch_module, "LogScanner", Recorded)
    job, log, _ = running_job(tmp_path, head="0: iteration 1\n")
    activities, _, _ = watcher(job)
    env = ActivityEnvironment()
    task = asyncio.create_task(env.run(activities.watch_attempt, request(hang_timeout_s=60.0)))
    await asyncio.sleep(0.3)
    assert not task.done()
    swapped = tmp_path / "swapped.log"
    swapped.write_text("0: Segmentation fault (core dumped)\n")
    os.replace(swapped, log)
    started = time.monotonic()
    observation = await asyncio.wait_for(task, timeout=5)
    assert observation.kind is Observed.CRASH and observation.cursor.path == str(log)
    assert observation.cursor.offset == log.stat().st_size
    # 4 polls of 0.05 s: seen well within a second (a slack for a loaded host)
    assert time.monotonic() - started < 1.0
    assert [scanner._path_check_s for scanner in built] == [0.05 * 4]


async def test_sleeps_due_at_one_tick_share_one_timer_and_never_end_early() -> None:
    clock = watch_module.Clock(tick_s=0.05)
    loop = asyncio.get_running_loop()
    woke: dict[int, tuple[float, float]] = {}

    async def sleeper(n: int, seconds: float) -> None:
        asked = loop.time() + seconds
        await clock.sleep(seconds)
        woke[n] = (asked, loop.time())

    timers: list[float] = []  # when each timer the clock set is due
    real_call_at = loop.call_at

    def counting_call_at(when: float, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
        timers.append(when)
        return real_call_at(when, *args, **kwargs)

    loop.call_at = counting_call_at  # type: ignore[method-assign]
    try:
        seconds = [0.2 + i * 0.0005 for i in range(100)]  # due within 0.05 s: 1 or 2 ticks
        await asyncio.gather(*(sleeper(n, s) for n, s in enumerate(seconds)))
    finally:
        del loop.call_at  # type: ignore[method-assign]
    assert len(woke) == 100 and not clock._due
    assert len(set(timers)) == len(timers), "one timer per tick, not per sleeper"
    # The sleepers start one after another, so on a loaded host their due times spread past
    # the 0.05 s asked for: they may then span one more tick, never one timer each.
    dues = [asked for asked, _ in woke.values()]
    spanned = math.floor((max(dues) - min(dues) + 1e-3) / 0.05) + 2
    assert len(timers) <= min(spanned, 10)
    for asked, at in woke.values():
        assert asked <= at + 1e-6, "never before its due time"
        assert at - asked < 0.05 + 0.1  # the tick, and slack for a loaded host


async def test_a_cancelled_sleep_raises_and_wakes_no_one_else_early_or_late() -> None:
    clock = watch_module.Clock(tick_s=0.05)
    gone = asyncio.create_task(clock.sleep(0.1))
    stays = asyncio.create_task(clock.sleep(0.1))
    await asyncio.sleep(0.01)
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    await asyncio.wait_for(stays, 1)
    await clock.sleep(0)  # no tick to wait for
    assert not clock._due


def test_the_watches_clock_ticks_with_the_readers_gathering_window() -> None:
    job = SlurmJob(job_id=7, name="train", state=JobState.RUNNING)
    for poll, tick in [(0.5, 0.05), (0.05, 0.005)]:
        activities = WatchActivities(
            FakePoller([job]), FakeSlurm([job]), SignatureAnalyzer, poll_interval=poll
        )
        assert activities._clock._tick_s == pytest.approx(tick)
        assert activities._reader._gather_s == pytest.approx(tick)
