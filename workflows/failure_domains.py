"""Exclude a whole failure domain (a leaf switch of Slurm's topology) after repeated network
failures on different nodes of it (recovery policy v2). Pure, no Temporal.

A NETWORK-attributed failure implicates the job's nodes its network evidence names (NCCL's
`node3:pid:tid [r] NCCL WARN NET/IB ...` host prefix, a peer named by host) and its culprit
nodes. When failures of this job implicated at least `min_nodes` distinct nodes of one leaf
switch, in at least two failures, the switch (or its uplink) is the likelier fault than any one
node: every node of it is excluded from the next attempt, as long as the job still fits its
partition; otherwise only the culprits are, and the reason says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from analysis.signals import NodeNames, detect_crash
from models.categories import Category
from models.placement import fit_after_exclusion
from models.recovery import AttemptRecord, Observation


@dataclass(frozen=True)
class NetworkFailure:
    attempt: int
    nodes: tuple[str, ...]  # the nodes the failure implicated


@dataclass
class DomainPlan:
    exclude: list[str] = field(default_factory=list)  # nodes to add to the requeue's exclusions
    reasons: list[str] = field(default_factory=list)


def implicated(
    category: Category | None,
    job_nodes: Sequence[str],
    culprits: Sequence[str],
    evidence: Sequence[str],
) -> tuple[str, ...]:
    """The nodes a NETWORK failure implicates: culprits, and job nodes its network lines name."""
    if category is not Category.NETWORK:
        return ()
    found = list(dict.fromkeys(culprits))
    names = NodeNames(job_nodes)
    for line in evidence:
        signal = detect_crash(line, names)
        if signal is None or signal.category is not Category.NETWORK:
            continue  # srun's "node1: task 0: Exited" names the reporter, not the fault
        found += [node for node in signal.nodes if node in names and node not in found]
    return tuple(found)


def network_failures(
    history: Sequence[AttemptRecord], observation: Observation
) -> list[NetworkFailure]:
    """This job's NETWORK failures that implicated nodes: its earlier attempts and this one."""
    failures = [
        NetworkFailure(r.attempt, implicated(r.category, r.nodes, r.culprit_nodes, r.evidence))
        for r in history
        if r.attempt < observation.attempt
    ]
    failures.append(
        NetworkFailure(
            observation.attempt,
            implicated(
                observation.category,
                observation.nodes,
                observation.culprit_nodes,
                observation.evidence,
            ),
        )
    )
    return [f for f in failures if f.nodes]


def may_apply(failures: Sequence[NetworkFailure], observation: Observation, min_nodes: int) -> bool:
    """Whether the rule could fire, before any topology is read: this failure is a network one
    that implicated nodes, and the job's network failures implicated enough distinct nodes."""
    if not failures or failures[-1].attempt != observation.attempt or len(failures) < 2:
        return False
    return len({node for f in failures for node in f.nodes}) >= min_nodes


def plan(
    failures: Sequence[NetworkFailure],
    switches: Mapping[str, Sequence[str]],
    *,
    min_nodes: int,
    partition: str,
    partition_nodes: Mapping[str, str],
    needed: int,
    excluded: Sequence[str],
) -> DomainPlan:
    """Which leaf switches to exclude, with why; `excluded` are the exclusions already wanted
    (the job's ExcNodeList and this decision's). A switch that would not fit is not excluded."""
    result = DomainPlan()
    wanted = set(excluded)
    for switch in sorted(switches):
        members = set(switches[switch])
        hit = [f for f in failures if members & set(f.nodes)]
        nodes = sorted({node for f in hit for node in f.nodes} & members)
        if len(nodes) < min_nodes or len(hit) < 2:
            continue
        add = sorted(members - wanted)
        if not add:
            continue  # already excluded as a whole
        domain = f"switch {switch} ({','.join(sorted(members))})"
        why = (
            f"{len(hit)} network failures on different nodes of it "
            f"({','.join(nodes)}, attempts {','.join(str(f.attempt) for f in hit)})"
        )
        fit = fit_after_exclusion(partition_nodes, wanted | members, needed)
        if not fit.fits:
            because = fit.explain(partition) if partition_nodes else "partition nodes unknown"
            result.reasons.append(
                f"not excluding {domain} despite {why}: {because}; only the culprits are excluded"
            )
            continue
        wanted |= members
        result.exclude += add
        result.reasons.append(f"excluded {domain}: {why}")
    return result
