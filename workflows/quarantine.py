"""Which nodes deserve quarantine after a failure (recovery policy v2). Pure, no Temporal.

A node is quarantined for one unambiguous hardware failure (Xid 48/79/94/95/119, an
uncorrectable/double-bit ECC error, a GPU fallen off the bus) named on it, or when failures of
several different jobs implicated it (the suspects of the decision table). Ambiguous evidence
(a NCCL timeout, a segfault) never drains a node on its own: it only makes it a suspect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from models.categories import Category
from models.quarantine import QuarantineMode
from models.recovery import Observation
from models.suspects import Suspect

UNAMBIGUOUS_XIDS = frozenset({48, 79, 94, 95, 119})
_XID = re.compile(r"\bXid\b(?:\s*\([^)]*\))?\s*:?\s*(\d+)", re.IGNORECASE)  # "Xid (PCI:..): 79"
_HARDWARE = re.compile(
    r"fallen off the bus|double[- ]bit ECC|\bDBE\b|uncorrectable ECC", re.IGNORECASE
)


@dataclass(frozen=True)
class Candidate:
    node: str
    category: str
    evidence: str


def unambiguous_hardware(observation: Observation) -> str:
    """The evidence line of an unambiguous hardware failure, or ""."""
    if observation.category not in (Category.GPU, Category.NODE):
        return ""
    for line in observation.evidence:
        m = _XID.search(line)
        if m is not None and int(m[1]) in UNAMBIGUOUS_XIDS:
            return line
        if _HARDWARE.search(line):
            return line
    return ""


def candidates(observation: Observation, suspects: Sequence[Suspect]) -> list[Candidate]:
    """Nodes to quarantine after this failure, each once, with why."""
    found: dict[str, Candidate] = {}
    hardware = unambiguous_hardware(observation)
    if hardware:
        category = observation.category.value if observation.category else "GPU"
        for node in observation.culprit_nodes:
            found[node] = Candidate(node, category, hardware.strip())
    for suspect in suspects:
        if suspect.node not in found:
            jobs = ",".join(map(str, suspect.jobs))
            found[suspect.node] = Candidate(
                suspect.node, "SUSPECT", f"implicated in failures of jobs {jobs}"
            )
    return [found[node] for node in sorted(found)]


def effective_mode(mode: str, *, acting: bool) -> QuarantineMode:
    """The configured mode, or suggest while ajr changes nothing (observe-only, paused)."""
    try:
        configured = QuarantineMode(mode)
    except ValueError:
        configured = QuarantineMode.SUGGEST
    if configured is QuarantineMode.DRAIN and not acting:
        return QuarantineMode.SUGGEST
    return configured
