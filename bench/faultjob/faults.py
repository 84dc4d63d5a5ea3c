"""The faults, each done for real: signals, a kernel OOM kill, a full or failing filesystem."""

from __future__ import annotations

import ctypes
import fcntl
import os
import shutil
import signal
import struct
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import cgroup

# Faults that one rank does to itself, and faults every rank takes part in.
RANK_LOCAL = frozenset(
    {
        "segfault",
        "collective_hang",
        "silent_hang",
        "straggler",
        "straggler_then_hang",
        "nan",
        "oom",
        "sigkill",
        "dataloader_killed",
    }
)
JOB_WIDE = frozenset({"storage_error", "exit16", "exit17", "exit93"})

# FS_IOC_SHUTDOWN (_IOR('X', 125, __u32)) and EXT4_GOING_FLAGS_NOLOGFLUSH: the filesystem stops
# accepting I/O at once, every later write fails with EIO, as after a failed disk or a fenced
# network filesystem.
FS_IOC_SHUTDOWN = 0x8004587D
GOING_NOLOGFLUSH = 2
FILLER_MAX_FREE = 64 * 1024 * 1024


@dataclass(frozen=True)
class Trigger:
    """When the fault fires: at an iteration and/or after some seconds of training."""

    at_iteration: int | None
    after_seconds: float | None

    def due(self, iteration: int, seconds: float) -> bool:
        if self.at_iteration is not None and iteration >= self.at_iteration:
            return True
        return self.after_seconds is not None and seconds >= self.after_seconds


def flush_all() -> None:
    sys.stdout.flush()
    sys.stderr.flush()


def segfault() -> None:
    """Read address 0: the kernel delivers a real SIGSEGV."""
    flush_all()
    ctypes.string_at(0)


def sigkill_self() -> None:
    flush_all()
    os.kill(os.getpid(), signal.SIGKILL)


def sleep_forever() -> None:
    """Stop doing anything (no collectives, no output) until killed."""
    flush_all()
    while True:
        time.sleep(3600)


def dataloader_worker_pids(loader_iterator: Any) -> list[int]:
    """PIDs of a DataLoader iterator's worker processes (torch keeps them in `_workers`)."""
    workers = getattr(loader_iterator, "_workers", None) or []
    return [int(w.pid) for w in workers if getattr(w, "pid", None)]


def kill_dataloader_workers(loader_iterator: Any) -> list[int]:
    """SIGKILL every worker of the iterator; the main process then finds them dead."""
    pids = dataloader_worker_pids(loader_iterator)
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    return pids


def oom(limit_mb: int, report: bool) -> None:
    """Move this process into a fresh memory cgroup and allocate until the OOM killer strikes.

    The limit keeps the kill inside the cgroup: the host never runs short. A side process
    started before the move (so it stays outside the cgroup) prints the kernel's OOM-kill
    lines and removes the cgroup once it is empty.
    """
    group = cgroup.create_memory_cgroup(f"faultjob-oom-{os.getpid()}", limit_mb)
    cgroup.start_monitor(group, os.getpid(), report=report)
    group.add_process(os.getpid())
    flush_all()
    hog: list[bytearray] = []
    while True:
        # bytearray() zero-fills: the pages are touched, so they are really charged.
        hog.append(bytearray(16 * 1024 * 1024))


def _mount_of(path: Path) -> tuple[str, str] | None:
    """(device, mount point) of the filesystem holding `path`, from /proc/mounts."""
    target = os.path.realpath(path)
    best: tuple[str, str] | None = None
    for line in Path("/proc/mounts").read_text().splitlines():
        device, mount_point = line.split()[:2]
        inside = target == mount_point or target.startswith(mount_point.rstrip("/") + "/")
        if inside and (best is None or len(mount_point) > len(best[1])):
            best = (device, mount_point)
    return best


def shutdown_filesystem(mount_point: Path) -> None:
    """FS_IOC_SHUTDOWN on a loop-device filesystem; refuses anything else (never the host's)."""
    mount = _mount_of(mount_point)
    if mount is None or mount[1] != os.path.realpath(mount_point):
        raise ValueError(f"{mount_point} is not a mount point")
    if not mount[0].startswith("/dev/loop"):
        raise ValueError(f"{mount_point} is on {mount[0]}, not a loop device: refusing")
    fd = os.open(mount_point, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, FS_IOC_SHUTDOWN, struct.pack("I", GOING_NOLOGFLUSH))
    finally:
        os.close(fd)


def fill_filesystem(directory: Path) -> None:
    """Take the free space of a SMALL filesystem (a test tmpfs) so the next write gets ENOSPC."""
    free = shutil.disk_usage(directory).free
    if free > FILLER_MAX_FREE:
        raise ValueError(
            f"{directory} has {free // 2**20} MiB free: storage_error fills only filesystems "
            f"with <= {FILLER_MAX_FREE // 2**20} MiB free (mount a small tmpfs for --save)"
        )
    directory.mkdir(parents=True, exist_ok=True)
    filler = directory / ".faultjob-filler"
    try:
        with open(filler, "ab") as out:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
    except OSError:
        pass  # full: what we wanted
