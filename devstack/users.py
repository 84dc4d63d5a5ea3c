"""Ordinary OS users that tests and benchmarks run jobs as (created on first use)."""

from __future__ import annotations

import pwd
import shutil
import subprocess

from devstack.processes import DevStackError

# useradd's exit status when the name is taken: another test worker created it a moment ago.
_USERADD_NAME_IN_USE = 9


def os_user(name: str, *, system: bool = False) -> pwd.struct_passwd:
    """The user `name`, created (without a home) if this host lacks it; needs root to create."""
    try:
        return pwd.getpwnam(name)
    except KeyError:
        pass
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    flags = ["--system", "--shell", "/usr/sbin/nologin"] if system else []
    done = subprocess.run(
        [useradd, "--no-create-home", *flags, name],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    if done.returncode not in (0, _USERADD_NAME_IN_USE):
        raise DevStackError(f"useradd {name} failed ({done.returncode}): {done.stderr.strip()}")
    return pwd.getpwnam(name)
