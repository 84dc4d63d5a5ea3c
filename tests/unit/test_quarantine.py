"""Node quarantine rules: which nodes, which mode, what reason goes into Slurm (table tests)."""

import pytest

from activities.quarantine import is_drained
from models.categories import Category
from models.quarantine import MAX_REASON_CHARS, QuarantineMode, drain_reason, is_ajr_reason
from models.recovery import Observation, Observed
from models.suspects import Suspect
from worker.nodes import healthcheck_args
from workflows.quarantine import candidates, effective_mode, unambiguous_hardware

pytestmark = pytest.mark.unit

XID79 = "[123.4] node2 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=42, GPU has fallen off the bus."


def crash(evidence, category="GPU", culprits=("node2",)):
    return Observation(
        kind=Observed.CRASH,
        attempt=0,
        nodes=["node1", "node2"],
        culprit_nodes=list(culprits),
        evidence=list(evidence),
        category=Category(category),
    )


@pytest.mark.parametrize(
    ("evidence", "category", "unambiguous"),
    [
        ([XID79], "GPU", True),
        (
            ["NVRM: Xid (PCI:0000:3b:00): 48, pid=1, An uncorrectable double bit error (DBE)"],
            "GPU",
            True,
        ),
        (["NVRM: Xid (PCI:0000:3b:00): 94, pid=1, Contained ECC error"], "GPU", True),
        (["NVRM: Xid (PCI:0000:3b:00): 95, pid=1, Uncontained ECC error"], "GPU", True),
        (["NVRM: Xid (PCI:0000:3b:00): 119, pid=1, Timeout waiting for GSP"], "GPU", True),
        (["CUDA error: uncorrectable ECC error encountered"], "GPU", True),
        # Xid 13 / 31 / 43 are usually the application's: never a drain on their own
        (["NVRM: Xid (PCI:0000:3b:00): 13, pid=1, Graphics Exception"], "GPU", False),
        (["NVRM: Xid (PCI:0000:3b:00): 31, pid=1, MMU Fault"], "GPU", False),
        (["NCCL WARN Net : Connection closed by remote peer"], "NETWORK", False),
        ([XID79], "APPLICATION", False),  # the attribution decides, not a word in a line
        ([], "GPU", False),
    ],
)
def test_unambiguous_hardware(evidence, category, unambiguous):
    assert bool(unambiguous_hardware(crash(evidence, category))) is unambiguous


@pytest.mark.parametrize(
    ("observation", "suspects", "expected"),
    [
        (crash([XID79]), [], [("node2", "GPU")]),
        (crash([XID79], culprits=()), [], []),  # no node named: nothing to drain
        (crash(["segfault"], "UNKNOWN"), [], []),
        (
            crash(["segfault"], "UNKNOWN"),
            [Suspect("node1", [7, 9])],
            [("node1", "SUSPECT")],
        ),
        # the hardware verdict wins over suspicion for the same node; each node once
        (
            crash([XID79]),
            [Suspect("node2", [7, 9]), Suspect("node1", [3, 4])],
            [("node1", "SUSPECT"), ("node2", "GPU")],
        ),
    ],
)
def test_candidates(observation, suspects, expected):
    found = candidates(observation, suspects)
    assert [(c.node, c.category) for c in found] == expected
    for candidate in found:
        assert candidate.evidence


@pytest.mark.parametrize(
    ("mode", "acting", "expected"),
    [
        ("drain", True, QuarantineMode.DRAIN),
        ("drain", False, QuarantineMode.SUGGEST),  # observe-only or paused: change nothing
        ("suggest", True, QuarantineMode.SUGGEST),
        ("off", True, QuarantineMode.OFF),
        ("bogus", True, QuarantineMode.SUGGEST),
    ],
)
def test_effective_mode(mode, acting, expected):
    assert effective_mode(mode, acting=acting) is expected


@pytest.mark.parametrize(
    ("category", "evidence", "reason"),
    [
        ("GPU", "Xid 79: fallen off the bus", "ajr: GPU Xid 79: fallen off the bus"),
        ("GPU", 'say "hi"; rm -rf $HOME `x`', "ajr: GPU say hi ; rm -rf HOME x"),
        ("SUSPECT", "a\nb\tc", "ajr: SUSPECT a b c"),
    ],
)
def test_drain_reason(category, evidence, reason):
    assert drain_reason(category, evidence) == reason
    assert is_ajr_reason(reason)


def test_drain_reason_is_bounded():
    assert len(drain_reason("GPU", "x" * 1000)) == MAX_REASON_CHARS


@pytest.mark.parametrize(
    ("state", "drained"),
    [
        ("drained", True),
        ("draining", True),
        ("idle+drain", True),
        ("down*", True),
        ("idle", False),
        ("allocated", False),
        ("mixed", False),
    ],
)
def test_is_drained(state, drained):
    assert is_drained(state) is drained


def test_healthcheck_args_replace_the_node_in_each_argument():
    template = ["/usr/bin/ssh", "{node}", "dcgmi diag -r 1 --host {node}"]
    assert healthcheck_args(template, "node3") == [
        "/usr/bin/ssh",
        "node3",
        "dcgmi diag -r 1 --host node3",
    ]
