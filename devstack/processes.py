"""The local stack's process registry: what we started, how to tell it is ours, how to stop it.

The registry is one JSON file in the stack's state dir. Each entry records the PID, the exact
command line and the log file of one process the stack started. A PID alone is not proof of
identity (PIDs are reused), so liveness also compares `/proc/PID/cmdline` with the recorded
command. `down` only ever signals PIDs found here, never processes found by name.

Also here: who holds a TCP port (read from /proc/net/tcp*), for clear "port busy" errors.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path


class DevStackError(RuntimeError):
    """A local stack piece could not be installed, started, checked or stopped."""


@dataclass
class ProcessRecord:
    """One process the stack started (the daemon itself, not a launcher that forked it)."""

    name: str
    pid: int
    cmdline: list[str]
    started_at: str
    log_file: str = ""
    # Extra facts a piece wants to keep, e.g. which ports a process owns.
    info: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PieceStatus:
    """One process of a stack, as `ajr dev status` shows it."""

    name: str
    running: bool
    pid: int | None
    address: str
    log_file: str


# Popen objects of children started in this interpreter: kept so they are reaped (no zombies, no
# "subprocess still running" ResourceWarning) when a long-lived process such as pytest stops them.
_CHILDREN: dict[int, subprocess.Popen[bytes]] = {}
# How each such child ended (its returncode: negative for a signal), once reaped.
_ENDED: dict[int, int] = {}


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_cmdline(pid: int) -> list[str] | None:
    """The argv of `pid` as the kernel reports it, or None if there is no such process."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _is_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    # The command name in field 2 may contain spaces or parentheses: the state follows the last ')'.
    return stat[stat.rfind(")") + 2 :].startswith(("Z", "X"))


def _reap(pid: int) -> None:
    child = _CHILDREN.get(pid)
    if child is not None:
        if child.poll() is not None:
            _CHILDREN.pop(pid, None)
            _ENDED[pid] = child.returncode
        return
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


def pid_running(pid: int) -> bool:
    """True if `pid` exists and is not a zombie (a dead child nobody reaped yet)."""
    if pid <= 0:
        return False
    _reap(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    return not _is_zombie(pid)


def how_it_ended(pid: int, *, wait_s: float = 0.0) -> str:
    """`killed by SIGKILL`, `exit status 1`; "" if not started here or still running after
    `wait_s` seconds. (A process that is exiting already reads as not running, its command line
    gone, a moment before it can be reaped: a caller that saw it stop waits for its end.)"""
    child = _CHILDREN.get(pid)
    if child is not None and wait_s > 0:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=wait_s)
    _reap(pid)
    code = _ENDED.get(pid)
    if code is None:
        return ""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _await_exec(child: subprocess.Popen[bytes], timeout: float = 2.0) -> None:
    """Return once the child's command line reads back (or it ended). Popen returns as soon as
    exec is past its point of no return, and the kernel sets the new program's arguments up
    after that: for a moment /proc/PID/cmdline is empty, and a check then would take the
    process for another one's (30 of 300 starts of `sleep 60` read so, on a loaded 2-CPU VM)."""
    deadline = time.monotonic() + timeout
    while not read_cmdline(child.pid) and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)


def cmdline_matches(recorded: Sequence[str], actual: Sequence[str] | None) -> bool:
    """Whether a live process still runs the command we recorded for its PID."""
    if not actual or not recorded:
        return False
    if list(actual) == list(recorded):
        return True
    # Some daemons rewrite argv[0] (e.g. to their base name) but keep the arguments.
    return os.path.basename(actual[0]) == os.path.basename(recorded[0]) and list(
        actual[1:]
    ) == list(recorded[1:])


def parent_pid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    return int(fields[1]) if len(fields) > 1 else None


def stop_pid(pid: int, *, timeout: float = 15.0) -> bool:
    """SIGTERM `pid`, wait up to `timeout` s, then SIGKILL. True if it is gone afterwards."""
    if not pid_running(pid):
        return True
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not pid_running(pid):
            return True
        time.sleep(0.1)
    # It ignored SIGTERM for `timeout` seconds: a daemon stuck on I/O. Do not leave it behind.
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        if not pid_running(pid):
            return True
        time.sleep(0.05)
    return not pid_running(pid)


def tail(path: Path | str, lines: int = 20) -> str:
    """The last `lines` lines of a log file, for error messages."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return f"(no log at {path})"
    return "\n".join(text.splitlines()[-lines:])


# --- ports -------------------------------------------------------------------------------------

_TCP_LISTEN = "0A"


def _listening_inodes(port: int) -> set[str]:
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if len(cols) < 10 or cols[3] != _TCP_LISTEN:
                continue
            if int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(cols[9])
    return inodes


def port_holders(port: int) -> list[int]:
    """PIDs with a socket listening on TCP `port` (needs root to see other users' processes)."""
    inodes = _listening_inodes(port)
    if not inodes:
        return []
    targets = {f"socket:[{inode}]" for inode in inodes}
    holders: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(fd) in targets:
                    holders.append(int(entry.name))
                    break
            except OSError:
                continue
    return sorted(holders)


def port_is_listening(port: int) -> bool:
    return bool(_listening_inodes(port))


def describe_pid(pid: int) -> str:
    """`pid 123 (command line...)`, shortened: enough to recognise the process."""
    argv = read_cmdline(pid)
    command = " ".join(argv) if argv else "?"
    return f"pid {pid} ({command if len(command) <= 120 else command[:117] + '...'})"


def check_ports(ports: Mapping[int, str], registry: ProcessRegistry) -> None:
    """Fail, naming port and holder, if a port we need is held by anything but our own processes."""
    problems: list[str] = []
    for port, purpose in sorted(ports.items()):
        holders = port_holders(port)
        if not holders:
            if not _bindable(port):
                problems.append(f"port {port} ({purpose}) is in use by an unknown process")
            continue
        if any(registry.owns(pid) for pid in holders):
            continue  # our own running piece: `up` twice is harmless
        who = ", ".join(describe_pid(pid) for pid in holders)
        problems.append(f"port {port} ({purpose}) is in use by {who}")
    if problems:
        raise DevStackError("cannot start, ports busy:\n  " + "\n  ".join(problems))


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("0.0.0.0", port))  # probing whether anything listens, not serving
        except OSError:
            return False
    return True


# --- the registry ------------------------------------------------------------------------------


class ProcessRegistry:
    """The JSON file `<state_dir>/processes.json`: name -> ProcessRecord."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.path = state_dir / "processes.json"
        self.log_dir = state_dir / "logs"

    def load(self) -> dict[str, ProcessRecord]:
        try:
            raw = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise DevStackError(f"unreadable process registry {self.path}: {exc}") from exc
        return {name: ProcessRecord(**entry) for name, entry in raw.items()}

    def _save(self, records: Mapping[str, ProcessRecord]) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps({n: asdict(r) for n, r in records.items()}, indent=2) + "\n")
        tmp.replace(self.path)  # atomic: a crash never leaves half a registry

    def get(self, name: str) -> ProcessRecord | None:
        return self.load().get(name)

    def record(self, rec: ProcessRecord) -> None:
        records = self.load()
        records[rec.name] = rec
        self._save(records)

    def forget(self, name: str) -> None:
        records = self.load()
        if records.pop(name, None) is not None:
            self._save(records)

    def is_alive(self, rec: ProcessRecord | None) -> bool:
        """The recorded PID runs and still runs the recorded command (not a reused PID)."""
        if rec is None or not pid_running(rec.pid):
            return False
        return cmdline_matches(rec.cmdline, read_cmdline(rec.pid))

    def alive(self, name: str) -> ProcessRecord | None:
        rec = self.get(name)
        return rec if self.is_alive(rec) else None

    def alive_pids(self) -> set[int]:
        return {rec.pid for rec in self.load().values() if self.is_alive(rec)}

    def owns(self, pid: int) -> bool:
        """`pid` is a recorded live process or a descendant of one (e.g. slurmctld's helpers)."""
        ours = self.alive_pids()
        seen: set[int] = set()
        current: int | None = pid
        while current and current > 1 and current not in seen:
            if current in ours:
                return True
            seen.add(current)
            current = parent_pid(current)
        return False

    def log_path(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    def start_detached(
        self,
        name: str,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        info: Mapping[str, str] | None = None,
    ) -> ProcessRecord:
        """Start `argv` in a new session (no terminal signals reach it), logging to logs/<name>.log.

        For programs that stay in the foreground (temporal, the ajr worker). Daemons that fork
        themselves are recorded with `adopt` instead, from their pid file.
        """
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log_file = self.log_path(name)
        with open(log_file, "ab") as log, open(os.devnull, "rb") as devnull:
            log.write(f"\n--- {now_iso()} starting: {list(argv)}\n".encode())
            log.flush()
            child = subprocess.Popen(
                list(argv),
                stdin=devnull,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                start_new_session=True,
                close_fds=True,
            )
        _CHILDREN[child.pid] = child
        _await_exec(child)
        rec = ProcessRecord(
            name=name,
            pid=child.pid,
            cmdline=list(argv),
            started_at=now_iso(),
            log_file=str(log_file),
            info=dict(info or {}),
        )
        self.record(rec)
        return rec

    def adopt(
        self,
        name: str,
        pid: int,
        *,
        log_file: Path | str = "",
        info: Mapping[str, str] | None = None,
    ) -> ProcessRecord:
        """Record a daemon that we launched and that forked itself (PID from its pid file)."""
        cmdline = read_cmdline(pid)
        if not cmdline:
            raise DevStackError(f"{name}: process {pid} vanished right after it started")
        rec = ProcessRecord(
            name=name,
            pid=pid,
            cmdline=cmdline,
            started_at=now_iso(),
            log_file=str(log_file),
            info=dict(info or {}),
        )
        self.record(rec)
        return rec

    def stop(self, name: str, *, timeout: float = 15.0) -> str:
        """Stop the recorded process `name` by PID (only if it is still ours) and forget it."""
        rec = self.get(name)
        if rec is None:
            return f"{name}: not recorded"
        if not self.is_alive(rec):
            self.forget(name)
            return f"{name}: was not running (pid {rec.pid})"
        gone = stop_pid(rec.pid, timeout=timeout)
        if not gone:
            raise DevStackError(f"{name}: pid {rec.pid} survived SIGKILL")
        self.forget(name)
        return f"{name}: stopped pid {rec.pid}"


def wait_for(predicate: Callable[[], object], *, timeout: float, interval: float = 0.2) -> bool:
    """Poll `predicate` until it returns truthy (True) or `timeout` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)
