"""Continue-as-new in the middle of an attempt, on real Slurm and a server that asks for it early.

Temporal suggests continue-as-new when a run's history grows long; ajr then goes on watching the
same attempt in a fresh run, carrying its watch position. The dev server here suggests it after
a dozen events, so a single attempt spans several runs.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from temporalio.api.enums.v1 import EventType
from temporalio.client import WorkflowHistory
from temporalio.testing import WorkflowEnvironment

from devstack import find_executable
from models.recovery import Outcome
from models.search_attributes import ALL_SEARCH_ATTRIBUTES
from tests.conftest import integration_unavailable
from tests.integration.histories import all_runs
from tests.integration.recovery_harness import ajr_running
from workflows.job_recovery import workflow_id

pytestmark = pytest.mark.integration

SUGGEST_AFTER_EVENTS = 12

# The job logs under a name ajr does not look for: LOG_MISSING (a note, no decision) comes back
# to the workflow mid-attempt, where the server's suggestion is taken.
SCRIPT = """#!/bin/bash
#SBATCH -t 00:05:00
#SBATCH --comment='{"APS": {"max_requeue_times": 1}}'
srun -l -u --output="$(pwd)/elsewhere_%j.log" bash -c \\
  "echo hello && sleep 8 && if [ \\${SLURM_RESTART_COUNT:-0} = 0 ]; then exit 1; fi"
"""


@pytest_asyncio.fixture(scope="module")
async def eager_temporal() -> AsyncIterator[WorkflowEnvironment]:
    try:
        env = await WorkflowEnvironment.start_local(
            dev_server_existing_path=find_executable("temporal"),
            search_attributes=ALL_SEARCH_ATTRIBUTES,
            ui=False,
            dev_server_extra_args=[
                "--dynamic-config-value",
                f"limit.historyCount.suggestContinueAsNew={SUGGEST_AFTER_EVENTS}",
            ],
        )
    except Exception as exc:
        integration_unavailable("Temporal dev server (early continue-as-new)", exc)
    async with env:
        yield env


def watch_requests(history: WorkflowHistory) -> list[dict[str, Any]]:
    """The WatchRequest of every watch_attempt this run scheduled, as JSON."""
    requests = []
    for event in history.events:
        if event.event_type != EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            continue
        scheduled = event.activity_task_scheduled_event_attributes
        if scheduled.activity_type.name == "watch_attempt":
            requests.append(json.loads(scheduled.input.payloads[0].data))
    return requests


async def test_continue_as_new_mid_attempt_keeps_watching_the_same_attempt(
    eager_temporal, slurm_cluster, workdir: Path, sqlite_url
) -> None:
    async with ajr_running(
        eager_temporal,
        slurm_cluster.conf,
        slurm_cluster.env,
        workdir,
        sqlite_url,
        startup_timeout=3.0,
    ) as ajr:
        job_id = ajr.submit(SCRIPT, name="long-history")
        outcome = await ajr.outcome(job_id, timeout=90)
        assert outcome.outcome is Outcome.COMPLETED, outcome
        assert (await ajr.job(job_id)).restart_count == 1

        runs = await all_runs(ajr.client, workflow_id(ajr.settings.cluster_name, job_id))
        watched = [[(w["attempt"], w["ignore"]) for w in watch_requests(run)] for run in runs]
        # Attempt 0 is watched in two runs: the second one carries what the first had reported.
        attempt0 = [run for run in watched if run and run[0][0] == 0]
        assert len(attempt0) >= 2, watched
        assert attempt0[1][0] == (0, ["LOG_MISSING"]), watched
        assert watched[-1][0][0] == 1, watched
        await ajr.save_histories("continue-as-new", job_id)
