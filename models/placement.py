"""Whether a job still fits its partition once nodes are excluded."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# What a node's state is when sinfo names the node without one.
NODE_STATE_UNKNOWN = "UNKNOWN"

UNUSABLE_NODE_STATES = frozenset(
    {
        "DOWN",
        "DRAIN",
        "DRAINED",
        "DRAINING",
        "FAIL",
        "FAILING",
        "FUTURE",
        "NOT_RESPONDING",
        "POWERED_DOWN",
    }
)


@dataclass(frozen=True)
class Fit:
    fits: bool
    usable: int
    needed: int

    def explain(self, partition: str) -> str:
        return (
            f"excluding these nodes leaves {self.usable} usable node(s) in partition "
            f"{partition!r}, the job needs {self.needed}"
        )


def fit_after_exclusion(
    partition_nodes: Mapping[str, str], excluded: Iterable[str], needed: int
) -> Fit:
    excluded_set = set(excluded)
    usable = sum(
        1
        for node, state in partition_nodes.items()
        if node not in excluded_set and state.upper() not in UNUSABLE_NODE_STATES
    )
    return Fit(fits=usable >= max(needed, 1), usable=usable, needed=max(needed, 1))
