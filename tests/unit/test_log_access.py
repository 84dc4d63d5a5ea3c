"""ajr reads a job's log only if it is the job user's own file, reached as that user could.

Every check is made on the opened descriptor, so a symlink swapped in between a check and a read
cannot lend rights (the race test swaps thousands of times).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from activities.logs.access import JobUser, LogAccessDenied, open_for_user, opener_for

pytestmark = pytest.mark.unit

NOBODY = JobUser(uid=54321, gid=54321)  # no such user in /etc/passwd: only its own uid/gid
SECRET = b"root-only: 0: RuntimeError: CUDA error: an illegal memory access was encountered\n"


@pytest.fixture
def tree() -> Iterator[Path]:
    # Not under pytest's tmp_path: its parent is 0700, which (correctly) shuts everyone out.
    tmp_path = Path(tempfile.mkdtemp(prefix="ajr-access-", dir="/tmp"))
    tmp_path.chmod(0o755)
    (tmp_path / "open").mkdir(mode=0o755)
    (tmp_path / "closed").mkdir(mode=0o700)
    (tmp_path / "mine").mkdir(mode=0o700)
    os.chown(tmp_path / "mine", NOBODY.uid, NOBODY.gid)
    files = {
        "open/own-644.log": (0o644, NOBODY.uid),
        "open/own-600.log": (0o600, NOBODY.uid),
        "open/own-200.log": (0o200, NOBODY.uid),
        "open/root-644.log": (0o644, 0),
        "open/root-600.log": (0o600, 0),
        "closed/own-644.log": (0o644, NOBODY.uid),
        "mine/own-600.log": (0o600, NOBODY.uid),
    }
    for relative, (mode, uid) in files.items():
        path = tmp_path / relative
        path.write_text("0: hello\n")
        path.chmod(mode)
        os.chown(path, uid, NOBODY.gid if uid else 0)
    (tmp_path / "open" / "to-root.log").symlink_to(tmp_path / "open" / "root-644.log")
    (tmp_path / "open" / "to-own.log").symlink_to("own-644.log")  # relative target
    (tmp_path / "open" / "dir-link").symlink_to(tmp_path / "mine")
    (tmp_path / "open" / "loop.log").symlink_to("loop.log")
    (tmp_path / "open" / "to-shadow.log").symlink_to("/etc/shadow")
    os.mkfifo(tmp_path / "open" / "fifo.log")
    os.chown(tmp_path / "open" / "fifo.log", NOBODY.uid, NOBODY.gid)
    yield tmp_path
    shutil.rmtree(tmp_path)


@pytest.mark.parametrize(
    ("relative", "allowed", "why"),
    [
        ("open/own-644.log", True, ""),
        ("open/own-600.log", True, ""),  # the owner's bits apply to the owner
        ("open/own-200.log", False, "may not read"),
        ("open/root-644.log", False, "not owned by"),  # world-readable, but not the user's log
        ("open/root-600.log", False, "not owned by"),
        ("closed/own-644.log", False, "cannot enter"),
        ("mine/own-600.log", True, ""),
        ("open/to-root.log", False, "not owned by"),  # a symlink does not lend rights
        ("open/to-own.log", True, ""),
        ("open/dir-link/own-600.log", True, ""),  # a directory symlink is walked, then checked
        ("open/loop.log", False, "too many symlinks"),
        ("open/to-shadow.log", False, "not owned by"),
        ("open/fifo.log", False, "not a regular file"),
        ("open", False, "not a regular file"),
    ],
)
def test_open_for_another_user(tree: Path, relative: str, allowed: bool, why: str) -> None:
    try:
        fd = open_for_user(str(tree / relative), NOBODY)
    except LogAccessDenied as exc:
        assert not allowed, exc
        assert why in str(exc)
    else:
        os.close(fd)
        assert allowed


def test_relative_paths_and_missing_files(tree: Path) -> None:
    with pytest.raises(LogAccessDenied, match="not an absolute path"):
        open_for_user("open/own-644.log", NOBODY)
    with pytest.raises(FileNotFoundError):
        open_for_user(str(tree / "open" / "missing.log"), NOBODY)


def test_a_root_job_reads_as_root(tree: Path) -> None:
    os.close(open_for_user(str(tree / "open" / "root-600.log"), JobUser(uid=0, gid=0)))


def test_opener_refuses_before_reading(tree: Path) -> None:
    with pytest.raises(LogAccessDenied, match="not owned"):
        opener_for(NOBODY)("/etc/shadow")
    with opener_for(NOBODY)(str(tree / "open" / "own-644.log")) as handle:
        assert handle.read() == b"0: hello\n"


def test_symlink_swap_race_never_leaks(tree: Path) -> None:
    """An attacker swaps the log between their own file and a root-only one as fast as it can."""
    secret = tree / "secret.log"
    secret.write_bytes(SECRET)
    secret.chmod(0o600)
    own = tree / "mine" / "own.log"
    own.write_bytes(b"0: mine\n")
    os.chown(own, NOBODY.uid, NOBODY.gid)
    log = tree / "mine" / "job.log"
    stop = threading.Event()
    swaps = 0

    def swap() -> None:
        nonlocal swaps
        tmp = tree / "mine" / "swap.tmp"
        while not stop.is_set():
            for target in (secret, own):
                tmp.unlink(missing_ok=True)
                tmp.symlink_to(target)
                os.rename(tmp, log)
                swaps += 1

    attacker = threading.Thread(target=swap, daemon=True)
    attacker.start()
    opened = refused = 0
    try:
        for _ in range(5000):
            try:
                with opener_for(NOBODY)(str(log)) as handle:
                    data = handle.read()
            except (LogAccessDenied, FileNotFoundError):
                refused += 1
                continue
            opened += 1
            assert data == b"0: mine\n"
    finally:
        stop.set()
        attacker.join()
    assert swaps > 1000 and opened > 100 and refused > 100, (swaps, opened, refused)
