"""Which nodes are suspect: implicated in failures of several different jobs within a window."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class SuspectQuery:
    cluster: str
    job_id: int
    nodes: list[str]  # the failed attempt's nodes: only these can be excluded for it
    culprits: list[str] = field(default_factory=list)  # named by this failure itself
    window_s: float = 86400.0
    min_jobs: int = 2
    now: float = 0.0  # epoch seconds (the workflow's clock)


@dataclass
class Suspect:
    node: str
    jobs: list[int]


def suspects(query: SuspectQuery, incidents: Iterable[tuple[str, int]]) -> list[Suspect]:
    """`incidents` are (node, job id) within the window; this failure's culprits count too."""
    jobs_by_node: dict[str, set[int]] = {node: set() for node in query.nodes}
    for node, job_id in incidents:
        if node in jobs_by_node:
            jobs_by_node[node].add(job_id)
    for node in query.culprits:
        if node in jobs_by_node:
            jobs_by_node[node].add(query.job_id)
    return [
        Suspect(node, sorted(jobs))
        for node, jobs in sorted(jobs_by_node.items())
        if len(jobs) >= query.min_jobs
    ]
