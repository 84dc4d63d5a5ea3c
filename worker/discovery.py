"""Discovery: every new PENDING or RUNNING job that opted in gets its workflow, exactly once.

It reads the worker's shared cluster snapshot, so it adds no load on slurmctld. Starting a
workflow whose ID exists fails harmlessly, which is what keeps repeated discovery (and several
workers discovering at once) from ever starting a duplicate. A round starts its new workflows
concurrently, at most `AJR_DISCOVERY_CONCURRENCY` at once: one at a time, 1,000 new jobs took
minutes of round trips to Temporal before the last was watched.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from temporalio.client import Client
from temporalio.common import (
    SearchAttributePair,
    TypedSearchAttributes,
    WorkflowIDReusePolicy,
)
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.service import RPCError

from activities import telemetry
from activities.slurm.poller import ClusterPoller, ClusterSnapshot
from models import search_attributes as sa
from models.enrolment import EnrolmentDecision, Verdict, decide_enrolment
from models.recovery import JobRecoveryInput, Outcome, RecoveryConfig, RecoveryState
from models.slurm import JobState, SlurmJob
from workflows.job_recovery import JobRecoveryWorkflow, workflow_id

log = logging.getLogger(__name__)

DISCOVERABLE = frozenset({JobState.PENDING, JobState.RUNNING})


@dataclass(frozen=True)
class DiscoveryPolicy:
    cluster: str
    config: RecoveryConfig
    managed_partitions: frozenset[str] = frozenset()
    observe_only_partitions: frozenset[str] = frozenset()


@dataclass
class Enrolment:
    job: SlurmJob
    decision: EnrolmentDecision
    input: JobRecoveryInput


@dataclass
class DiscoveryStats:
    rounds: int = 0
    enrolled: int = 0
    rejected: int = 0
    rejected_reasons: dict[int, str] = field(default_factory=dict)


def plan_enrolment(job: SlurmJob, policy: DiscoveryPolicy) -> Enrolment | None:
    """The workflow input for a job, or None when the job did not opt in. Pure."""
    decision = decide_enrolment(job.comment, job.partition, policy.managed_partitions)
    if decision.verdict is Verdict.NOT_OPTED_IN:
        return None
    observe_only = policy.config.observe_only or job.partition in policy.observe_only_partitions
    config = RecoveryConfig(**{**policy.config.__dict__, "observe_only": observe_only})
    return Enrolment(
        job=job,
        decision=decision,
        input=JobRecoveryInput(
            cluster=policy.cluster,
            job_id=job.job_id,
            job_name=job.name,
            user_name=job.user_name,
            partition=job.partition,
            mode=decision.mode,
            max_requeue_times=decision.max_requeue_times,
            in_job_restarter=decision.in_job_restarter,
            enrolled_by=decision.source,
            not_managed_reason=decision.reason if decision.verdict is Verdict.INVALID else "",
            config=config,
            state=RecoveryState(attempt=job.restart_count, warnings=list(decision.warnings)),
        ),
    )


def plan_rejection(job: SlurmJob, policy: DiscoveryPolicy, reason: str) -> Enrolment:
    """A not-managed record for a job ajr cannot handle, with the reason. Pure."""
    decision = EnrolmentDecision(Verdict.INVALID, reason=reason)
    return Enrolment(
        job=job,
        decision=decision,
        input=JobRecoveryInput(
            cluster=policy.cluster,
            job_id=job.job_id,
            job_name=job.name[:200],
            user_name=job.user_name[:200],
            partition=job.partition[:200],
            not_managed_reason=reason[:500],
            config=policy.config,
        ),
    )


def new_candidates(snapshot: ClusterSnapshot, seen: set[int]) -> list[SlurmJob]:
    return [
        job
        for job_id, job in sorted(snapshot.jobs.items())
        if job_id not in seen and job.state in DISCOVERABLE
    ]


class Discoverer:
    def __init__(
        self,
        poller: ClusterPoller,
        client: Client,
        policy: DiscoveryPolicy,
        task_queue: str,
        *,
        concurrency: int = 16,
    ) -> None:
        self._poller = poller
        self._concurrency = max(1, concurrency)
        self._client = client
        self._policy = policy
        self._task_queue = task_queue
        self._seen: set[int] = set()
        self.stats = DiscoveryStats()
        self.enabled = True

    async def run(self) -> None:
        async for snapshot in self._poller.snapshots():
            if not snapshot.ok:
                continue
            try:
                await self.discover(snapshot)
            except Exception:  # a surprise in one round must not end discovery for good
                log.exception("discovery round %s failed; retrying next round", snapshot.sequence)

    async def discover(self, snapshot: ClusterSnapshot) -> None:
        """Start the new jobs' workflows, at most `concurrency` starts in flight at once."""
        self.stats.rounds += 1
        self._seen &= set(snapshot.jobs)  # forget jobs slurmctld has forgotten (good polls only)
        new = new_candidates(snapshot, self._seen)
        candidates = iter(new)

        async def lane() -> None:
            for job in candidates:  # one shared iterator: each job is taken by one lane
                try:
                    await self._discover_one(job)
                except Exception:  # never stop this lane's other jobs (retried next round)
                    log.exception("job %s: discovery failed", job.job_id)

        await asyncio.gather(*(lane() for _ in range(min(self._concurrency, len(new)))))

    async def _discover_one(self, job: SlurmJob) -> None:
        try:
            enrolment = plan_enrolment(job, self._policy)
        except Exception as exc:  # one job's surprise must never stop the round
            log.exception(
                "job %s: cannot read its enrolment", job.job_id, extra=self._context(job.job_id)
            )
            enrolment = plan_rejection(job, self._policy, f"ajr could not read it: {exc!r}")
        if enrolment is None:
            self._seen.add(job.job_id)
            return
        try:
            await self._start(enrolment)
        except RPCError as exc:  # Temporal unreachable: try again next round
            log.warning(
                "could not enrol job %s: %s", job.job_id, exc, extra=self._context(job.job_id)
            )
            return
        except Exception:
            # Something about this job that Temporal or the converter refuses: record it as
            # not managed with the reason, and go on with the other jobs.
            log.exception("job %s: could not start its workflow", job.job_id)
            if not await self._reject_quietly(job, "ajr could not start its workflow"):
                return
        self._seen.add(job.job_id)

    async def _reject_quietly(self, job: SlurmJob, reason: str) -> bool:
        """Start a not-managed record for `job`; False if even that fails (retry next round)."""
        try:
            await self._start(plan_rejection(job, self._policy, reason))
        except Exception:
            log.exception("job %s: could not record it as not managed", job.job_id)
            return False
        return True

    def _context(self, job_id: int) -> dict[str, object]:
        """A log line's job fields (JSON logs: `AJR_LOG_FORMAT=json`)."""
        return {
            "job_id": job_id,
            "cluster": self._policy.cluster,
            "workflow_id": workflow_id(self._policy.cluster, job_id),
        }

    async def _start(self, enrolment: Enrolment) -> None:
        job, decision = enrolment.job, enrolment.decision
        rejected = decision.verdict is Verdict.INVALID
        summary = f"Slurm job {job.job_id} ({job.name}, {job.user_name}, {job.partition}): " + (
            f"NOT managed: {decision.reason}" if rejected else f"managed ({decision.source})"
        )
        attributes = TypedSearchAttributes(
            [
                SearchAttributePair(sa.AJR_CLUSTER, self._policy.cluster),
                SearchAttributePair(sa.SLURM_JOB_ID, str(job.job_id)),
                SearchAttributePair(sa.SLURM_JOB_NAME, job.name),
                SearchAttributePair(sa.SLURM_USER, job.user_name),
                SearchAttributePair(sa.SLURM_PARTITION, job.partition),
                SearchAttributePair(sa.SLURM_RESTART_COUNT, job.restart_count),
                SearchAttributePair(
                    sa.AJR_OUTCOME, (Outcome.NOT_MANAGED if rejected else Outcome.RUNNING).value
                ),
            ]
        )
        try:
            await self._client.start_workflow(
                JobRecoveryWorkflow.run,
                enrolment.input,
                id=workflow_id(self._policy.cluster, job.job_id),
                task_queue=self._task_queue,
                id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
                search_attributes=attributes,
                static_summary=summary[:400],
                memo={"comment": job.comment[:2000], "enrolled_by": decision.source},
            )
        except WorkflowAlreadyStartedError:  # another worker (or an earlier round) started it
            telemetry.ENROLMENT_DUPLICATES.add(1)
            return
        telemetry.JOBS_ENROLLED.add(1, {"managed": str(not rejected).lower()})
        if rejected:
            self.stats.rejected += 1
            self.stats.rejected_reasons[job.job_id] = decision.reason
            log.warning(
                "job %s not managed: %s",
                job.job_id,
                decision.reason,
                extra=self._context(job.job_id),
            )
        else:
            self.stats.enrolled += 1
            for warning in decision.warnings:
                log.warning("job %s: %s", job.job_id, warning, extra=self._context(job.job_id))
            log.info(
                "enrolled job %s (%s) attempt %s",
                job.job_id,
                job.name,
                job.restart_count,
                extra=self._context(job.job_id),
            )
