"""Smoke: the pip Temporal servers start offline, run a workflow, and find it by SlurmJobId."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from devstack.temporal import TemporalServer
from models.search_attributes import SLURM_JOB_ID
from tests.integration.smoke_workflows import SleepyWorkflow, SmokeWorkflow, greet

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


async def test_workflow_runs_and_is_found_by_search_attribute(
    temporal_env: WorkflowEnvironment,
) -> None:
    client = temporal_env.client
    task_queue = f"smoke-{uuid.uuid4()}"
    job_id = str(uuid.uuid4().int % 10_000_000)
    async with Worker(client, task_queue=task_queue, workflows=[SmokeWorkflow], activities=[greet]):
        handle = await client.start_workflow(
            SmokeWorkflow.run,
            "slurm",
            id=f"smoke-{uuid.uuid4()}",
            task_queue=task_queue,
            search_attributes=TypedSearchAttributes([SearchAttributePair(SLURM_JOB_ID, job_id)]),
        )
        assert await handle.result() == "hello slurm"

    described = await handle.describe()
    assert described.typed_search_attributes.get(SLURM_JOB_ID) == job_id

    # Visibility is eventually consistent: poll with a deadline instead of sleeping blindly.
    deadline = time.monotonic() + 15
    found: list[str] = []
    while time.monotonic() < deadline:
        found = [w.id async for w in client.list_workflows(f"SlurmJobId = '{job_id}'")]
        if found:
            break
        await asyncio.sleep(0.2)
    assert found == [handle.id]


async def test_time_skipping_server_skips_a_day(time_skipping_env: WorkflowEnvironment) -> None:
    client = time_skipping_env.client
    task_queue = f"sleepy-{uuid.uuid4()}"
    started = time.monotonic()
    async with Worker(client, task_queue=task_queue, workflows=[SleepyWorkflow]):
        result = await client.execute_workflow(
            SleepyWorkflow.run, id=f"sleepy-{uuid.uuid4()}", task_queue=task_queue
        )
    assert result.startswith("slept 1 day")
    assert time.monotonic() - started < timedelta(seconds=30).total_seconds()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_a_worker_started_before_temporal_waits_for_it(tmp_path: Path) -> None:
    """A host reboot or a deploy can start the worker while Temporal is still down: it keeps
    trying to connect (AJR_TEMPORAL_CONNECT_TIMEOUT), never exits into a restart loop."""
    port, ui_port = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AJR_")}
    env.update(
        AJR_TEMPORAL_ADDRESS=f"127.0.0.1:{port}",
        AJR_DATABASE_URL=f"sqlite:///{tmp_path}/ajr.db",
        AJR_STATE_DIR=str(tmp_path / "state"),
        AJR_CLUSTER_NAME="late-temporal",
        AJR_SLURM_CONF=str(tmp_path / "no-slurm.conf"),
        PYTHONPATH=str(ROOT),
    )
    log_path = tmp_path / "worker.log"
    server = TemporalServer(tmp_path / "temporal", port=port, ui_port=ui_port)
    with log_path.open("wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "worker", "worker"], env=env, stdout=log, stderr=log, cwd=ROOT
        )
    try:
        # Its first failed connect is logged once its imports are done (seconds on a busy host).
        deadline = time.monotonic() + 60
        while "not reachable" not in log_path.read_text():
            assert worker.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.5)
        time.sleep(3)  # and it keeps trying, it does not exit
        assert worker.poll() is None, log_path.read_text()
        server.start(timeout=90)
        deadline = time.monotonic() + 90
        while "ajr worker: cluster late-temporal" not in log_path.read_text():
            assert worker.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.5)
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        server.stop()
