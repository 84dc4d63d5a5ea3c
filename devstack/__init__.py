"""The local stack for development, demos and tests: real Slurm, a Temporal dev server, a worker.

Public API: `DevStack`/`StackConfig` (whole stack), `SlurmCluster` and `TemporalServer` (one
piece each, usable alone from test fixtures), `ProcessRegistry` and `DevStackError`.
"""

from devstack.processes import DevStackError, PieceStatus, ProcessRegistry
from devstack.slurm import SlurmCluster, wait_for_job_end
from devstack.stack import DevStack, StackConfig, format_status
from devstack.temporal import TemporalServer, find_executable, register_search_attributes

__all__ = [
    "DevStack",
    "DevStackError",
    "PieceStatus",
    "ProcessRegistry",
    "SlurmCluster",
    "StackConfig",
    "TemporalServer",
    "find_executable",
    "format_status",
    "register_search_attributes",
    "wait_for_job_end",
]
