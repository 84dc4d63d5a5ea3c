"""One reader of every watched log in a worker process, so 1,000 watches are not 1,000 threads.

Each watch activity used to read its log with its own `asyncio.to_thread` every poll: at 1,000
jobs, 2,000 thread hops a second, most of them reading nothing. Here a watch hands its scanner to
the process's `LogReader` and awaits its own result; the reader gathers the requests that arrive
within a short window, and one thread call serves them all: each scanner first asks whether
anything could be read (`LogScanner.unchanged`: one `lseek` of its open file, and every few
polls a `stat` of its path for a replacement), and only those that may have new bytes are
read. What is read, and how (the opener's access checks as the job's user, replacement,
truncation, the cursor), is the scanner's own, unchanged: the reader only decides when
scanners are called, and that no scanner is read by two threads at once.

N watches polling every P seconds make about N x window / P requests per thread call (1,000
watches, 0.5 s, 0.05 s: ~100). The watches keep their own phases (each poll sleeps the interval
give or take 10 %, `activities/watch.py`): answered by one batch and sleeping exactly the
interval, they would wake together for ever, and the whole worker would poll and heartbeat in
lock-step.

A read that does not return (a hung NFS or Lustre mount under one job's log) must not stop the
others: a batch still running after `stall_s` is left to finish in its own thread, and the
reader goes on with the next batches in other threads of its own pool. The watches of the
stalled batch wait for it (their scanners are not read twice at once, and nothing read is
dropped); their jobs' Slurm states are still polled by the cluster poller.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from activities.logs.scanner import LogScanner


@dataclass
class _Request:
    scanner: LogScanner
    blocks: bool
    future: asyncio.Future[list[str]]


@dataclass
class _Outcome:
    chunks: list[str] = field(default_factory=list)
    error: BaseException | None = None
    read: bool = False  # the scanner was read (not skipped as unchanged)


def _serve(batch: list[_Request]) -> list[_Outcome]:
    """In the reader's thread: each request's chunks, or the error its read raised."""
    outcomes: list[_Outcome] = []
    for request in batch:
        scanner = request.scanner
        try:
            if scanner.unchanged():
                outcomes.append(_Outcome())
            elif request.blocks:
                outcomes.append(_Outcome(scanner.read_blocks(), read=True))
            else:
                outcomes.append(_Outcome(scanner.read_lines(), read=True))
        except Exception as exc:  # handed to the watch that asked, as its own read raised it
            outcomes.append(_Outcome(error=exc, read=True))
    return outcomes


class LogReader:
    """Batches the log reads of a process's watch activities into one thread call per window."""

    def __init__(self, gather_s: float = 0.05, stall_s: float = 5.0, threads: int = 16) -> None:
        self._gather_s = gather_s
        self._stall_s = stall_s
        # Its own pool: stalled reads hold threads the event loop's default pool also serves.
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="ajr-log-reader")
        self._queue: list[_Request] = []
        self._in_flight: set[int] = set()  # id() of the scanners being read right now
        self._close_after: list[LogScanner] = []  # closed once their read is over
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # thread calls made (tests, benches)
        self.reads = 0  # scanners actually read (not skipped by `unchanged`)
        self.stalls = 0  # batches left to finish on their own after `stall_s`

    async def read(self, scanner: LogScanner, *, blocks: bool = True) -> list[str]:
        """The scanner's next chunks (`read_blocks`, or `read_lines` when not `blocks`); raises
        what the scanner's read raised (`LogUnavailable`, `LogAccessDenied`)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[str]] = loop.create_future()
        self._queue.append(_Request(scanner, blocks, future))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain())
        return await future

    def close(self, scanner: LogScanner) -> None:
        """Close `scanner` now, or as soon as a read of it in the reader's thread is over."""
        if id(scanner) in self._in_flight:
            self._close_after.append(scanner)
        else:
            scanner.close()

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            if self._gather_s > 0:
                await asyncio.sleep(self._gather_s)
            else:
                await asyncio.sleep(0)
            # Cancelled requests are not read; those of a stalled batch's scanners wait for it.
            pending = [r for r in self._queue if not r.future.done()]
            batch = [r for r in pending if id(r.scanner) not in self._in_flight]
            self._queue = [r for r in pending if id(r.scanner) in self._in_flight]
            if not batch:
                await asyncio.sleep(0.05)  # only a stalled batch's watches wait: no busy loop
                continue
            scanners = {id(r.scanner) for r in batch}
            self._in_flight |= scanners
            served = loop.run_in_executor(self._pool, _serve, batch)
            settle = functools.partial(self._settle, batch=batch, scanners=scanners)
            try:
                done, _ = await asyncio.wait({served}, timeout=self._stall_s)
            except BaseException:
                served.add_done_callback(settle)
                raise
            if not done:  # a hung filesystem: the batch answers when its read returns
                self.stalls += 1
                served.add_done_callback(settle)
                continue
            settle(served)

    def _settle(
        self, served: asyncio.Future[list[_Outcome]], *, batch: list[_Request], scanners: set[int]
    ) -> None:
        """Hand a finished batch's results to its watches; close what waited for its read."""
        self._in_flight -= scanners
        closing = [s for s in self._close_after if id(s) in scanners]
        self._close_after = [s for s in self._close_after if id(s) not in scanners]
        for scanner in closing:
            scanner.close()
        self.batches += 1
        if served.cancelled() or served.exception() is not None:
            # The thread call itself failed: no watch waits forever.
            exc = None if served.cancelled() else served.exception()
            for request in batch:
                if request.future.done():
                    continue
                if isinstance(exc, Exception):
                    request.future.set_exception(exc)
                else:
                    request.future.cancel()
            return
        for request, outcome in zip(batch, served.result(), strict=True):
            self.reads += outcome.read
            if request.future.done():
                continue  # its watch was cancelled meanwhile: what was read stays read
            if outcome.error is not None:
                request.future.set_exception(outcome.error)
            else:
                request.future.set_result(outcome.chunks)

    async def aclose(self) -> None:
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._pool.shutdown(wait=False, cancel_futures=True)  # a stalled read is not waited for
