"""Smoke: the pip Temporal servers start offline, run a workflow, and find it by SlurmJobId."""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import timedelta

import pytest
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from models.search_attributes import SLURM_JOB_ID
from tests.integration.smoke_workflows import SleepyWorkflow, SmokeWorkflow, greet

pytestmark = pytest.mark.integration


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
