"""Several clusters, one Temporal, one database: a worker per Slurm cluster on its own task
queue, workflows named by cluster. And the canary rollout's first step: one cluster's worker in
observe-only mode shows in `ajr status` what it would have done, and changes nothing in Slurm.

Two real clusters at once: the session's and a second one (`ajrb`, its own ports).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from devstack import SlurmCluster
from models.recovery import Outcome
from models.slurm import JobState
from tests.conftest import PORT_OFFSET, integration_unavailable
from tests.integration.recovery_harness import ajr_running, seed_script
from worker.status import status_lines

pytestmark = pytest.mark.integration

# Away from the session cluster and test_least_privilege's (and other offsets', multiples of 100).
B_SLURMCTLD_PORT = 26837 + PORT_OFFSET
B_SLURMD_PORT = 26838 + PORT_OFFSET
B_NODE_PORT_BASE = 27021 + PORT_OFFSET


@pytest.fixture(scope="module")
def second_cluster() -> Iterator[SlurmCluster]:
    state_dir = Path(tempfile.mkdtemp(prefix="ajr-test-b-", dir="/tmp"))
    state_dir.chmod(0o755)
    cluster = SlurmCluster(
        state_dir,
        cluster_name="ajrb",
        nodes=2,
        cpus_per_node=4,
        slurmctld_port=B_SLURMCTLD_PORT,
        slurmd_port=B_SLURMD_PORT,
        node_port_base=B_NODE_PORT_BASE,
    )
    try:
        cluster.start(timeout=60)
    except Exception as exc:
        cluster.stop(stop_munge=False)
        integration_unavailable("second Slurm cluster", exc)
    try:
        yield cluster
    finally:
        cluster.stop(stop_munge=False)  # munged serves the session cluster too
        shutil.rmtree(state_dir, ignore_errors=True)


async def test_two_clusters_one_temporal_one_database(
    temporal_env, slurm_cluster, second_cluster: SlurmCluster, workdir: Path, mysql_url: str
) -> None:
    tag = uuid.uuid4().hex[:6]
    a_name, b_name = f"a{tag}", f"b{tag}"
    script = seed_script(after="echo 'Sleep another 6 seconds' && sleep 6 && exit 1")
    async with (
        ajr_running(
            temporal_env,
            slurm_cluster.conf,
            slurm_cluster.env,
            workdir,
            mysql_url,
            cluster_name=a_name,
            task_queue=f"ajr-{a_name}",
        ) as a,
        ajr_running(
            temporal_env,
            second_cluster.conf,
            second_cluster.subprocess_env(),
            workdir,
            mysql_url,
            cluster_name=b_name,
            task_queue=f"ajr-{b_name}",
            observe_only=True,
        ) as b,
    ):
        job_a = a.submit(script, name="multi")
        job_b = b.submit(script, name="multi")

        # B observes the crash and, while its job still runs, says what it would have done.
        deadline = time.monotonic() + 60
        while True:
            lines = await status_lines(temporal_env.client, b_name)
            row = next((line for line in lines if f"ajr-{b_name}-{job_b}" in line), "")
            if "observe-only, would requeue attempt 0" in row:
                break
            assert time.monotonic() < deadline, lines
            await asyncio.sleep(0.5)
        assert "segmentation fault" in row, row
        running = await b.job(job_b)
        assert running.state is JobState.RUNNING and running.restart_count == 0, running

        outcome_a = await a.outcome(job_a, timeout=120)
        outcome_b = await b.outcome(job_b, timeout=120)
        assert outcome_a.outcome is Outcome.MAX_REQUEUES, outcome_a
        assert outcome_b.outcome is Outcome.OBSERVED_ONLY, outcome_b
        assert (await a.job(job_a)).restart_count == 1
        assert (await b.job(job_b)).restart_count == 0  # nothing changed in cluster B

        # Each cluster's status lists its own job only; workflow ids carry the cluster.
        lines_a = "\n".join(await status_lines(temporal_env.client, a_name))
        lines_b = "\n".join(await status_lines(temporal_env.client, b_name))
        assert f"ajr-{a_name}-{job_a}" in lines_a and f"ajr-{b_name}" not in lines_a
        assert f"ajr-{b_name}-{job_b}" in lines_b and f"ajr-{a_name}" not in lines_b

    # One database: rows of both clusters, acted only in the managed one.
    engine = create_engine(mysql_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT cluster, job_id, action, acted FROM decision_records")
            ).all()
    finally:
        engine.dispose()
    acted = {(cluster, job, action) for cluster, job, action, done in rows if done}
    assert (a_name, job_a, "requeue") in acted, rows
    assert {cluster for cluster, *_ in rows} == {a_name, b_name}, rows
    assert not any(cluster == b_name for cluster, _, _, done in rows if done), rows
