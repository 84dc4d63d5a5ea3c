"""Which node a rank ran on, from the job's node list and task count.

Slurm's default task distribution is block: consecutive ranks fill a node before the next,
and when tasks do not divide evenly the first nodes take one more. A job that uses another
distribution (`--distribution=cyclic`, an arbitrary hostfile) is not mapped: ajr then relies on
node names in the log itself.
"""

from __future__ import annotations

from collections.abc import Sequence


def block_layout(nodes: Sequence[str], ntasks: int) -> tuple[str, ...]:
    """rank -> node for `ntasks` tasks over `nodes` in block distribution ('' when unknown)."""
    if not nodes or ntasks <= 0:
        return ()
    base, extra = divmod(ntasks, len(nodes))
    layout: list[str] = []
    for index, node in enumerate(nodes):
        layout += [node] * (base + (1 if index < extra else 0))
    return tuple(layout)


def node_of_rank(layout: Sequence[str], rank: int | None) -> str:
    if rank is None or not 0 <= rank < len(layout):
        return ""
    return layout[rank]
