"""No unit test can reach a real Slurm command, whichever way it tries (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner

pytestmark = pytest.mark.unit


def test_subprocess_cannot_run_squeue() -> None:
    with pytest.raises(AssertionError, match="tried to run squeue"):
        subprocess.run(["/usr/bin/squeue", "--json"], check=False)
    with pytest.raises(AssertionError, match="tried to run scontrol"):
        subprocess.run("scontrol show job 1", shell=True, check=False)


async def test_ajrs_own_slurm_client_cannot_reach_slurmctld() -> None:
    with pytest.raises(AssertionError, match="tried to run scontrol"):
        await SlurmControl(SlurmRunner()).show_job(1)
    with pytest.raises(AssertionError, match="tried to run sinfo"):
        await asyncio.create_subprocess_exec("sinfo")


def test_other_programs_still_run() -> None:
    assert subprocess.run(["true"], check=False).returncode == 0
