"""Incremental, bounded-memory tail of one log file by byte offset (the only log I/O)."""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable
from time import monotonic as _monotonic
from types import TracebackType
from typing import BinaryIO

# Reads go to the file in chunks of this size: large enough that syscall and per-chunk Python
# overhead vanish next to the C-level split/decode, small enough to keep memory flat.
_CHUNK = 1 << 20

_TRUNCATED = " …[truncated {} bytes]"


class LogUnavailable(Exception):
    """The log cannot be read right now (missing, unreadable, I/O error); the caller retries."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _default_opener(path: str) -> BinaryIO:
    # Unbuffered: we always read large chunks, so a BufferedReader would only add a copy.
    return open(path, "rb", buffering=0)


def _trim_utf8(data: bytes) -> bytes:
    """Drop an incomplete UTF-8 sequence left at the end by a byte-count cut."""
    end = len(data)
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte & 0xC0 != 0x80:  # not a continuation byte: the sequence starts here
            need = 2 if byte >= 0xC0 else 1
            if byte >= 0xE0:
                need = 3
            if byte >= 0xF0:
                need = 4
            return data[: end - back] if need > back else data
    return data


class LogScanner:
    """Tails `path` from `offset`, returning complete new lines on each `read_lines` call.

    - `offset` is always the byte offset just after the last returned line, so a new scanner
      started at a saved `offset` resumes exactly: a partial last line is re-read, not lost.
    - Only `\\n` ends a line; one trailing `\\r` (CRLF files) is removed from lines that were not
      truncated. Bytes are decoded as UTF-8 with errors="replace".
    - A line longer than `max_line_bytes` comes back cut to at most `max_line_bytes` bytes (at a
      character boundary) plus ' …[truncated N bytes]'; at most `max_line_bytes` of a pending line
      are ever held, so memory stays flat however long the line or the file.
    - Truncation (the file became shorter than what was read) restarts at 0. Replacement (the
      path now names another inode/device) first drains the old file to its end (its unterminated
      last line, if any, is returned as a line: that writer is done) and then reads the new file
      from 0. A truncate-and-regrow past our position between two calls cannot be seen.
    - Any failure to open or read raises `LogUnavailable` and nothing else; the handle is dropped
      and the next call reopens at `offset`. The file is opened lazily by the first read.
    """

    def __init__(
        self,
        path: str,
        offset: int = 0,
        *,
        opener: Callable[[str], BinaryIO] | None = None,
        max_line_bytes: int = 65536,
        path_check_s: float = 0.0,
    ) -> None:
        if offset < 0:
            raise ValueError(f"offset must be >= 0, got {offset}")
        if max_line_bytes < 1:
            raise ValueError(f"max_line_bytes must be >= 1, got {max_line_bytes}")
        self._path = path
        self._opener = opener or _default_opener
        self._limit = max_line_bytes
        self._fh: BinaryIO | None = None
        self._identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the open file
        self._offset = offset  # just after the last returned line
        self._read_pos = offset  # where the next read starts: offset + the pending line's bytes
        self._buf = bytearray()  # head of the pending line, never longer than _limit
        self._dropped = 0  # bytes of the pending line beyond _limit, counted but not kept
        self._joined = False  # read_blocks is running: keep the lines of a chunk in one string
        # `unchanged` looks at the path (replacement) at most this often; 0: every call.
        self._path_check_s = path_check_s
        self._path_checked_at = 0.0  # monotonic time of the last stat of the path

    @property
    def path(self) -> str:
        return self._path

    @property
    def offset(self) -> int:
        """Byte offset just after the last returned complete line: where to resume."""
        return self._offset

    @property
    def pending_bytes(self) -> int:
        """Bytes read past `offset` that do not yet end in a newline (e.g. a progress bar)."""
        return self._read_pos - self._offset

    def unchanged(self) -> bool:
        """True when a read now would return nothing and change nothing (see the trade below).

        Not yet open, or any error: False (the caller reads, and the read handles it as
        before). Otherwise one system call:

        - When the path was last looked at `path_check_s` ago or more (always, with the
          default 0): one `stat` of the path. True when the path still names the open file
          and its size is where the next read starts. A replacement to drain, or a path gone
          or unstat-able (read the open handle, as before), is False.
        - Between those: one `lseek` to the end of the already open file (no path lookup, no
          stat result built): True when its size is where the next read starts. An append
          (a partial line too) or a truncation is seen at once, as before.

        The trade (only with `path_check_s` > 0, as the watches ask): a replacement of the
        file (rename, `mv new log`) whose old inode gets no new bytes is seen by the next path
        check, up to `path_check_s` later, not at the next call. Every read also checks the
        path (`_replaced`), so a file that is written is followed at once.
        """
        fh, identity = self._fh, self._identity
        if fh is None or identity is None:
            return False
        now = _monotonic()
        if now - self._path_checked_at >= self._path_check_s:
            self._path_checked_at = now
            try:
                st = os.stat(self._path)
            except (OSError, ValueError):
                return False
            return (st.st_dev, st.st_ino) == identity and st.st_size == self._read_pos
        try:
            # The read seeks to `_read_pos` itself before reading: moving the offset is free.
            return fh.seek(0, io.SEEK_END) == self._read_pos
        except (OSError, ValueError, AttributeError):
            return False

    def read_lines(self, max_bytes: int = 4 << 20) -> list[str]:
        """Read at most `max_bytes` new bytes; return the complete lines among them, in order."""
        out: list[str] = []
        try:
            self._read_into(out, max(1, max_bytes))
        except (OSError, ValueError) as exc:
            self._drop_handle()
            if out:  # keep what was read: the error recurs (and is raised) on the next call
                return out
            raise LogUnavailable(f"cannot read {self._path}: {exc}") from exc
        return out

    def read_blocks(self, max_bytes: int = 4 << 20) -> list[str]:
        """`read_lines`, with the lines of each chunk joined by "\\n" into one string (a block).

        `[line for b in blocks for line in b.split("\\n")]` is what `read_lines` returns; a block
        holds one line at least. Millions of short lines cost one decode per chunk instead of a
        string each, and a block-level consumer (`LogEngine.feed_block`) never splits most of them.
        """
        self._joined = True
        try:
            return self.read_lines(max_bytes)
        finally:
            self._joined = False

    def close(self) -> None:
        self._drop_handle()

    def __enter__(self) -> LogScanner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- internals -------------------------------------------------------------------------

    def _read_into(self, out: list[str], budget: int) -> None:
        if self._fh is None:
            self._open()
        fh = self._fh
        assert fh is not None
        if self._replaced():
            fh.seek(self._read_pos)
            budget -= self._drain(fh, out, budget)
            if budget <= 0:
                return  # not yet at the old file's end: keep draining on the next call
            self._flush_partial(out)
            self._drop_handle()
            self._offset = self._read_pos = 0
            self._open()
            fh = self._fh
            assert fh is not None
        else:
            size = fh.seek(0, io.SEEK_END)
            if size < self._read_pos:  # truncated (e.g. the same file re-opened for writing)
                self._reset(0)
            fh.seek(self._read_pos)
        self._drain(fh, out, budget)

    def _drain(self, fh: BinaryIO, out: list[str], budget: int) -> int:
        """Read and consume up to `budget` bytes; return how many were read (< budget at EOF)."""
        used = 0
        while used < budget:
            chunk = fh.read(min(_CHUNK, budget - used))
            if not chunk:
                break
            self._consume(chunk, out)
            used += len(chunk)
        return used

    def _open(self) -> None:
        try:
            fh = self._opener(self._path)
        except FileNotFoundError as exc:
            raise LogUnavailable(f"{self._path} does not exist") from exc
        except PermissionError as exc:
            raise LogUnavailable(f"no permission to read {self._path}") from exc
        except Exception as exc:  # the opener is injected code: any failure means "unavailable"
            raise LogUnavailable(f"cannot open {self._path}: {exc}") from exc
        self._fh = fh
        self._path_checked_at = _monotonic()  # the path named this file just now
        try:
            self._identity = _identity_of_handle(fh)
            if self._identity is None:
                self._identity = _identity_of_path(self._path)
            size = fh.seek(0, io.SEEK_END)
            if size < self._offset:  # resumed at an offset the file no longer reaches
                self._reset(0)
            else:
                self._reset(self._offset)
            fh.seek(self._read_pos)
        except (OSError, ValueError) as exc:
            self._drop_handle()
            raise LogUnavailable(f"cannot read {self._path}: {exc}") from exc

    def _replaced(self) -> bool:
        if self._identity is None:
            return False
        self._path_checked_at = _monotonic()
        now = _identity_of_path(self._path)
        # A vanished or unstat-able path is not a replacement: keep reading the open handle,
        # whose writer may well still be appending to it.
        return now is not None and now != self._identity

    def _reset(self, offset: int) -> None:
        self._offset = self._read_pos = offset
        self._buf.clear()
        self._dropped = 0

    def _drop_handle(self) -> None:
        fh, self._fh = self._fh, None
        self._identity = None
        self._buf.clear()
        self._dropped = 0
        self._read_pos = self._offset
        if fh is not None:
            # Closing a handle we are abandoning: a failure leaves nothing useful to do.
            with contextlib.suppress(OSError, ValueError):
                fh.close()

    def _append_partial(self, data: bytes) -> None:
        room = self._limit - len(self._buf)  # >= 0: the buffer never grows past the limit
        if len(data) <= room:
            self._buf += data
        else:
            if room > 0:
                self._buf += data[:room]
            self._dropped += len(data) - room

    def _finish_partial(self) -> str:
        if self._dropped:
            kept = _trim_utf8(bytes(self._buf))
            total = len(self._buf) + self._dropped
            text = kept.decode("utf-8", "replace") + _TRUNCATED.format(total - len(kept))
        else:
            text = self._buf.decode("utf-8", "replace").removesuffix("\r")
        self._buf.clear()
        self._dropped = 0
        return text

    def _flush_partial(self, out: list[str]) -> None:
        if self._buf or self._dropped:
            out.append(self._finish_partial())

    def _consume(self, chunk: bytes, out: list[str]) -> None:
        last_nl = chunk.rfind(b"\n")
        if last_nl < 0:
            self._append_partial(chunk)
            self._read_pos += len(chunk)
            return
        start = 0
        if self._buf or self._dropped:
            first_nl = chunk.find(b"\n")
            self._append_partial(chunk[:first_nl])
            out.append(self._finish_partial())
            start = first_nl + 1
        if start <= last_nl:
            self._split_block(chunk[start:last_nl], out)
        self._append_partial(chunk[last_nl + 1 :])
        self._offset = self._read_pos + last_nl + 1
        self._read_pos += len(chunk)

    def _split_block(self, block: bytes, out: list[str]) -> None:
        """Append the lines of `block` (newline-separated, no trailing newline) to `out`."""
        limit = self._limit
        if len(block) > limit and _may_hold_long_line(block, limit):
            parts = block.split(b"\n")
            if max(map(len, parts)) > limit:
                out.extend(self._decode_part(p) for p in parts)
                return
        # Fast path: no line is too long, so decode once and split the text. A newline never
        # occurs inside a UTF-8 sequence, so this equals decoding line by line.
        text = block.decode("utf-8", "replace")
        if self._joined:
            if b"\r" in block:
                # One CR before each newline and at the very end, as removesuffix does per line:
                # replace() pairs "\r\r\n" as "\r" + "\r\n", so only the last CR goes.
                text = text.replace("\r\n", "\n").removesuffix("\r")
            out.append(text)
            return
        lines = text.split("\n")
        if b"\r" in block:
            lines = [s.removesuffix("\r") for s in lines]
        out.extend(lines)

    def _decode_part(self, part: bytes) -> str:
        if len(part) <= self._limit:
            return part.decode("utf-8", "replace").removesuffix("\r")
        kept = _trim_utf8(part[: self._limit])
        return kept.decode("utf-8", "replace") + _TRUNCATED.format(len(part) - len(kept))


def _may_hold_long_line(block: bytes, limit: int) -> bool:
    """False when no line of `block` is longer than `limit` bytes; True when one may be."""
    step = (limit + 1) // 2
    if step < 4096:
        return True  # small limits (tests, odd settings): let the caller split and measure
    # A line of more than `limit` >= 2 * step - 1 bytes covers a whole window [k*step,
    # (k+1)*step), so a newline in every window rules it out: a memchr per window is far
    # cheaper than splitting megabytes into lines only to measure them.
    find = block.find
    starts = range(0, len(block) - step + 1, step)  # whole windows only: enough, see above
    return any(find(b"\n", start, start + step) < 0 for start in starts)


def _identity_of_handle(fh: BinaryIO) -> tuple[int, int] | None:
    try:
        st = os.fstat(fh.fileno())
    except (OSError, ValueError, AttributeError):
        return None  # an injected opener may return an object without a descriptor
    return (st.st_dev, st.st_ino)


def _identity_of_path(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)
