"""Tell a job's next attempt which checkpoint to load: `ajr_rollback_<job id>.json` in the job's
working directory (the training script reads it; README "Checkpoint rollback").

ajr writes as root into a directory its user controls, so nothing there is trusted: the
directory is opened without following a final symlink and must be owned by the job's user, the
file is created beside it under a fresh name (O_EXCL, O_NOFOLLOW), given to the user, and
renamed over the old one within that same directory descriptor (a planted symlink is replaced,
never followed).
"""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import uuid
from dataclasses import asdict

from temporalio import activity

from activities.slurm.control import SlurmControl
from models.activities import ActivityName
from models.rollback import RollbackRequest, RollbackResult, rollback_file_name


def write_rollback_file(directory: str, request: RollbackRequest) -> RollbackResult:
    """Write the advice into `directory` for the job's user; refuse what is not theirs."""
    if not os.path.isabs(directory):
        return RollbackResult(False, detail=f"working directory not absolute: {directory!r}")
    try:
        user = pwd.getpwnam(request.user_name)
    except KeyError:
        return RollbackResult(False, detail=f"unknown user {request.user_name!r}")
    name = rollback_file_name(request.job_id)
    body = json.dumps(asdict(request), indent=2, sort_keys=True).encode() + b"\n"
    try:
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        return RollbackResult(False, detail=f"cannot open {directory}: {exc.strerror}")
    try:
        owner = os.fstat(dir_fd).st_uid
        if owner != user.pw_uid:
            return RollbackResult(False, detail=f"{directory} is not owned by {request.user_name}")
        temporary = f".{name}.{uuid.uuid4().hex}.tmp"
        fd = os.open(
            temporary,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
            0o644,
            dir_fd=dir_fd,
        )
        try:
            os.fchown(fd, user.pw_uid, user.pw_gid)
            os.write(fd, body)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError as exc:
        return RollbackResult(False, detail=f"cannot write {name}: {exc.strerror}")
    finally:
        os.close(dir_fd)
    return RollbackResult(True, path=os.path.join(directory, name))


class RollbackActivities:
    def __init__(self, control: SlurmControl) -> None:
        self._control = control

    @activity.defn(name=ActivityName.WRITE_ROLLBACK)
    async def write_rollback(self, request: RollbackRequest) -> RollbackResult:
        _, workdir = await self._control.job_paths(request.job_id)
        if not workdir:
            return RollbackResult(False, detail="the job's working directory is unknown")
        return await asyncio.to_thread(write_rollback_file, workdir, request)
