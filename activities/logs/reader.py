"""One reader of every watched log in a worker process, so 1,000 watches are not 1,000 threads.

Each watch activity used to read its log with its own `asyncio.to_thread` every poll: at 1,000
jobs, 2,000 thread hops a second, most of them reading nothing. Here a watch hands its scanner to
the process's `LogReader` and awaits its own result; the reader gathers the requests that arrive
within a short window, and one thread call serves them all: each scanner first asks one `stat`
of its path whether anything could be read (`LogScanner.unchanged`), and only those that may
have new bytes are read. What is read, and how (the opener's access checks as the job's user,
replacement, truncation, the cursor), is the scanner's own, unchanged: the reader only decides
when scanners are called, and that no scanner is read by two threads at once.

N watches polling every P seconds make about N x window / P requests per thread call (1,000
watches, 0.5 s, 0.05 s: ~100). The watches keep their own phases (each poll sleeps the interval
give or take 10 %, `activities/watch.py`): answered by one batch and sleeping exactly the
interval, they would wake together for ever, and the whole worker would poll and heartbeat in
lock-step.
"""

from __future__ import annotations

import asyncio
import contextlib
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

    def __init__(self, gather_s: float = 0.05) -> None:
        self._gather_s = gather_s
        self._queue: list[_Request] = []
        self._in_flight: set[int] = set()  # id() of the scanners being read right now
        self._close_after: list[LogScanner] = []  # closed once their read is over
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # thread calls made (tests, benches)
        self.reads = 0  # scanners actually read (not skipped by `unchanged`)

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
        while self._queue:
            if self._gather_s > 0:
                await asyncio.sleep(self._gather_s)
            else:
                await asyncio.sleep(0)
            batch = [r for r in self._queue if not r.future.done()]  # cancelled: not read
            self._queue = []
            if not batch:
                continue
            self._in_flight = {id(r.scanner) for r in batch}
            try:
                outcomes = await asyncio.to_thread(_serve, batch)
            except BaseException as exc:  # the thread call itself failed: no watch waits forever
                waiting, self._queue = batch + self._queue, []
                for request in waiting:
                    if request.future.done():
                        continue
                    if isinstance(exc, Exception):
                        request.future.set_exception(exc)
                    else:
                        request.future.cancel()
                raise
            finally:
                self._in_flight = set()
                closing, self._close_after = self._close_after, []
                for scanner in closing:
                    scanner.close()
            self.batches += 1
            for request, outcome in zip(batch, outcomes, strict=True):
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
