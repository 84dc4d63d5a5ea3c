"""Root-cause categories of a failure: the vocabulary of attribution, records and the UI."""

from __future__ import annotations

from enum import StrEnum


class Category(StrEnum):
    GPU = "GPU"  # GPU hardware or driver: Xid, ECC, fallen off the bus, NVLink
    NODE = "NODE"  # the host: OOM killer, bus error, node failure, slurmd/munge
    NETWORK = "NETWORK"  # NCCL/IB/socket transport between ranks
    STORAGE = "STORAGE"  # file systems: EIO, ENOSPC, ESTALE, quota, Lustre/NFS
    APPLICATION = "APPLICATION"  # the user's code or configuration: requeue cannot help
    SCHEDULER = "SCHEDULER"  # Slurm or the site ended it: time limit, preemption, cancel
    UNKNOWN = "UNKNOWN"

    @property
    def requeue_helps(self) -> bool:
        """Whether requeueing (on other nodes) can let a job failing this way make progress."""
        return self is not Category.APPLICATION
