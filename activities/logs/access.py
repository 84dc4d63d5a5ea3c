"""Opening a job's log only if the job's own user could read it.

ajr runs with Slurm operator rights (often root). A job's log path comes from the user, so a
path such as /etc/shadow or a symlink to another user's file must not be read on their behalf.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

Opener = Callable[[str], BinaryIO]


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


def _allows(
    mode: int,
    owner: int,
    group: int,
    user: JobUser,
    groups: frozenset[int],
    bits: tuple[int, int, int],
) -> bool:
    user_bit, group_bit, other_bit = bits
    if user.uid == owner:
        return bool(mode & user_bit)
    if group in groups:
        return bool(mode & group_bit)
    return bool(mode & other_bit)


_READ = (stat.S_IRUSR, stat.S_IRGRP, stat.S_IROTH)
_SEARCH = (stat.S_IXUSR, stat.S_IXGRP, stat.S_IXOTH)


def may_read(path: str, user: JobUser) -> str:
    """Empty when `user` may read the regular file at `path` (symlinks resolved); else why not."""
    if user.uid == 0:
        return ""
    groups = user.groups()
    real = Path(os.path.realpath(path))
    for directory in reversed(real.parents):
        info = os.stat(directory)
        if not _allows(info.st_mode, info.st_uid, info.st_gid, user, groups, _SEARCH):
            return f"user {user.uid} cannot enter {directory}"
    info = os.stat(real)
    if not stat.S_ISREG(info.st_mode):
        return f"{real} is not a regular file"
    if not _allows(info.st_mode, info.st_uid, info.st_gid, user, groups, _READ):
        return f"user {user.uid} may not read {real}"
    return ""


def opener_for(user: JobUser) -> Opener:
    def open_checked(path: str) -> BinaryIO:
        reason = may_read(path, user)
        if reason:
            raise LogAccessDenied(reason)
        # O_NONBLOCK: a FIFO swapped in after the check must not hang the watcher.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise LogAccessDenied(f"{path} is not a regular file")
        return os.fdopen(fd, "rb")

    return open_checked
