"""`ajr demo`: the local stack, the seed's quick-start job, and its recovery narrated as it happens.

The stack's own background worker does the recovery; the demo only submits the job and reports
what Slurm and the job's workflow show, so what you see is what ajr really did.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError

from devstack.processes import DevStackError
from devstack.stack import DevStack
from models.recovery import AttemptRecord, JobOutcome
from worker.config import Settings
from worker.dev import stack_config
from workflows.job_recovery import JobRecoveryWorkflow, workflow_id

# The seed's quick-start script (000), with its 30 s / 60 s sleeps as parameters.
QUICK_START = """#!/bin/bash
#SBATCH -t 00:05:00
#SBATCH --comment='{{"APS": {{"auto_resume_mode": "requeue", "max_requeue_times": 1}}}}'
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
echo 'Autonomous Recovery Engine light-weight fault simulation test (auto resume mode: requeue)'
srun -l -u --output="$(pwd)/%x_%j_$DATETIME.log" bash -c \\
"echo 'Start time: $DATETIME' && echo 'Sleeping {first} seconds' && \\
sleep {first} && echo 'Rank0: (1) segmentation fault: artificial segfault' && \\
echo 'Sleep another {second} seconds' && \\
sleep {second} && exit 1"
"""


def slurm_narration(job_id: int, state: str, reason: str, nodes: str) -> str:
    """`Slurm: job 1 RUNNING on node1`, with squeue's reason only when it says something."""
    where = f" on {nodes}" if nodes else ""
    said = f" ({reason})" if reason and reason not in ("None", "(null)") else ""
    return f"Slurm: job {job_id} {state}{where}{said}"


def steer_hint(workflow_id: str) -> str:
    """The closing hint, runnable as printed whether or not the venv is on PATH: `ajr` by its
    full path, and `ajr dev env` puts the venv (with `temporal`) first on PATH."""
    ajr = Path(sys.executable).parent / "ajr"
    return (
        f'Steer it: eval "$({shlex.quote(str(ajr))} dev env)"; '
        f"temporal workflow query -w {workflow_id} --name status"
    )


def _say(started: float, message: str) -> None:
    print(f"[{time.monotonic() - started:6.1f}s] {message}", flush=True)


def _slurm_line(env: dict[str, str], job_id: int) -> str:
    result = subprocess.run(
        ["squeue", "--states=all", "--noheader", f"--jobs={job_id}", "--format=%T|%r|%N|%i"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip()


def _describe(record: AttemptRecord) -> list[str]:
    lines = [f"attempt {record.attempt}: {record.observed} detected -> {record.action}"]
    lines += [f"    because: {reason}" for reason in record.reasons]
    return lines


async def run_demo(settings: Settings, *, short: bool = True) -> int:
    started = time.monotonic()
    stack = DevStack(stack_config(settings))
    try:
        for line in stack.up():
            _say(started, line)
    except DevStackError as exc:
        print(f"ajr demo: {exc}", flush=True)
        return 1
    env = {**os.environ, **stack.env()}
    client = await Client.connect(stack.temporal.address, namespace=stack.config.namespace)

    jobs_dir = stack.state_dir / "demo"
    jobs_dir.mkdir(parents=True, exist_ok=True)
    script = Path(jobs_dir / "are_test.sh")
    first, second = (5, 20) if short else (30, 60)
    script.write_text(QUICK_START.format(first=first, second=second))
    submitted = subprocess.run(
        ["sbatch", "--parsable", "-J", "are_test", "-p", stack.config.partition, str(script)],
        cwd=jobs_dir,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    job_id = int(submitted.stdout.strip().split(";")[0])
    _say(started, f"submitted job {job_id} (max_requeue_times 1) from {script}")

    handle = client.get_workflow_handle_for(
        JobRecoveryWorkflow.run, workflow_id(stack.config.cluster_name, job_id)
    )
    ui = (
        f"{stack.temporal.ui_url}/namespaces/{stack.config.namespace}/workflows/"
        f"{workflow_id(stack.config.cluster_name, job_id)}"
    )
    enrolled, last_slurm = False, ""
    told: list[int] = []  # per attempt record: how many of its Slurm steps were shown
    deadline = time.monotonic() + (first + second) * 2 + 120
    outcome: JobOutcome | None = None
    while time.monotonic() < deadline:
        slurm = _slurm_line(env, job_id)
        if slurm and slurm != last_slurm:
            state, reason, nodes, _ = [*slurm.split("|"), "", "", "", ""][:4]
            _say(started, slurm_narration(job_id, state, reason, nodes))
            last_slurm = slurm
        try:
            description = await handle.describe()
            if not enrolled:
                _say(started, f"enrolled: workflow {handle.id}")
                enrolled = True
            records = await handle.query(JobRecoveryWorkflow.attempts)
            for index, record in enumerate(records):
                if index >= len(told):
                    told.append(0)
                    for line in _describe(record):
                        _say(started, line)
                for step in record.steps[told[index] :]:
                    _say(started, f"    in Slurm: {step}")
                told[index] = len(record.steps)
            if description.status != WorkflowExecutionStatus.RUNNING:
                outcome = await handle.result()
                break
        except RPCError:
            pass  # not enrolled yet: discovery runs every poll interval
        await asyncio.sleep(0.3)

    if outcome is None:
        _say(started, f"no outcome yet; see {stack.worker_log}")
        return 1
    _say(started, f"done: {outcome.outcome.value}: {outcome.reason}")
    logs = sorted(jobs_dir.glob(f"are_test_{job_id}_date_*.log"))
    _say(started, f"{len(logs)} attempt log(s): " + ", ".join(p.name for p in logs))
    print(f"\nTemporal UI: {ui}", flush=True)
    print(steer_hint(handle.id), flush=True)
    return 0
