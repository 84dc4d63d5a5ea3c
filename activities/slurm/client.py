"""What activities need from Slurm, as a protocol: slurmctld's commands or a test's fake."""

from __future__ import annotations

from typing import Protocol

from activities.slurm.runner import CommandResult
from models.slurm import SlurmJob


class SlurmClient(Protocol):
    async def show_job(self, job_id: int) -> SlurmJob | None:
        """The job now; None when a good answer does not list it (not proof it is gone)."""

    async def job_known(self, job_id: int) -> bool:
        """False only on slurmctld's own "Invalid job id"; no answer raises SlurmError."""

    async def job_paths(self, job_id: int) -> tuple[str, str]:
        """(stdout path, working directory) of the job."""

    async def requeue_hold(self, job_id: int) -> CommandResult: ...

    async def release(self, job_id: int) -> CommandResult: ...

    async def make_requeueable(self, job_id: int) -> CommandResult: ...

    async def set_exclusions_and_start_now(
        self, job_id: int, nodes: list[str], delay_s: int = 0
    ) -> CommandResult: ...

    async def cancel(self, job_id: int) -> CommandResult: ...

    async def partition_nodes(self, partition: str) -> dict[str, str]:
        """{node: state} for every node of the partition."""
