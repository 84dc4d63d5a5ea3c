"""Opening a job's log only if it is the job user's own file, reached as that user could reach it.

ajr runs with Slurm operator rights (often root). A job's log path comes from the user, so a
path such as /etc/shadow, or a symlink swapped in between a check and an open, must never make
ajr read what that user could not.

Every check is made on what was actually opened, never on a path that is opened again later:
the path is walked one component at a time with `openat` and `O_NOFOLLOW` from `/`, each
directory reached is checked for the user's search permission on its open descriptor, a
symlink is read and followed by the same walk (so its target is checked, not trusted), and the
final file is opened without following links and accepted only if its descriptor is a regular
file owned by the job's user with the owner's read bit set. A swap at any moment changes only
which inode is opened, and that inode is then the one checked.

The mode bits are the model (POSIX ACLs that grant more are not consulted: ajr is stricter,
never laxer). A job that runs as root may read what root may read.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

Opener = Callable[[str], BinaryIO]

# As the kernel's own limit on symlinks followed while resolving one path (MAXSYMLINKS).
MAX_SYMLINKS = 40


class LogAccessDenied(PermissionError):
    pass


@dataclass(frozen=True)
class JobUser:
    uid: int
    gid: int
    name: str = ""

    def groups(self) -> frozenset[int]:
        name = self.name
        if not name:
            try:
                name = pwd.getpwuid(self.uid).pw_name
            except KeyError:
                return frozenset({self.gid})
        try:
            return frozenset(os.getgrouplist(name, self.gid))
        except (KeyError, OSError):
            return frozenset({self.gid, *(g.gr_gid for g in grp.getgrall() if name in g.gr_mem)})


def _allows(info: os.stat_result, user: JobUser, groups: frozenset[int], bits: int) -> bool:
    """Whether the class of `user` (owner, group, other) has `bits` (an rwx triple, e.g. 4)."""
    if user.uid == info.st_uid:
        return bool(info.st_mode & (bits << 6))
    if info.st_gid in groups:
        return bool(info.st_mode & (bits << 3))
    return bool(info.st_mode & bits)


_READ, _SEARCH = 4, 1
# O_PATH opens nothing for reading (no side effect even on a device or FIFO): the inode is
# checked first, then reopened for reading through /proc, which names that very inode.
_STEP_FLAGS = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def _components(path: str) -> list[str]:
    return [part for part in path.split("/") if part not in ("", ".")]


def open_for_user(path: str, user: JobUser) -> int:
    """A read-only descriptor of the regular file at `path`, if `user` owns it and could read it.

    Raises LogAccessDenied (not the user's, a directory the user cannot enter, not a regular
    file, too many symlinks) or FileNotFoundError / OSError from the walk.
    """
    if not os.path.isabs(path):
        raise LogAccessDenied(f"{path} is not an absolute path")
    root = user.uid == 0
    groups: frozenset[int] = frozenset() if root else user.groups()
    pending = _components(path)
    links = 0
    current = os.open("/", _STEP_FLAGS)
    try:
        info = os.fstat(current)
        while pending:
            if not stat.S_ISDIR(info.st_mode):
                raise LogAccessDenied(f"{path}: a path component is not a directory")
            if not root and not _allows(info, user, groups, _SEARCH):
                raise LogAccessDenied(f"user {user.uid} cannot enter a directory of {path}")
            name = pending.pop(0)
            step = os.open(name, _STEP_FLAGS, dir_fd=current)
            step_info = os.fstat(step)
            if stat.S_ISLNK(step_info.st_mode):
                # Follow it by the same walk: its target is checked like any path, never trusted.
                os.close(step)
                links += 1
                if links > MAX_SYMLINKS:
                    raise LogAccessDenied(f"too many symlinks in {path}")
                target = os.readlink(name, dir_fd=current)
                pending[:0] = _components(target)
                if target.startswith("/"):
                    os.close(current)
                    current = os.open("/", _STEP_FLAGS)
                    info = os.fstat(current)
                continue
            os.close(current)
            current, info = step, step_info
        if not stat.S_ISREG(info.st_mode):
            raise LogAccessDenied(f"{path} is not a regular file")
        if not root and info.st_uid != user.uid:
            raise LogAccessDenied(f"{path} is not owned by user {user.uid}")
        if not root and not _allows(info, user, groups, _READ):
            raise LogAccessDenied(f"user {user.uid} may not read {path}")
        readable = os.open(f"/proc/self/fd/{current}", _READ_FLAGS)
        opened = os.fstat(readable)
        if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):  # cannot happen
            os.close(readable)
            raise LogAccessDenied(f"{path} changed while it was opened")
        return readable
    finally:
        os.close(current)


def opener_for(user: JobUser) -> Opener:
    def open_checked(path: str) -> BinaryIO:
        return os.fdopen(open_for_user(path, user), "rb", buffering=0)

    return open_checked
