"""ajr reads a job's log only if the job's own user could: paths and symlinks are checked."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from activities.logs.access import JobUser, LogAccessDenied, may_read, opener_for

pytestmark = pytest.mark.unit

NOBODY = JobUser(uid=54321, gid=54321)  # no such user: only "other" permission bits apply


@pytest.fixture
def tree() -> Iterator[Path]:
    # Not under pytest's tmp_path: its parent is 0700, which (correctly) shuts everyone out.
    tmp_path = Path(tempfile.mkdtemp(prefix="ajr-access-", dir="/tmp"))
    tmp_path.chmod(0o755)
    (tmp_path / "open").mkdir(mode=0o755)
    (tmp_path / "closed").mkdir(mode=0o700)
    for directory, mode in (("open", 0o644), ("open", 0o600), ("closed", 0o644)):
        path = tmp_path / directory / f"log-{mode:o}.log"
        path.write_text("0: hello\n")
        path.chmod(mode)
    (tmp_path / "open" / "to-secret.log").symlink_to(tmp_path / "open" / "log-600.log")
    (tmp_path / "open" / "to-public.log").symlink_to(tmp_path / "open" / "log-644.log")
    os.mkfifo(tmp_path / "open" / "fifo.log")
    (tmp_path / "open" / "fifo.log").chmod(0o666)
    yield tmp_path
    shutil.rmtree(tmp_path)


@pytest.mark.parametrize(
    ("relative", "allowed", "why"),
    [
        ("open/log-644.log", True, ""),
        ("open/log-600.log", False, "may not read"),
        ("closed/log-644.log", False, "cannot enter"),
        ("open/to-secret.log", False, "may not read"),  # a symlink does not lend rights
        ("open/to-public.log", True, ""),
        ("open/fifo.log", False, "not a regular file"),
    ],
)
def test_may_read_for_another_user(tree: Path, relative: str, allowed: bool, why: str) -> None:
    reason = may_read(str(tree / relative), NOBODY)
    assert (reason == "") is allowed, reason
    assert why in reason


def test_owner_bits_apply_to_the_owner(tree: Path) -> None:
    secret = tree / "open" / "log-600.log"
    os.chown(secret, NOBODY.uid, NOBODY.gid)
    assert may_read(str(secret), NOBODY) == ""


def test_opener_refuses_before_opening(tree: Path) -> None:
    with pytest.raises(LogAccessDenied, match="may not read"):
        opener_for(NOBODY)("/etc/shadow")
    with opener_for(NOBODY)(str(tree / "open" / "log-644.log")) as handle:
        assert handle.read() == b"0: hello\n"
