"""Node quarantine through the real parts: a GPU that fell off the bus drains its node in Slurm
(reason `ajr: GPU ...`), `ajr node resume` returns it after the site's health check, and the
hold-off and the per-day cap keep ajr from draining again on its own. Every node is restored."""

from __future__ import annotations

import time

import pytest

from activities.database.engine import make_engine
from activities.database.quarantine import QuarantineLog
from activities.quarantine import QuarantineActivities, is_drained
from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from models.quarantine import QuarantineAction, QuarantineMode, QuarantineRequest
from models.recovery import Outcome
from tests.integration.recovery_harness import seed_script
from tests.integration.test_notify import Receiver
from worker.nodes import node_lines, resume_node
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.integration

XID_ON_FIRST_ATTEMPT = (
    "if [ \\${SLURM_RESTART_COUNT:-0} = 0 ]; then echo "
    '\\"[12345.6] \\$SLURMD_NODENAME kernel: NVRM: Xid '
    '(PCI:0000:3b:00): 79, pid=4242, GPU has fallen off the bus.\\"; fi'
)


async def _node_state(control: SlurmControl, node: str) -> tuple[str, str]:
    current = await control.node_state(node)
    assert current is not None, node
    return current


async def test_drain_resume_holdoff_and_cap(start_ajr, slurm_cluster, workdir, sqlite_url):
    hooks = Receiver()
    async with start_ajr(
        sqlite_url, node_quarantine="drain", notify_webhook_url=f"{hooks.url}/hook"
    ) as ajr:
        control = SlurmControl(SlurmRunner(env=ajr.settings.slurm_env()))
        touched: list[str] = []
        try:
            job_id = ajr.submit(
                seed_script(
                    comment='{"APS": {"max_requeue_times": 1}}',
                    crash_line=XID_ON_FIRST_ATTEMPT,
                    after="sleep 3",
                ),
                name="xid-drain",
            )
            outcome = await ajr.outcome(job_id, timeout=90)
            assert outcome.outcome is Outcome.COMPLETED, outcome  # attempt 1 elsewhere: fine
            records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
            (bad,) = records[0].excluded_nodes
            touched.append(bad)
            assert any(f"node {bad} quarantine: drained" in r for r in records[0].reasons)
            # The operators heard of it: one node notice, naming the node.
            node_notices = [body for _, body in hooks.posts if body.get("kind") == "node_suspect"]
            assert len(node_notices) == 1, hooks.posts
            assert node_notices[0]["culprit_nodes"] == [bad], node_notices
            assert str(node_notices[0]["text"]).startswith(f"node {bad} drained by ajr: GPU")
            # exclusion effectiveness: the attempt after excluding it finished
            assert f"exclusion of {bad} helped: the next attempt finished" in records[1].reasons
            await ajr.save_histories("v2-quarantine", job_id)

            state, reason = await _node_state(control, bad)
            assert is_drained(state), state
            assert reason.startswith("ajr: GPU") and "Xid" in reason, reason
            listing = "\n".join(await node_lines(ajr.settings))
            assert f"{bad}" in listing and "[ajr] ajr: GPU" in listing, listing
            assert f"{bad:<12} drained job {job_id}" in listing, listing

            # the site's health check fails: the node stays out of service
            failing = ajr.settings.model_copy(update={"node_healthcheck": ["false", "{node}"]})
            refused = await resume_node(failing, bad)
            assert refused.code == 1 and "health check failed" in refused.message
            assert is_drained((await _node_state(control, bad))[0])

            passing = ajr.settings.model_copy(update={"node_healthcheck": ["test", "{node}"]})
            resumed = await resume_node(passing, bad)
            assert resumed.code == 0, resumed.message
            assert not is_drained((await _node_state(control, bad))[0])

            # hysteresis: the same evidence again right after the return: suggested only
            log = QuarantineLog(make_engine(sqlite_url))
            activities = QuarantineActivities(control, log)

            def request(node: str, tag: str) -> QuarantineRequest:
                return QuarantineRequest(
                    cluster=ajr.settings.cluster_name,
                    node=node,
                    category="GPU",
                    evidence="Xid 79 again",
                    job_id=job_id,
                    mode=QuarantineMode.DRAIN,
                    now=time.time(),
                    max_per_day=1,
                    event_id=f"test/{tag}",
                )

            again = await activities.quarantine_node(request(bad, "again"))
            assert again.action == QuarantineAction.HELD_OFF, again
            assert not is_drained((await _node_state(control, bad))[0])

            # the per-day cap (1): ajr drained one node today, a second is only suggested
            other = next(n for n in ("node1", "node2", "node3", "node4") if n != bad)
            touched.append(other)
            capped = await activities.quarantine_node(request(other, "cap"))
            assert capped.action == QuarantineAction.CAPPED, capped
            assert not is_drained((await _node_state(control, other))[0])

            # a node someone else drained is never resumed by ajr without --force
            ajr.scontrol("update", f"NodeName={other}", "State=DRAIN", "Reason=site maintenance")
            kept = await resume_node(passing, other)
            assert kept.code == 1 and "someone else" in kept.message
            already = await activities.quarantine_node(request(other, "already"))
            assert already.action == QuarantineAction.ALREADY_DRAINED
            assert (await _node_state(control, other))[1] == "site maintenance"
            listing = "\n".join(await node_lines(ajr.settings))
            assert "[site] site maintenance" in listing, listing
            assert f"{other:<12} suggested job {job_id}" in listing, listing  # the capped one
        finally:
            for node in touched:  # the cluster is shared by the session's other tests
                state, _ = await _node_state(control, node)
                if is_drained(state):
                    ajr.scontrol("update", f"NodeName={node}", "State=RESUME")
            hooks.server.shutdown()
