"""Failure domains: a leaf switch excluded after repeated network failures on different nodes
of it, never so many nodes that the job cannot fit (table tests); reading the topology."""

import pytest

from activities.slurm.parse import leaf_switches_from_scontrol
from models.categories import Category
from models.recovery import Action, AttemptRecord, Observation, Observed
from workflows.failure_domains import (
    NetworkFailure,
    implicated,
    may_apply,
    network_failures,
    plan,
)

pytestmark = pytest.mark.unit

NODES = ["node1", "node2", "node3", "node4"]
SWITCHES = {"s0": ["node1", "node2"], "s1": ["node3", "node4"]}
IDLE = dict.fromkeys(NODES, "IDLE")


def ib(node: str, peer: str = "10.0.0.7") -> str:
    """NCCL's IB completion error, as the rank on `node` prints it (srun -l prefix)."""
    return (
        f"1: {node}:4711:4790 [1] NCCL WARN NET/IB : Got completion from peer {peer}<53612> "
        "with error 12, opcode 0, len 0, vendor err 129 (Recv)"
    )


SRUN_EXIT = "srun: error: node1: task 0: Exited with exit code 1"


def record(attempt: int, *evidence: str, category: Category = Category.NETWORK) -> AttemptRecord:
    return AttemptRecord(
        attempt=attempt,
        observed=Observed.CRASH,
        category=category,
        nodes=list(NODES),
        evidence=list(evidence),
        action=Action.REQUEUE,
        acted=True,
    )


def observation(attempt: int, *evidence: str, category=Category.NETWORK) -> Observation:
    return Observation(
        kind=Observed.CRASH,
        attempt=attempt,
        nodes=list(NODES),
        evidence=list(evidence),
        category=category,
    )


@pytest.mark.parametrize(
    ("category", "culprits", "evidence", "expected"),
    [
        # the NCCL host prefix names the node; srun's exit line names only the reporter
        (Category.NETWORK, [], [ib("node3"), SRUN_EXIT], ("node3",)),
        # a peer named by host is implicated too (either end of the link)
        (Category.NETWORK, [], [ib("node3", peer="node4")], ("node3", "node4")),
        # culprits first, no duplicates
        (Category.NETWORK, ["node3"], [ib("node3")], ("node3",)),
        # a host that is not one of the job's nodes is no node of it
        (Category.NETWORK, [], [ib("login7")], ()),
        # not a network failure: nothing
        (Category.GPU, ["node3"], [ib("node3")], ()),
        (None, [], [ib("node3")], ()),
    ],
)
def test_implicated(category, culprits, evidence, expected) -> None:
    assert implicated(category, NODES, culprits, evidence) == expected


def test_network_failures_reads_earlier_attempts_and_this_one() -> None:
    history = [
        record(0, ib("node3")),
        record(1, "0: segmentation fault", category=Category.UNKNOWN),
        record(5, ib("node1")),  # a record of a later attempt is no history of this one
    ]
    failures = network_failures(history, observation(2, ib("node4")))
    assert failures == [NetworkFailure(0, ("node3",)), NetworkFailure(2, ("node4",))]


@pytest.mark.parametrize(
    ("history", "current", "expected"),
    [
        ([record(0, ib("node3"))], observation(1, ib("node4")), True),
        # this failure is not a network one: the rule waits for one that is
        ([record(0, ib("node3"))], observation(1, "x", category=Category.GPU), False),
        # one failure is no repetition, even naming two nodes
        ([], observation(0, ib("node3", peer="node4")), False),
        # the same node twice: one node, not a domain
        ([record(0, ib("node3"))], observation(1, ib("node3")), False),
    ],
)
def test_may_apply(history, current, expected) -> None:
    failures = network_failures(history, current)
    assert may_apply(failures, current, min_nodes=2) is expected


def nf(attempt: int, *nodes: str) -> NetworkFailure:
    return NetworkFailure(attempt, nodes)


@pytest.mark.parametrize(
    ("failures", "min_nodes", "states", "needed", "excluded", "exclude", "reason"),
    [
        # two failures on different nodes of s1: the whole switch
        (
            [nf(0, "node3"), nf(1, "node4")],
            2,
            IDLE,
            2,
            [],
            ["node3", "node4"],
            "excluded switch s1 (node3,node4): 2 network failures on different nodes of it "
            "(node3,node4, attempts 0,1)",
        ),
        # different switches: no domain has two
        ([nf(0, "node2"), nf(1, "node3")], 2, IDLE, 2, [], [], ""),
        # the same node twice: a node, not a switch
        ([nf(0, "node3"), nf(1, "node3")], 2, IDLE, 2, [], [], ""),
        # one failure naming both nodes of s1: not repeated
        ([nf(0, "node3", "node4")], 2, IDLE, 2, [], [], ""),
        # threshold 3 on a switch of 2 nodes: never
        ([nf(0, "node3"), nf(1, "node4")], 3, IDLE, 2, [], [], ""),
        # would not fit: a 3-node job cannot lose node3 and node4; only the culprits
        (
            [nf(0, "node3"), nf(1, "node4")],
            2,
            IDLE,
            3,
            [],
            [],
            "not excluding switch s1 (node3,node4) despite 2 network failures on different "
            "nodes of it (node3,node4, attempts 0,1): excluding these nodes leaves 2 usable "
            "node(s) in partition 'gpu', the job needs 3; only the culprits are excluded",
        ),
        # a drained node counts as unusable: s1 out leaves node1 only
        (
            [nf(0, "node3"), nf(1, "node4")],
            2,
            {**IDLE, "node2": "DRAINED"},
            2,
            [],
            [],
            "leaves 1 usable node(s)",
        ),
        # the job already excludes node4 (user or earlier): s1 adds node3
        ([nf(0, "node3"), nf(1, "node4")], 2, IDLE, 2, ["node4"], ["node3"], "excluded switch"),
        # the whole switch is already excluded: nothing to add, nothing to say
        ([nf(0, "node3"), nf(1, "node4")], 2, IDLE, 2, ["node3", "node4"], [], ""),
        # partition nodes unknown: cannot tell that it fits, so not excluded
        ([nf(0, "node3"), nf(1, "node4")], 2, {}, 2, [], [], "partition nodes unknown"),
    ],
)
def test_plan(failures, min_nodes, states, needed, excluded, exclude, reason) -> None:
    result = plan(
        failures,
        SWITCHES,
        min_nodes=min_nodes,
        partition="gpu",
        partition_nodes=states,
        needed=needed,
        excluded=excluded,
    )
    assert result.exclude == exclude
    if reason:
        (said,) = result.reasons
        assert reason in said
    else:
        assert result.reasons == []


def test_plan_two_switches_each_only_if_both_still_fit() -> None:
    eight = {f"node{i}": "IDLE" for i in range(1, 9)}
    switches = {"a": ["node1", "node2"], "b": ["node3", "node4"], "c": ["node5", "node6"]}
    failures = [nf(0, "node1", "node3"), nf(1, "node2", "node4")]
    both = plan(
        failures, switches, min_nodes=2, partition="gpu", partition_nodes=eight, needed=4,
        excluded=[],
    )  # fmt: skip
    assert both.exclude == ["node1", "node2", "node3", "node4"]
    one = plan(
        failures, switches, min_nodes=2, partition="gpu", partition_nodes=eight, needed=5,
        excluded=[],
    )  # fmt: skip
    assert one.exclude == ["node1", "node2"]  # b would leave 4 of the 5 needed
    assert one.reasons[1].startswith("not excluding switch b")


# Verified on slurm-wlm 22.05.8 with TopologyPlugin=topology/tree (tests' session cluster).
SCONTROL_TOPOLOGY = """\
SwitchName=s0 Level=0 LinkSpeed=1 Nodes=node[1-2]
SwitchName=s1 Level=0 LinkSpeed=1 Nodes=node[3-4]
SwitchName=top Level=1 LinkSpeed=1 Nodes=node[1-4] Switches=s[0-1]
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (SCONTROL_TOPOLOGY, {"s0": ("node1", "node2"), "s1": ("node3", "node4")}),
        ("", {}),
        ("No topology information available\n", {}),
        # no Level printed: a switch of switches is no leaf
        (
            "SwitchName=leaf Nodes=gpu[01-02],cpu7\nSwitchName=spine Switches=leaf Nodes=gpu01\n",
            {"leaf": ("gpu01", "gpu02", "cpu7")},
        ),
    ],
)
def test_leaf_switches_from_scontrol(text, expected) -> None:
    assert leaf_switches_from_scontrol(text) == expected
