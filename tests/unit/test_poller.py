"""The shared poller parses squeue's answer only when it differs from the last good one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from activities.slurm.poller import ClusterPoller
from activities.slurm.runner import CommandResult, SlurmRunner
from tests.fakes import unreachable

pytestmark = pytest.mark.unit

FIXTURE = Path(__file__).parent / "fixtures" / "squeue-22.05-running.json"


class ScriptedRunner(SlurmRunner):
    """Answers each `squeue` with the next scripted output (an Exception: slurmctld silent)."""

    def __init__(self, answers: list[str | Exception]) -> None:
        super().__init__()
        self.answers = answers

    async def run(
        self, program: str, *args: str, check: bool = True, bounded: bool = True
    ) -> CommandResult:
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return CommandResult(0, answer, "")


def with_restarts(restarts: int) -> str:
    data = json.loads(FIXTURE.read_text())
    for job in data["jobs"]:
        job["restart_cnt"] = restarts
    return json.dumps(data)


SAME, CHANGED, DOWN = with_restarts(0), with_restarts(1), unreachable("squeue")


@pytest.mark.parametrize(
    ("answers", "parses", "restarts", "ok"),
    [
        ([SAME], 1, 0, True),
        ([SAME, SAME, SAME], 1, 0, True),  # unchanged: parsed once
        ([SAME, CHANGED], 2, 1, True),
        ([SAME, CHANGED, SAME], 3, 0, True),  # back to an earlier answer: parsed again
        ([SAME, DOWN], 1, 0, False),  # a failed poll keeps the last good jobs
        ([SAME, DOWN, SAME], 2, 0, True),  # after a failure: parsed afresh
    ],
)
async def test_an_unchanged_answer_is_not_parsed_again(
    answers: list[str | Exception], parses: int, restarts: int, ok: bool
) -> None:
    poller = ClusterPoller(ScriptedRunner(list(answers)), interval=1.0)
    for _ in answers:
        snapshot = await poller.poll_once()
    assert poller.parsed == parses
    assert snapshot.ok == ok and snapshot.sequence == len(answers)
    assert snapshot.jobs and {job.restart_count for job in snapshot.jobs.values()} == {restarts}
