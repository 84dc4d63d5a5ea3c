"""Node quarantine in Slurm: drain a node with ajr's reason, verified, within the per-day cap
and the hold-off after a return to service; and return a node to service (`ajr node resume`).

Idempotent: a node already drained or down is left as it is, and every step is re-read from
Slurm; the record of what ajr did is written once per event id.
"""

from __future__ import annotations

import asyncio

from temporalio import activity

from activities.database.quarantine import QuarantineLog
from activities.slurm.control import SlurmControl
from models.activities import ActivityName
from models.quarantine import (
    QuarantineAction,
    QuarantineMode,
    QuarantineRequest,
    QuarantineResult,
    drain_reason,
)
from models.slurm import is_valid_node_name

DAY_S = 86400.0


def is_drained(state: str) -> bool:
    """sinfo's long state of a node that takes no new jobs ("drained", "draining", "down*")."""
    return "drain" in state or state.startswith(("down", "fail"))


class QuarantineActivities:
    def __init__(self, control: SlurmControl, log: QuarantineLog) -> None:
        self._control = control
        self._log = log

    async def _record(
        self, request: QuarantineRequest, action: QuarantineAction, reason: str
    ) -> None:
        await asyncio.to_thread(
            self._log.record,
            event_id=f"{request.event_id}/{action.value}",
            cluster=request.cluster,
            node=request.node,
            action=action.value,
            reason=reason,
            at=request.now,
            job_id=request.job_id,
        )

    async def _suggest(
        self, request: QuarantineRequest, action: QuarantineAction, reason: str, why: str
    ) -> QuarantineResult:
        await self._record(request, QuarantineAction.SUGGESTED, reason)
        return QuarantineResult(request.node, action.value, f"{why}; suggested: {reason}")

    @activity.defn(name=ActivityName.QUARANTINE_NODE)
    async def quarantine_node(self, request: QuarantineRequest) -> QuarantineResult:
        node = request.node
        if not is_valid_node_name(node):
            return QuarantineResult(node, QuarantineAction.FAILED.value, "invalid node name")
        reason = drain_reason(request.category, request.evidence)
        if request.mode is not QuarantineMode.DRAIN:
            return await self._suggest(request, QuarantineAction.SUGGESTED, reason, "mode suggest")
        current = await self._control.node_state(node)
        if current is None:
            return QuarantineResult(node, QuarantineAction.FAILED.value, "node unknown to Slurm")
        if is_drained(current[0]):
            return QuarantineResult(
                node, QuarantineAction.ALREADY_DRAINED.value, f"{current[0]}: {current[1]}"
            )
        resumed = await asyncio.to_thread(self._log.last_resumed, request.cluster, node)
        if resumed is not None and request.now - resumed < request.holdoff_s:
            why = f"returned to service {request.now - resumed:.0f}s ago (hold-off)"
            return await self._suggest(request, QuarantineAction.HELD_OFF, reason, why)
        drained = await asyncio.to_thread(
            self._log.drained_since, request.cluster, request.now - DAY_S
        )
        if drained >= request.max_per_day:
            why = f"ajr drained {drained} node(s) today (cap {request.max_per_day})"
            return await self._suggest(request, QuarantineAction.CAPPED, reason, why)
        result = await self._control.drain_node(node, reason)
        after = await self._control.node_state(node)
        if after is None or not is_drained(after[0]):
            detail = result.stderr.strip() or f"still {after[0] if after else 'unknown'}"
            return QuarantineResult(
                node, QuarantineAction.FAILED.value, f"drain not applied: {detail}"
            )
        await self._record(request, QuarantineAction.DRAINED, reason)
        return QuarantineResult(node, QuarantineAction.DRAINED.value, f"{after[0]}: {after[1]}")
