"""Failure-domain payloads (pure): the job's leaf switches and what it needs to still fit.

Read by the `read_failure_domains` activity (activities/topology.py) for the failure-domain
rule of recovery policy v2 (workflows/failure_domains.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FailureDomainsRequest:
    cluster: str
    job_id: int


@dataclass
class FailureDomainsResult:
    # {leaf switch: its nodes} from `scontrol show topology`; {} when none is configured.
    switches: dict[str, list[str]] = field(default_factory=dict)
    partition: str = ""
    partition_nodes: dict[str, str] = field(default_factory=dict)  # {node: state} (sinfo)
    needed: int = 0  # the job's node count
    excluded: list[str] = field(default_factory=list)  # the job's ExcNodeList now
    detail: str = ""  # why something could not be read ("" when all was)
