"""JobRecovery as a next release might change it: for the replay and upgrade-while-running tests.

The change: wait a second before every requeue (a new timer command before the requeue activity).
`PatchedUpgrade` makes it behind `workflow.patched`, as README "Changing a workflow safely" says;
`UnpatchedUpgrade` makes the same change carelessly. Both register as "JobRecovery".

A side-effect-free module: the workflow sandbox re-imports the module that defines a workflow.
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from models.recovery import Decision, JobOutcome, JobRecoveryInput, Observation, RequeueResult
    from workflows.job_recovery import JobRecoveryWorkflow

SETTLE_PATCH = "test-settle-before-requeue"
SETTLED_NOTE = "upgraded: settled before requeue"


@workflow.defn(name="JobRecovery")
class PatchedUpgrade(JobRecoveryWorkflow):
    @workflow.run
    async def run(self, job: JobRecoveryInput) -> JobOutcome:
        return await super().run(job)

    async def _requeue(self, observation: Observation, decision: Decision) -> RequeueResult:
        if workflow.patched(SETTLE_PATCH):
            self._note(SETTLED_NOTE)
            await workflow.sleep(timedelta(seconds=1))
        return await super()._requeue(observation, decision)


@workflow.defn(name="JobRecovery")
class UnpatchedUpgrade(JobRecoveryWorkflow):
    @workflow.run
    async def run(self, job: JobRecoveryInput) -> JobOutcome:
        return await super().run(job)

    async def _requeue(self, observation: Observation, decision: Decision) -> RequeueResult:
        self._note(SETTLED_NOTE)
        await workflow.sleep(timedelta(seconds=1))
        return await super()._requeue(observation, decision)
