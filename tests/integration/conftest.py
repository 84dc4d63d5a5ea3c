"""Fixtures of the real-parts tests: a job directory and an ajr worker on the test cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.recovery_harness import ajr_running


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "jobs"
    path.mkdir()
    path.chmod(0o755)
    return path


@pytest.fixture
def start_ajr(temporal_env, slurm_cluster, workdir):
    """`async with start_ajr(database_url, **settings) as ajr`: a worker on the test cluster."""

    def start(database_url: str, **overrides: Any):
        return ajr_running(
            temporal_env, slurm_cluster.conf, slurm_cluster.env, workdir, database_url, **overrides
        )

    return start
