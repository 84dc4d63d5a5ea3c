"""The process's one log reader: many watches' reads in one thread call, the same results."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from activities.logs import scanner as scanner_module
from activities.logs.access import JobUser, opener_for
from activities.logs.reader import LogReader
from activities.logs.scanner import LogScanner, LogUnavailable

pytestmark = pytest.mark.unit


def scanners(tmp_path: Path, count: int) -> tuple[list[Path], list[LogScanner]]:
    paths = [tmp_path / f"job{i}.log" for i in range(count)]
    for i, path in enumerate(paths):
        path.write_text(f"job {i} line 1\njob {i} line 2\n")
    return paths, [LogScanner(str(path)) for path in paths]


async def test_concurrent_reads_are_one_thread_call_with_each_watchs_own_lines(
    tmp_path: Path,
) -> None:
    reader = LogReader(gather_s=0.01)
    paths, scans = scanners(tmp_path, 50)
    first = await asyncio.gather(*(reader.read(s) for s in scans))
    assert reader.batches == 1 and reader.reads == 50
    assert first == [[f"job {i} line 1\njob {i} line 2"] for i in range(50)]
    # Nothing new: one stat each, no read, nothing returned.
    assert await asyncio.gather(*(reader.read(s) for s in scans)) == [[]] * 50
    assert reader.batches == 2 and reader.reads == 50
    with paths[7].open("a") as out:
        out.write("job 7 line 3\npartial")
    lines = await asyncio.gather(*(reader.read(s, blocks=False) for s in scans))
    assert lines[7] == ["job 7 line 3"] and sum(map(len, lines)) == 1
    assert reader.reads == 51 and scans[7].offset == paths[7].stat().st_size - len("partial")


async def test_truncation_and_replacement_are_the_scanners_as_before(tmp_path: Path) -> None:
    reader = LogReader(gather_s=0)
    paths, (scan,) = scanners(tmp_path, 1)
    assert await reader.read(scan, blocks=False) == ["job 0 line 1", "job 0 line 2"]
    paths[0].write_text("new\n")  # truncated in place: shorter than what was read
    assert await reader.read(scan, blocks=False) == ["new"]
    replacement = tmp_path / "other.log"
    replacement.write_text("rotated 1\n")
    with paths[0].open("a") as out:
        out.write("last of the old file\n")
    os.replace(replacement, paths[0])  # the path now names another inode: drain, then reopen
    assert await reader.read(scan, blocks=False) == ["last of the old file", "rotated 1"]
    assert scan.unchanged() and scan.offset == paths[0].stat().st_size


async def test_an_error_reaches_only_the_watch_whose_log_failed(tmp_path: Path) -> None:
    reader = LogReader(gather_s=0.01)
    _, scans = scanners(tmp_path, 3)
    missing = LogScanner(str(tmp_path / "missing.log"))
    results = await asyncio.gather(
        *(reader.read(s) for s in [*scans, missing]), return_exceptions=True
    )
    assert isinstance(results[3], LogUnavailable)
    assert all(isinstance(r, list) and len(r) == 1 for r in results[:3])
    assert reader.batches == 1


async def test_the_access_checks_still_apply(tmp_path: Path) -> None:
    """A log that is not the job user's own is refused through the reader too."""
    reader = LogReader(gather_s=0)
    path = tmp_path / "job.log"
    path.write_text("line\n")
    stranger = JobUser(uid=os.getuid() + 4242, gid=os.getgid() + 4242)
    with pytest.raises(LogUnavailable):
        await reader.read(LogScanner(str(path), opener=opener_for(stranger)))


async def test_a_cancelled_watch_neither_blocks_the_others_nor_closes_under_a_read(
    tmp_path: Path,
) -> None:
    reader = LogReader(gather_s=0.05)
    _, scans = scanners(tmp_path, 3)
    gone = asyncio.create_task(reader.read(scans[0]))
    others = asyncio.gather(reader.read(scans[1]), reader.read(scans[2]))
    await asyncio.sleep(0)
    gone.cancel()  # cancelled while gathered: never read
    assert len(await others) == 2
    assert gone.cancelled() and reader.reads == 2
    # A close asked for while the thread reads that scanner waits for the read to end.
    reader._in_flight = {id(scans[1])}
    reader.close(scans[1])
    assert scans[1]._fh is not None
    reader._in_flight = set()
    reader.close(scans[2])
    assert scans[2]._fh is None


async def test_unchanged_is_a_stat_that_never_hides_a_read(tmp_path: Path) -> None:
    _, (scan,) = scanners(tmp_path, 1)
    assert not scan.unchanged(), "not yet open: read it"
    scan.read_lines()
    assert scan.unchanged()
    with open(scan.path, "a") as out:
        out.write("x")  # a partial line still moves the size
    assert not scan.unchanged()
    scan.read_lines()
    assert scan.unchanged()
    os.unlink(scan.path)  # path gone: read the open handle, as before
    assert not scan.unchanged()


class _HungScanner(LogScanner):
    """A log on a filesystem that stops answering: its stat blocks until released."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.answer = threading.Event()

    def unchanged(self) -> bool:
        self.answer.wait(timeout=30)
        return super().unchanged()


async def test_a_hung_read_stops_only_its_own_batch(tmp_path: Path) -> None:
    reader = LogReader(gather_s=0.01, stall_s=0.2)
    paths, scans = scanners(tmp_path, 3)
    hung = _HungScanner(str(paths[0]))
    stuck = asyncio.ensure_future(reader.read(hung))
    await asyncio.sleep(0.05)  # the hung read's batch is under way
    # Every other watch is served while the hung read has not returned, again and again.
    for _ in range(3):
        others = await asyncio.wait_for(asyncio.gather(*(reader.read(s) for s in scans[1:])), 5)
        assert len(others) == 2
    assert reader.stalls == 1 and not stuck.done()
    again = asyncio.ensure_future(reader.read(hung))  # not read twice at once: waits its turn
    await asyncio.sleep(0.3)
    assert not again.done()
    hung.answer.set()  # the filesystem answers: nothing read is lost
    assert await asyncio.wait_for(stuck, 5) == ["job 0 line 1\njob 0 line 2"]
    assert await asyncio.wait_for(again, 5) == []
    await reader.aclose()


# --- a quiet log between two looks at its path: one lseek of the open file ----------------------


class _Clock:
    """The scanner's monotonic clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(scanner_module, "_monotonic", fake)
    return fake


@pytest.fixture
def path_stats(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every `os.stat` of a path made while the test runs (the real one answers)."""
    seen: list[str] = []
    real = os.stat

    def counting(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        seen.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counting)
    return seen


def test_between_path_checks_a_quiet_log_costs_no_stat_of_its_path(
    tmp_path: Path, clock: _Clock, path_stats: list[str]
) -> None:
    _, (plain,) = scanners(tmp_path, 1)
    scan = LogScanner(plain.path, path_check_s=2.0)
    scan.read_lines()
    path_stats.clear()
    assert all(scan.unchanged() for _ in range(20))
    assert path_stats == [], "one lseek of the open file each, no path lookup"
    with open(scan.path, "a") as out:
        out.write("x")  # an append (a partial line too) is seen at once, without the path
    assert not scan.unchanged()
    assert scan.read_lines() == [] and scan.unchanged()
    Path(scan.path).write_text("short\n")  # truncated in place: seen at once too
    assert not scan.unchanged()
    assert scan.read_lines() == ["short"]
    path_stats.clear()
    clock.now += 1.9
    assert scan.unchanged() and path_stats == []
    clock.now += 0.1  # `path_check_s` after the read's own look at the path: one stat
    assert scan.unchanged() and path_stats == [scan.path]
    assert scan.unchanged() and path_stats == [scan.path]
    scan.close()


async def test_a_replacement_is_followed_by_the_next_path_check(
    tmp_path: Path, clock: _Clock
) -> None:
    """The trade: a log replaced while its old file gets no new bytes is read up to
    `path_check_s` later, not at the next poll; a scanner without it sees it at once."""
    reader = LogReader(gather_s=0)
    paths, (plain,) = scanners(tmp_path, 1)
    scan = LogScanner(str(paths[0]), path_check_s=2.0)
    assert await reader.read(scan, blocks=False) == ["job 0 line 1", "job 0 line 2"]
    plain.read_lines()
    replacement = tmp_path / "rotated.log"
    replacement.write_text("new 1\n")
    os.replace(replacement, paths[0])  # the old file gets nothing more
    assert not plain.unchanged(), "path_check_s=0 (the default): every call looks at the path"
    clock.now += 1.5
    assert await reader.read(scan, blocks=False) == [] and reader.reads == 1
    clock.now += 0.5
    assert await reader.read(scan, blocks=False) == ["new 1"] and reader.reads == 2
    assert scan.offset == len("new 1\n") and scan.unchanged()
    scan.close()
    plain.close()


def test_a_gone_path_is_looked_at_once_per_path_check_not_every_poll(
    tmp_path: Path, clock: _Clock
) -> None:
    paths, _ = scanners(tmp_path, 1)
    writer = paths[0].open("a")
    scan = LogScanner(str(paths[0]), path_check_s=2.0)
    scan.read_lines()
    os.unlink(paths[0])
    assert scan.unchanged(), "not yet looked at: the open file has nothing new"
    clock.now += 2.0
    assert not scan.unchanged(), "the path is gone: read the open handle, as before"
    assert scan.read_lines() == [] and scan.unchanged()
    writer.write("after the unlink\n")  # the job's writer still appends to the unlinked file
    writer.flush()
    assert not scan.unchanged()
    assert scan.read_lines() == ["after the unlink"]
    writer.close()
    scan.close()


def test_unchanged_is_false_when_the_open_file_cannot_answer(tmp_path: Path) -> None:
    paths, _ = scanners(tmp_path, 1)
    scan = LogScanner(str(paths[0]), path_check_s=60.0)
    scan.read_lines()
    assert scan._fh is not None
    scan._fh.close()  # a handle that fails (closed, I/O error): read it, the read reports
    assert not scan.unchanged()
    with pytest.raises(LogUnavailable):
        scan.read_lines()  # raised once, the handle dropped: the next read reopens
    assert scan.read_lines() == [] and scan.unchanged()
