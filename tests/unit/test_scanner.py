"""LogScanner: complete lines only, resumable offsets, truncation/rotation, bounded memory."""

from __future__ import annotations

import io
import os
import re
import tracemalloc
from pathlib import Path
from typing import BinaryIO

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from activities.logs.scanner import LogScanner, LogUnavailable

pytestmark = pytest.mark.unit

MARKER = re.compile(r"^(?P<text>.*) …\[truncated (?P<n>\d+) bytes\]$", re.DOTALL)


def write(path: Path, data: bytes, mode: str = "ab") -> None:
    with open(path, mode) as fh:
        fh.write(data)


@pytest.mark.parametrize(
    ("content", "limit", "lines", "offset"),
    [
        (b"", 64, [], 0),
        (b"a\nb\n", 64, ["a", "b"], 4),
        (b"a\nb", 64, ["a"], 2),  # the partial "b" waits for its newline
        (b"no newline yet", 64, [], 0),
        (b"\n\n", 64, ["", ""], 2),
        (b"x\r\ny\r\n", 64, ["x", "y"], 6),  # CRLF
        (b"x\ry\n", 64, ["x\ry"], 4),  # a lone CR (progress bars) does not end a line
        ("é ü 中\n".encode(), 64, ["é ü 中"], len("é ü 中\n".encode())),
        (b"bad \xff byte\n", 64, ["bad \ufffd byte"], 11),
        (b"abcd\n", 4, ["abcd"], 5),  # exactly the limit: untouched
        (b"abcdefgh\nz\n", 4, ["abcd …[truncated 4 bytes]", "z"], 11),
        # the cut falls inside "é" (2 bytes): keep whole characters only
        ("abcé\n".encode(), 4, ["abc …[truncated 2 bytes]"], 6),
        (b"abcd\r\n", 4, ["abcd …[truncated 1 bytes]"], 6),  # the CR counts towards the limit
    ],
)
def test_read_lines_table(
    tmp_path: Path, content: bytes, limit: int, lines: list[str], offset: int
) -> None:
    path = tmp_path / "job.log"
    write(path, content, "wb")
    with LogScanner(str(path), max_line_bytes=limit) as scanner:
        assert scanner.read_lines() == lines
        assert scanner.offset == offset
        assert scanner.pending_bytes == len(content) - offset
        assert scanner.read_lines() == []  # nothing new: nothing returned twice


def test_partial_line_completes_on_a_later_read(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"one\ntw", "wb")
    scanner = LogScanner(str(path))
    assert scanner.read_lines() == ["one"]
    write(path, b"o\nthree")
    assert scanner.read_lines() == ["two"]
    assert scanner.offset == len(b"one\ntwo\n")
    write(path, b"\n")
    assert scanner.read_lines() == ["three"]
    scanner.close()


def test_resume_at_offset_rereads_the_partial_line(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"one\ntw", "wb")
    first = LogScanner(str(path))
    assert first.read_lines() == ["one"]
    saved = first.offset
    first.close()
    write(path, b"o\n")
    with LogScanner(str(path), saved) as second:
        assert second.read_lines() == ["two"]


def test_truncated_file_restarts_at_zero(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"old line one\nold line two\n", "wb")
    scanner = LogScanner(str(path))
    assert len(scanner.read_lines()) == 2
    write(path, b"new\n", "wb")  # same inode, shorter
    assert scanner.read_lines() == ["new"]
    assert scanner.offset == 4
    scanner.close()


def test_resume_offset_beyond_the_end_restarts_at_zero(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"fresh\n", "wb")
    with LogScanner(str(path), offset=10_000) as scanner:
        assert scanner.read_lines() == ["fresh"]


def test_replaced_file_drains_the_old_one_then_reads_the_new_from_zero(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"a\nb", "wb")
    scanner = LogScanner(str(path))
    assert scanner.read_lines() == ["a"]
    os.rename(path, tmp_path / "job.log.1")
    write(tmp_path / "job.log.1", b"tail\nlast-no-newline")  # the old writer finishes
    write(path, b"c\nd\n", "wb")
    assert scanner.read_lines() == ["btail", "last-no-newline", "c", "d"]
    assert scanner.offset == 4  # an offset in the new file
    write(path, b"e\n")
    assert scanner.read_lines() == ["e"]
    scanner.close()


def test_replacement_drain_respects_max_bytes(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"", "wb")
    scanner = LogScanner(str(path))
    assert scanner.read_lines() == []
    os.rename(path, tmp_path / "old")
    write(tmp_path / "old", b"0123456789\n" * 3)
    write(path, b"new\n", "wb")
    got: list[str] = []
    for _ in range(10):
        got += scanner.read_lines(max_bytes=11)
    assert got == ["0123456789"] * 3 + ["new"]
    scanner.close()


def test_deleted_file_keeps_reading_the_open_handle(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    fh = open(path, "wb")  # noqa: SIM115 - the writer stays open across the unlink
    fh.write(b"a\n")
    fh.flush()
    scanner = LogScanner(str(path))
    assert scanner.read_lines() == ["a"]
    os.unlink(path)
    fh.write(b"b\n")
    fh.flush()
    assert scanner.read_lines() == ["b"]  # the writer still appends to the unlinked inode
    fh.close()
    scanner.close()


def test_missing_file_raises_log_unavailable_then_recovers(tmp_path: Path) -> None:
    path = tmp_path / "later.log"
    scanner = LogScanner(str(path))
    with pytest.raises(LogUnavailable) as info:
        scanner.read_lines()
    assert "does not exist" in info.value.reason
    write(path, b"hello\n", "wb")
    assert scanner.read_lines() == ["hello"]
    scanner.close()


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (PermissionError(13, "Permission denied"), "no permission"),
        (FileNotFoundError(2, "No such file"), "does not exist"),
        (IsADirectoryError(21, "Is a directory"), "cannot open"),
        (RuntimeError("helper crashed"), "helper crashed"),  # injected openers may fail oddly
    ],
)
def test_opener_failures_become_log_unavailable(error: Exception, reason: str) -> None:
    def opener(path: str) -> BinaryIO:
        raise error

    with pytest.raises(LogUnavailable) as info:
        LogScanner("/x/job.log", opener=opener).read_lines()
    assert reason in info.value.reason


class FlakyReader(io.BytesIO):
    """A BytesIO that serves 2 bytes per read and fails at position `fail_at[0]` and beyond."""

    def __init__(self, data: bytes, fail_at: list[int]) -> None:
        super().__init__(data)
        self.fail_at = fail_at

    def read(self, size: int | None = -1) -> bytes:
        if self.tell() >= self.fail_at[0]:
            raise OSError(5, "Input/output error")
        return super().read(2)


def test_read_error_keeps_lines_already_read_and_raises_next_time() -> None:
    fail_at = [4]
    scanner = LogScanner("/x/job.log", opener=lambda p: FlakyReader(b"ab\ncd\nef\n", fail_at))
    assert scanner.read_lines() == ["ab"]  # "cd" was only partly read when the error hit
    assert scanner.offset == 3
    with pytest.raises(LogUnavailable) as info:
        scanner.read_lines()  # reopened at offset 3, fails again before any newline
    assert "Input/output error" in info.value.reason
    assert scanner.offset == 3
    fail_at[0] = 1 << 30  # the storage recovered: the next call reopens at the saved offset
    assert scanner.read_lines() == ["cd", "ef"]


def test_max_bytes_bounds_each_read(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"aaaa\nbbbb\ncccc\n", "wb")
    with LogScanner(str(path)) as scanner:
        assert scanner.read_lines(max_bytes=7) == ["aaaa"]
        assert scanner.read_lines(max_bytes=7) == ["bbbb"]
        assert scanner.read_lines(max_bytes=7) == ["cccc"]


class CountingReader(io.FileIO):
    total = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        CountingReader.total += len(data)
        return data


def test_appended_line_costs_only_its_own_bytes(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"x" * 99 + b"\n" * 1, "wb")
    write(path, (b"y" * 99 + b"\n") * 20_000)  # a 2 MB file
    CountingReader.total = 0
    scanner = LogScanner(str(path), opener=lambda p: CountingReader(p, "rb"))
    assert len(scanner.read_lines(max_bytes=1 << 30)) == 20_001
    before = CountingReader.total
    write(path, b"one more line\n")
    assert scanner.read_lines() == ["one more line"]
    assert CountingReader.total - before == len(b"one more line\n")
    scanner.close()


def test_huge_line_keeps_memory_bounded(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    block = b"z" * (1 << 20)
    with open(path, "wb") as fh:
        for _ in range(32):  # a single 32 MiB line
            fh.write(block)
        fh.write(b"\nafter\n")
    scanner = LogScanner(str(path), max_line_bytes=1024)
    tracemalloc.start()
    lines: list[str] = []
    for _ in range(64):
        lines += scanner.read_lines(max_bytes=1 << 20)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    scanner.close()
    assert lines == ["z" * 1024 + f" …[truncated {32 * (1 << 20) - 1024} bytes]", "after"]
    assert peak < 4 << 20  # a couple of 1 MiB chunks, never the 32 MiB line


def test_pending_bytes_show_growth_without_newlines(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"step 1\r", "wb")
    with LogScanner(str(path)) as scanner:
        assert scanner.read_lines() == []
        write(path, b"step 2\r")
        assert scanner.read_lines() == []
        assert scanner.pending_bytes == 14


def test_handle_is_closed_by_the_context_manager(tmp_path: Path) -> None:
    path = tmp_path / "job.log"
    write(path, b"a\n", "wb")
    opened: list[BinaryIO] = []

    def opener(p: str) -> BinaryIO:
        fh = open(p, "rb")  # noqa: SIM115 - returned to the scanner, which closes it
        opened.append(fh)
        return fh

    with LogScanner(str(path), opener=opener) as scanner:
        assert scanner.read_lines() == ["a"]
        assert not opened[0].closed
    assert opened[0].closed


def test_constructor_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        LogScanner("x", -1)
    with pytest.raises(ValueError):
        LogScanner("x", max_line_bytes=0)


# --- properties ------------------------------------------------------------------------------

line_bytes = st.one_of(
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")),
    st.text(max_size=30).map(lambda t: t.replace("\n", "").encode()),
    st.sampled_from([b"", b"\r", b"x\r", "é中\U0001f600".encode(), b"\xe2\x82", b"\xff" * 3]),
)
documents = st.lists(line_bytes, max_size=25).flatmap(
    lambda lines: st.tuples(st.just(b"\n".join(lines)), st.booleans())
)


def expected(content: bytes, limit: int) -> list[str | bytes]:
    """The lines of `content` as the scanner must return them; raw bytes where truncated."""
    out: list[str | bytes] = []
    for raw in content.split(b"\n")[:-1]:  # the text after the last newline is not a line
        if len(raw) <= limit:
            out.append(raw.decode("utf-8", "replace").removesuffix("\r"))
        else:
            out.append(raw)
    return out


def assert_lines_match(got: list[str], content: bytes, limit: int) -> None:
    want = expected(content, limit)
    assert len(got) == len(want)
    for line, ref in zip(got, want, strict=True):
        if isinstance(ref, str):
            assert line == ref
            continue
        raw = ref
        m = MARKER.match(line)
        assert m is not None, line
        dropped = int(m["n"])
        kept = raw[: len(raw) - dropped]
        assert limit - 3 <= len(kept) <= limit  # cut only to keep a character whole
        assert m["text"] == kept.decode("utf-8", "replace")


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    doc=documents,
    limit=st.integers(min_value=1, max_value=48),
    budgets=st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=40),
    resume_every=st.integers(min_value=1, max_value=5),
    writes=st.lists(st.integers(min_value=1, max_value=50), max_size=20),
)
def test_chunked_reads_with_resumes_equal_one_read(
    tmp_path: Path,
    doc: tuple[bytes, bool],
    limit: int,
    budgets: list[int],
    resume_every: int,
    writes: list[int],
) -> None:
    content, trailing_newline = doc
    if trailing_newline:
        content += b"\n"
    path = tmp_path / f"prop-{os.getpid()}.log"
    write(path, b"", "wb")

    # The writer appends the document in arbitrary pieces while the reader reads in arbitrary
    # budgets and, every few reads, "crashes" and resumes a new scanner at the saved offset.
    pos = 0
    cuts = iter(writes)
    got: list[str] = []
    scanner = LogScanner(str(path), max_line_bytes=limit)
    step = 0
    while True:
        if pos < len(content):
            n = next(cuts, len(content) - pos)
            write(path, content[pos : pos + n])
            pos += n
        budget = budgets[step % len(budgets)]
        new = scanner.read_lines(max_bytes=budget)
        got += new
        step += 1
        # Resume only after progress: a fresh scanner re-reads the pending line, so resuming
        # after every read shorter than that line would never get past it.
        if new and step % resume_every == 0:
            offset = scanner.offset
            scanner.close()
            scanner = LogScanner(str(path), offset, max_line_bytes=limit)
        if pos >= len(content) and scanner.offset == content.rfind(b"\n") + 1:
            break
        assert step < 10_000
    scanner.close()

    with LogScanner(str(path), max_line_bytes=limit) as whole:
        one_read = whole.read_lines(max_bytes=1 << 20)
    assert got == one_read
    assert_lines_match(one_read, content, limit)
