"""Smoke: the test cluster runs a 2-node job; srun writes AJR's per-attempt log name and ranks."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from devstack.slurm import program, wait_for_job_end
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
