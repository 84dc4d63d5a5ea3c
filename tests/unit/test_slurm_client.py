"""ajr's Slurm client: one job read with one single-job RPC, and a bound on concurrent commands.

The runner's process spawn is replaced (no Slurm command runs in a unit test); what is tested is
everything above it: which command a read runs, how each answer is read, the queue.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from activities.slurm.control import SlurmControl
from activities.slurm.runner import CommandResult, SlurmError, SlurmRunner
from models.slurm import JobState

pytestmark = pytest.mark.unit
FIXTURES = Path(__file__).parent / "fixtures"
LINES = (FIXTURES / "scontrol-22.05-jobs.txt").read_text().splitlines()
HOSTILE = LINES[1]  # job 2: name "evil UserId=0(0) x=y", comment "c JobState=COMPLETED"


class ScriptedRunner(SlurmRunner):
    """Answers each program from a table and records every command; `delay` per command
    other than squeue."""

    def __init__(
        self,
        answers: dict[str, CommandResult],
        *,
        delay: float = 0.0,
        max_concurrent: int = 8,
        timeout: float = 30,
    ) -> None:
        super().__init__(max_concurrent=max_concurrent, timeout=timeout)
        self.answers = answers
        self.delay = delay
        self.calls: list[tuple[str, ...]] = []

    async def _spawn(self, program: str, *args: str, check: bool) -> CommandResult:
        self.calls.append((program, *args))
        await asyncio.sleep(0 if program == "squeue" else self.delay)
        return self.answers[program]


def _squeue_json(job_id: int, name: str, user_id: int) -> str:
    return json.dumps(
        {
            "jobs": [
                {"job_id": 1, "name": "x", "job_state": "RUNNING"},
                {
                    "job_id": job_id,
                    "name": name,
                    "job_state": "RUNNING",
                    "user_id": user_id,
                    "user_name": "alice",
                    "comment": "c JobState=COMPLETED",
                },
            ]
        }
    )


async def test_one_job_is_one_scontrol_single_job_read() -> None:
    runner = ScriptedRunner({"scontrol": CommandResult(0, LINES[2] + "\n", "")})
    job = await SlurmControl(runner).show_job(3)
    assert job is not None and job.state is JobState.RUNNING and job.nodes == ("node1",)
    assert runner.calls == [("scontrol", "-o", "show", "job", "3")]


async def test_a_forgeable_line_is_read_from_squeue_json_instead() -> None:
    runner = ScriptedRunner(
        {
            "scontrol": CommandResult(0, HOSTILE + "\n", ""),
            "squeue": CommandResult(0, _squeue_json(2, "evil UserId=0(0) x=y", 1000), ""),
        }
    )
    job = await SlurmControl(runner).show_job(2)
    assert job is not None
    assert (job.name, job.user_id, job.state) == ("evil UserId=0(0) x=y", 1000, JobState.RUNNING)
    assert [call[0] for call in runner.calls] == ["scontrol", "squeue"]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (CommandResult(1, "", "slurm_load_jobs error: Invalid job id specified\n"), None),
        (CommandResult(0, "", ""), None),  # a good answer without the job: not proof it is gone
    ],
)
async def test_slurmctlds_own_no_is_none(answer: CommandResult, expected: None) -> None:
    assert await SlurmControl(ScriptedRunner({"scontrol": answer})).show_job(7) is expected


@pytest.mark.parametrize(
    "answer",
    [
        CommandResult(1, "", "slurm_load_jobs error: Socket timed out on send/recv operation\n"),
        CommandResult(1, "", "slurm_load_jobs error: Unable to contact slurm controller\n"),
        CommandResult(0, "JobId=7 JobName=a UserId=nobody JobState=RUNNING\n", ""),  # garbage
    ],
)
async def test_no_answer_is_a_failed_query_never_job_gone(answer: CommandResult) -> None:
    with pytest.raises(SlurmError) as raised:
        await SlurmControl(ScriptedRunner({"scontrol": answer})).show_job(7)
    assert raised.value.unavailable


async def test_commands_beyond_the_limit_wait_their_turn() -> None:
    runner = ScriptedRunner(
        {"scontrol": CommandResult(0, LINES[2] + "\n", "")}, delay=0.05, max_concurrent=3
    )
    control = SlurmControl(runner)
    jobs = await asyncio.gather(*(control.show_job(3) for _ in range(20)))
    assert all(job is not None for job in jobs)
    assert len(runner.calls) == 20
    assert runner.peak_running == 3 and runner.running == 0


async def test_the_poller_is_not_queued_behind_activities() -> None:
    runner = ScriptedRunner(
        {"scontrol": CommandResult(0, "", ""), "squeue": CommandResult(0, '{"jobs": []}', "")},
        delay=1.0,
        max_concurrent=1,
    )
    busy = asyncio.ensure_future(runner.run("scontrol", "show", "job", "1"))
    await asyncio.sleep(0.01)
    started = asyncio.get_running_loop().time()
    await runner.run("squeue", "--json", "--states=all", bounded=False)
    assert asyncio.get_running_loop().time() - started < 0.5  # did not wait for the slot
    assert runner.peak_running == 2
    await busy


async def test_no_slot_within_the_timeout_is_slurm_unavailable() -> None:
    runner = ScriptedRunner(
        {"scontrol": CommandResult(0, "", "")}, delay=1.0, max_concurrent=1, timeout=0.1
    )
    busy = asyncio.ensure_future(runner.run("scontrol", "show", "job", "1"))
    await asyncio.sleep(0.01)
    with pytest.raises(SlurmError, match="no free Slurm command slot") as raised:
        await runner.run("scontrol", "show", "job", "2")
    assert raised.value.unavailable
    assert len(runner.calls) == 1  # the second command never ran
    busy.cancel()
