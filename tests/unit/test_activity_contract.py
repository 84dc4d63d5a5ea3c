"""The workflow calls activities by name: each name has one implementation with the types the
workflow sends and reads (a rename or a changed signature fails here, not at a job's next crash).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from temporalio import activity

from activities.actions import SlurmActions
from activities.database.engine import make_engine
from activities.database.quarantine import QuarantineLog
from activities.notify import NotifyActivities
from activities.quarantine import QuarantineActivities
from activities.records import RecordActivities
from activities.rollback import RollbackActivities
from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from activities.topology import TopologyActivities
from activities.watch import WatchActivities
from analysis.signatures import SignatureAnalyzer
from models.activities import ActivityName
from models.failure_domains import FailureDomainsRequest, FailureDomainsResult
from models.notifications import Notice, NotifyResult
from models.quarantine import QuarantineRequest, QuarantineResult
from models.recovery import (
    CancelRequest,
    CancelResult,
    DecisionEvent,
    Observation,
    PrepareRequest,
    PrepareResult,
    RecordResult,
    RequeueRequest,
    RequeueResult,
    SuspectsResult,
    WatchRequest,
)
from models.rollback import RollbackRequest, RollbackResult
from models.suspects import SuspectQuery
from tests.fakes import FakePoller, FakeSlurm

pytestmark = pytest.mark.unit

# What workflows/job_recovery.py sends to and reads from each activity.
CONTRACT: dict[ActivityName, tuple[type, type]] = {
    ActivityName.WATCH_ATTEMPT: (WatchRequest, Observation),
    ActivityName.PREPARE_JOB: (PrepareRequest, PrepareResult),
    ActivityName.REQUEUE_JOB: (RequeueRequest, RequeueResult),
    ActivityName.CANCEL_JOB: (CancelRequest, CancelResult),
    ActivityName.RECORD_DECISION: (DecisionEvent, RecordResult),
    ActivityName.FIND_SUSPECTS: (SuspectQuery, SuspectsResult),
    ActivityName.NOTIFY: (Notice, NotifyResult),
    ActivityName.QUARANTINE_NODE: (QuarantineRequest, QuarantineResult),
    ActivityName.WRITE_ROLLBACK: (RollbackRequest, RollbackResult),
    ActivityName.READ_FAILURE_DOMAINS: (FailureDomainsRequest, FailureDomainsResult),
}


def implementations() -> dict[str, activity._Definition]:
    slurm = FakeSlurm()
    watch = WatchActivities(FakePoller(), slurm, SignatureAnalyzer)
    actions = SlurmActions(slurm)
    records = RecordActivities(make_engine("sqlite://"))
    quarantine = QuarantineActivities(SlurmControl(SlurmRunner()), QuarantineLog(records._engine))
    functions = [
        watch.watch_attempt,
        actions.prepare_job,
        actions.requeue_job,
        actions.cancel_job,
        records.record_decision,
        records.find_suspects,
        NotifyActivities(make_engine("sqlite://")).notify,
        quarantine.quarantine_node,
        RollbackActivities(SlurmControl(SlurmRunner())).write_rollback,
        TopologyActivities(SlurmControl(SlurmRunner())).read_failure_domains,
    ]
    definitions = [activity._Definition.must_from_callable(fn) for fn in functions]
    return {d.name: d for d in definitions if d.name}


def test_every_activity_name_has_one_implementation_of_the_workflows_types() -> None:
    found = implementations()
    assert set(found) == set(ActivityName) == set(CONTRACT)
    for name, (argument, result) in CONTRACT.items():
        assert found[name].arg_types == [argument], name
        assert found[name].ret_type is result, name


def test_the_workflow_reads_each_result_as_the_contract_says() -> None:
    """Every call in the workflow names an ActivityName and the result type of the contract."""
    source = (Path(__file__).resolve().parents[2] / "workflows/job_recovery.py").read_text()
    seen: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if isinstance(first, ast.Attribute) and getattr(first.value, "id", "") == "ActivityName":
            result = [ast.unparse(k.value) for k in node.keywords if k.arg == "result_type"]
            seen[first.attr] = result[0] if result else ast.unparse(node.args[2])
    assert seen == {name.name: CONTRACT[name][1].__name__ for name in ActivityName}
