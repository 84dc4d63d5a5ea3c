"""Fault injection at the Slurm boundary, for real-parts tests (never in ajr's own settings)."""

from __future__ import annotations

import asyncio

from activities.slurm.control import SlurmControl
from activities.slurm.runner import CommandResult, SlurmRunner


class PauseAfterHold(SlurmControl):
    """Real Slurm, but each requeuehold is followed by a pause: a window to kill the worker in,
    with the job held and not yet released."""

    def __init__(self, runner: SlurmRunner, seconds: float) -> None:
        super().__init__(runner)
        self.seconds = seconds

    async def requeue_hold(self, job_id: int) -> CommandResult:
        result = await super().requeue_hold(job_id)
        await asyncio.sleep(self.seconds)
        return result
