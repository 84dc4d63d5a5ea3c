"""A memory cgroup for the OOM fault (v2, else v1), and the side process that watches it.

The OOM fault must never starve the host: the faulty rank moves itself into a new cgroup with a
small memory limit, so the kernel's OOM killer acts inside that cgroup only. The monitor, a
separate process started before the move, waits for the kill, prints the kernel's own lines about
it (read from /dev/kmsg, formatted as `dmesg -T` does) and removes the cgroup once it is empty.

    python -m bench.faultjob.cgroup cleanup     # remove leftover faultjob-oom-* cgroups
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PREFIX = "faultjob-oom-"
KERNEL_OOM_MARKERS = ("Memory cgroup out of memory", "oom-kill:", "Out of memory")


@dataclass(frozen=True)
class MemoryCgroup:
    path: Path
    version: str  # "v2" or "v1"

    def add_process(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(f"{pid}\n")

    def oom_kills(self) -> int:
        name = "memory.events" if self.version == "v2" else "memory.oom_control"
        try:
            text = (self.path / name).read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def empty(self) -> bool:
        try:
            return not (self.path / "cgroup.procs").read_text().strip()
        except OSError:
            return True


def _own_v1_memory_path() -> Path | None:
    """This process's memory cgroup in a v1 hierarchy, from /proc/self/cgroup."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return CGROUP_ROOT / "memory" / path.lstrip("/")
    return None


def _own_v2_path() -> Path | None:
    controllers = CGROUP_ROOT / "cgroup.controllers"
    if not controllers.exists() or "memory" not in controllers.read_text().split():
        return None
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        if line.startswith("0::"):
            return CGROUP_ROOT / line[3:].lstrip("/")
    return None


def parent_cgroup() -> MemoryCgroup:
    """Where a child memory cgroup can be made: v2 if it has the memory controller, else v1."""
    v2 = _own_v2_path()
    # v2: a child needs a parent that delegates the memory controller to its children.
    for candidate in (v2, v2.parent) if v2 is not None else ():
        subtree = candidate / "cgroup.subtree_control"
        if subtree.exists() and "memory" in subtree.read_text().split():
            return MemoryCgroup(candidate, "v2")
    v1 = _own_v1_memory_path()
    if v1 is not None and (v1 / "memory.limit_in_bytes").exists():
        return MemoryCgroup(v1, "v1")
    raise RuntimeError("no writable memory cgroup (v2 with the memory controller, or v1)")


def create_memory_cgroup(name: str, limit_mb: int) -> MemoryCgroup:
    parent = parent_cgroup()
    group = MemoryCgroup(parent.path / name, parent.version)
    group.path.mkdir()
    limit = str(limit_mb * 1024 * 1024)
    if group.version == "v2":
        (group.path / "memory.max").write_text(limit)
        swap = group.path / "memory.swap.max"
        if swap.exists():
            swap.write_text("0")
    else:
        (group.path / "memory.limit_in_bytes").write_text(limit)
    return group


def start_monitor(group: MemoryCgroup, pid: int, *, report: bool) -> None:
    """Start the watcher as a separate process (it stays in our current, unlimited cgroup)."""
    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(repo))
    argv = [sys.executable, "-m", "bench.faultjob.cgroup", "monitor"]
    argv += [str(group.path), group.version, str(pid), "report" if report else "quiet"]
    subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL)
    time.sleep(0.5)  # let it open /dev/kmsg at the current end before we start allocating


def _boot_time() -> datetime:
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return datetime.now() - timedelta(seconds=uptime)


def _kmsg_line(record: str, boot: datetime) -> str | None:
    """A /dev/kmsg record ("6,1234,275746514,-;text") as `dmesg -T` prints it."""
    head, _, text = record.partition(";")
    fields = head.split(",")
    if len(fields) < 3 or not fields[2].isdigit():
        return None
    moment = boot + timedelta(microseconds=int(fields[2]))
    return f"[{moment.strftime('%a %b %d %H:%M:%S %Y')}] {text.strip()}"


def _read_kmsg(fd: int) -> list[str]:
    records: list[str] = []
    while True:
        try:
            records.append(os.read(fd, 8192).decode("utf-8", "replace"))
        except BlockingIOError:
            return records
        except OSError:  # EPIPE: records were overwritten; go on with the rest
            continue


def monitor(group: MemoryCgroup, pid: int, *, report: bool, timeout: float = 3600.0) -> None:
    fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    os.lseek(fd, 0, os.SEEK_END)  # only what the kernel says from now on
    boot = _boot_time()
    deadline = time.monotonic() + timeout
    # Wait until the process is in the cgroup and gone again (OOM-killed, or otherwise).
    while time.monotonic() < deadline and (group.oom_kills() == 0 and _alive(pid)):
        time.sleep(0.05)
    time.sleep(0.2)  # the kernel writes its report while killing
    if report and group.oom_kills() > 0:
        for record in _read_kmsg(fd):
            line = _kmsg_line(record, boot)
            if line is not None and any(m in line for m in KERNEL_OOM_MARKERS):
                print(line, flush=True)
    os.close(fd)
    remove_when_empty(group.path, timeout=60.0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def remove_when_empty(path: Path, *, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            path.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            time.sleep(0.1)  # EBUSY: a task is still dying inside
    return False


def leftovers() -> list[Path]:
    found: list[Path] = []
    for base in (CGROUP_ROOT, CGROUP_ROOT / "memory", CGROUP_ROOT / "unified"):
        if base.is_dir():
            found.extend(p for p in base.rglob(f"{PREFIX}*") if p.is_dir())
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faultjob.cgroup")
    sub = parser.add_subparsers(dest="command", required=True)
    mon = sub.add_parser("monitor", help="(internal) watch one OOM cgroup")
    mon.add_argument("path", type=Path)
    mon.add_argument("version", choices=("v1", "v2"))
    mon.add_argument("pid", type=int)
    mon.add_argument("mode", choices=("report", "quiet"))
    sub.add_parser("cleanup", help="remove leftover faultjob-oom-* cgroups (empty ones)")
    args = parser.parse_args(argv)
    if args.command == "monitor":
        monitor(MemoryCgroup(args.path, args.version), args.pid, report=args.mode == "report")
        return 0
    status = 0
    for path in leftovers():
        removed = remove_when_empty(path, timeout=5.0)
        print(f"{'removed' if removed else 'could not remove'} {path}")
        status |= 0 if removed else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
