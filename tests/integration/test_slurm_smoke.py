"""Smoke: the test cluster runs a 2-node job; srun writes AJR's per-attempt log name and ranks."""

from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path

import pytest

from activities.slurm.control import SlurmControl
from activities.slurm.parse import jobs_from_squeue_json
from activities.slurm.runner import SlurmRunner
from devstack.slurm import program, wait_for_job_end
from models.slurm import JobState, SlurmJob
from tests.conftest import SlurmFixture

pytestmark = pytest.mark.integration

BATCH_SCRIPT = """#!/bin/bash
DATETIME=$(date +'date_%y-%m-%d_time_%H-%M-%S')
srun -l -u --output="$PWD/%x_%j_${DATETIME}.log" bash -c 'echo host $SLURMD_NODENAME'
"""


def test_two_node_job_writes_ranked_log_with_ajr_name(
    slurm_cluster: SlurmFixture, tmp_path: Path
) -> None:
    script = tmp_path / "smoke.sh"
    script.write_text(BATCH_SCRIPT)
    name = "ajrsmoke"
    submitted = subprocess.run(
        [
            program("sbatch"),
            "--parsable",
            "-N",
            "2",
            "-J",
            name,
            "-D",
            str(tmp_path),
            "-o",
            str(tmp_path / "batch-%j.out"),
            str(script),
        ],
        env=slurm_cluster.env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    job_id = submitted.stdout.strip().split(";")[0]

    state = wait_for_job_end(job_id, slurm_cluster.env, timeout=60)
    batch_out = tmp_path / f"batch-{job_id}.out"
    assert state == "COMPLETED", batch_out.read_text() if batch_out.exists() else state

    pattern = re.compile(rf"^{name}_{job_id}_date_\d\d-\d\d-\d\d_time_\d\d-\d\d-\d\d\.log$")
    logs = [p for p in tmp_path.iterdir() if p.name.startswith(f"{name}_")]
    assert len(logs) == 1, [p.name for p in tmp_path.iterdir()]
    assert pattern.match(logs[0].name), logs[0].name

    hosts: dict[str, str] = {}
    for line in logs[0].read_text().splitlines():
        match = re.fullmatch(r"(\d+): host (\S+)", line.strip())
        assert match, f"unexpected line {line!r}"
        hosts[match.group(1)] = match.group(2)
    assert set(hosts) == {"0", "1"}
    assert hosts["0"] != hosts["1"]
    assert {hosts["0"], hosts["1"]} <= set(slurm_cluster.nodes)


async def test_one_job_read_by_scontrol_agrees_with_squeue_json(
    slurm_cluster: SlurmFixture, tmp_path: Path
) -> None:
    """ajr reads one job with `scontrol -o show job <id>` (one REQUEST_JOB_INFO_SINGLE) and
    the whole cluster with `squeue --json`: on this Slurm both say the same of a running job,
    a held one, and one whose owner put ` UserId=0(0)` in its name (read from JSON then)."""
    control = SlurmControl(SlurmRunner(env=slurm_cluster.env))
    script = tmp_path / "sleep.sh"
    script.write_text("#!/bin/bash\nsleep 60\n")
    ids = []
    for name in ("plain run", "evil UserId=0(0) x=y"):
        done = subprocess.run(
            [
                program("sbatch"),
                "--parsable",
                *("-J", name, "-x", slurm_cluster.nodes[-1], "-D", str(tmp_path)),
                *("--comment", '{"APS": {"auto_resume_mode": "requeue"}}'),
                *("-o", str(tmp_path / "out-%j.txt"), str(script)),
            ],
            env=slurm_cluster.env,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        ids.append(int(done.stdout.strip().split(";")[0]))

    async def both(job_id: int) -> tuple[SlurmJob | None, SlurmJob | None]:
        listed = await control.runner.run("squeue", "--json", "--states=all")
        by_json = {job.job_id: job for job in jobs_from_squeue_json(listed.stdout)}
        return await control.show_job(job_id), by_json.get(job_id)

    def same(one: SlurmJob | None, other: SlurmJob | None) -> None:
        assert one is not None and other is not None
        # EndTime of an unlimited job: scontrol says Unknown, the JSON start + "infinite";
        # StdOut: scontrol expands `%j`, the JSON does not (ajr uses its directory only).
        differ = {"end_time", "state_reason", "stdout_path"}
        for name in set(SlurmJob.__dataclass_fields__) - differ:
            assert getattr(one, name) == getattr(other, name), name
        assert Path(one.stdout_path).parent == Path(other.stdout_path).parent
        assert one.held == other.held

    try:
        for job_id in ids:
            for _ in range(60):
                by_scontrol, _by_json = await both(job_id)
                if by_scontrol is not None and by_scontrol.state is JobState.RUNNING:
                    break
                await asyncio.sleep(0.5)
            same(*await both(job_id))
        assert (await control.show_job(ids[1])).user_id == 0  # type: ignore[union-attr]
        await control.requeue_hold(ids[0])
        for _ in range(60):
            by_scontrol, _by_json = await both(ids[0])
            if by_scontrol is not None and by_scontrol.state is JobState.PENDING:
                break
            await asyncio.sleep(0.25)
        held, listed = await both(ids[0])
        same(held, listed)
        assert held is not None and held.held and held.restart_count == 1
        assert await control.show_job(99_999_999) is None  # slurmctld's own "Invalid job id"
    finally:
        await asyncio.gather(*(control.cancel(job_id) for job_id in ids))
