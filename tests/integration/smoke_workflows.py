"""Workflows and activities of the smoke tests, in a side-effect-free module.

The workflow sandbox re-imports the module that defines a workflow; a test module with fixtures
and an event loop running must not be that module.
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import activity, workflow


@activity.defn
async def greet(name: str) -> str:
    return f"hello {name}"


@workflow.defn
class SmokeWorkflow:
    """One activity, then done."""

    @workflow.run
    async def run(self, name: str) -> str:
        return await workflow.execute_activity(
            greet, name, start_to_close_timeout=timedelta(seconds=10)
        )


@workflow.defn
class SleepyWorkflow:
    """Sleeps a virtual day: finishes at once only where time skips."""

    @workflow.run
    async def run(self) -> str:
        start = workflow.now()
        await workflow.sleep(timedelta(days=1))
        return f"slept {workflow.now() - start}"
