"""Slurm's network topology for the failure-domain rule: leaf switches, and the job's fit.

A thin shell over `scontrol show topology` (cached: the topology changes only with slurm.conf),
`squeue` for the job and `sinfo` for its partition. Nothing is changed in Slurm.
"""

from __future__ import annotations

import time

from temporalio import activity

from activities.slurm.control import InvalidNodeName, SlurmControl
from activities.slurm.parse import ParseError
from activities.slurm.runner import SlurmError
from models.activities import ActivityName
from models.failure_domains import FailureDomainsRequest, FailureDomainsResult

TOPOLOGY_CACHE_S = 300.0


class TopologyActivities:
    def __init__(self, control: SlurmControl, cache_s: float = TOPOLOGY_CACHE_S) -> None:
        self._control = control
        self._cache_s = cache_s
        self._switches: dict[str, tuple[str, ...]] | None = None
        self._read_at = 0.0

    async def leaf_switches(self) -> dict[str, tuple[str, ...]]:
        now = time.monotonic()
        if self._switches is None or now - self._read_at >= self._cache_s:
            self._switches = await self._control.leaf_switches()
            self._read_at = now
        return self._switches

    @activity.defn(name=ActivityName.READ_FAILURE_DOMAINS)
    async def read_failure_domains(self, request: FailureDomainsRequest) -> FailureDomainsResult:
        """The leaf switches, and the job's partition, node states, node count and exclusions.

        Anything unreadable is said in `detail` with no switches: the rule is then inert.
        """
        try:
            switches = await self.leaf_switches()
            if not switches:
                return FailureDomainsResult(detail="no topology configured (topology/tree)")
            job = await self._control.show_job(request.job_id)
            if job is None:
                return FailureDomainsResult(detail=f"job {request.job_id} not listed by squeue")
            states = await self._control.partition_nodes(job.partition) if job.partition else {}
        except (SlurmError, ParseError, InvalidNodeName) as exc:
            return FailureDomainsResult(detail=f"topology not read: {exc}")
        return FailureDomainsResult(
            switches={name: list(nodes) for name, nodes in switches.items()},
            partition=job.partition,
            partition_nodes=states,
            needed=job.node_count,
            excluded=list(job.excluded_nodes),
        )
