"""`ajr node resume NODE`: return a node ajr quarantined to service, after the site's check.

The health check is an argument list from the settings (`AJR_NODE_HEALTHCHECK`, `{node}`
replaced by the node's name), never a shell string; the node returns to service only when it
exits 0, and the resume is verified in Slurm and recorded (the hold-off starts then).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass

from activities.database.engine import make_engine
from activities.database.quarantine import QuarantineLog
from activities.quarantine import is_drained
from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from models.quarantine import QuarantineAction, is_ajr_reason
from models.slurm import is_valid_node_name
from worker.config import Settings


@dataclass
class ResumeOutcome:
    code: int  # 0 resumed or nothing to do, 1 refused, 2 failed
    message: str


def healthcheck_args(template: list[str], node: str) -> list[str]:
    return [part.replace("{node}", node) for part in template]


async def run_healthcheck(args: list[str], timeout: float) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        return 124, f"timed out after {timeout:.0f}s"
    return process.returncode or 0, output.decode(errors="replace")[-2000:]


async def node_lines(settings: Settings, days: float = 7.0) -> list[str]:
    """`ajr node list`: nodes out of service with their reasons (ajr's marked), then ajr's
    quarantine actions and suggestions of the last days."""
    control = SlurmControl(SlurmRunner(env=settings.slurm_env(), bin_dir=settings.slurm_bin_dir))
    lines = ["out of service (Slurm):"]
    drained = await control.drained_nodes()
    for node, (state, reason) in sorted(drained.items()):
        mark = "ajr" if is_ajr_reason(reason) else "site"
        lines.append(f"  {node:<12} {state:<10} [{mark}] {reason}")
    if not drained:
        lines.append("  (none)")
    log = QuarantineLog(make_engine(settings.database_url))
    events = await asyncio.to_thread(
        log.recent, settings.cluster_name, time.time() - days * 86400.0
    )
    lines.append(f"ajr quarantine actions, last {days:g} days (mode {settings.node_quarantine}):")
    for event in events:
        job = f" job {event.job_id}" if event.job_id is not None else ""
        lines.append(
            f"  {event.at:%Y-%m-%d %H:%M:%S} {event.node:<12} {event.action}{job}: {event.reason}"
        )
    if not events:
        lines.append("  (none)")
    return lines


async def resume_node(
    settings: Settings, node: str, *, force: bool = False, skip_healthcheck: bool = False
) -> ResumeOutcome:
    if not is_valid_node_name(node):
        return ResumeOutcome(1, f"invalid node name: {node!r}")
    control = SlurmControl(SlurmRunner(env=settings.slurm_env(), bin_dir=settings.slurm_bin_dir))
    current = await control.node_state(node)
    if current is None:
        return ResumeOutcome(1, f"{node}: unknown to Slurm")
    state, reason = current
    if not is_drained(state):
        return ResumeOutcome(0, f"{node}: {state}, not drained: nothing to do")
    if not is_ajr_reason(reason) and not force:
        return ResumeOutcome(1, f"{node}: drained by someone else ({reason!r}); --force to resume")
    if settings.node_healthcheck and not skip_healthcheck:
        args = healthcheck_args(list(settings.node_healthcheck), node)
        code, output = await run_healthcheck(args, settings.node_healthcheck_timeout)
        if code != 0:
            return ResumeOutcome(1, f"{node}: health check failed (exit {code}): {output.strip()}")
    result = await control.resume_node(node)
    after = await control.node_state(node)
    if after is None or is_drained(after[0]):
        detail = result.stderr.strip() or (after[0] if after else "unknown")
        return ResumeOutcome(2, f"{node}: not resumed: {detail}")
    log = QuarantineLog(make_engine(settings.database_url))
    await asyncio.to_thread(
        log.record,
        event_id=f"resume/{settings.cluster_name}/{node}/{uuid.uuid4().hex}",
        cluster=settings.cluster_name,
        node=node,
        action=QuarantineAction.RESUMED.value,
        reason=f"was: {reason}",
        at=time.time(),
    )
    return ResumeOutcome(0, f"{node}: returned to service ({after[0]}); was {reason!r}")
