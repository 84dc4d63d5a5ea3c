"""Where this process sits in the job: from torchrun's environment or from srun's."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class DistEnv:
    rank: int
    world_size: int
    local_rank: int
    master_addr: str
    master_port: int
    launcher: str  # "torchrun", "srun" or "single"
    node: str  # the Slurm node name when known, else the host name


def _first_slurm_host(nodelist: str) -> str | None:
    """First host of a Slurm node list, expanded by `scontrol show hostnames`."""
    scontrol = shutil.which("scontrol")
    if scontrol is None:
        return None
    try:
        done = subprocess.run(
            [scontrol, "show", "hostnames", nodelist],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    hosts = done.stdout.split()
    return hosts[0] if hosts else None


def _resolvable(host: str) -> bool:
    try:
        socket.gethostbyname(host)
    except OSError:
        return False
    return True


def _slurm_master_addr(env: Mapping[str, str]) -> str:
    # On a real cluster the first node of the job hosts the rendezvous. A single-host test
    # cluster names its nodes node1..N, which do not resolve: they all live on 127.0.0.1.
    host = _first_slurm_host(env.get("SLURM_JOB_NODELIST", ""))
    if host is not None and _resolvable(host):
        return host
    return "127.0.0.1"


def _slurm_master_port(env: Mapping[str, str]) -> int:
    # Derived from the job ID and restart count so that two jobs (or a requeued attempt whose
    # predecessor's socket lingers) on one host do not collide; 10000-15999 is below the
    # ephemeral range and clear of the local test and bench clusters' daemons (17001+).
    job = int(env.get("SLURM_JOB_ID", "0"))
    restart = int(env.get("SLURM_RESTART_COUNT", "0"))
    return 10000 + (job * 7 + restart) % 6000


def from_environment(
    env: Mapping[str, str], master_addr: str | None = None, master_port: int | None = None
) -> DistEnv:
    """torchrun sets RANK/WORLD_SIZE/LOCAL_RANK; srun sets SLURM_PROCID/NTASKS/LOCALID."""
    node = env.get("SLURMD_NODENAME") or socket.gethostname()
    if "RANK" in env and "WORLD_SIZE" in env:
        return DistEnv(
            rank=int(env["RANK"]),
            world_size=int(env["WORLD_SIZE"]),
            local_rank=int(env.get("LOCAL_RANK", "0")),
            master_addr=master_addr or env.get("MASTER_ADDR", "127.0.0.1"),
            master_port=master_port or int(env.get("MASTER_PORT", "29500")),
            launcher="torchrun",
            node=node,
        )
    if "SLURM_PROCID" in env and "SLURM_NTASKS" in env:
        return DistEnv(
            rank=int(env["SLURM_PROCID"]),
            world_size=int(env["SLURM_NTASKS"]),
            local_rank=int(env.get("SLURM_LOCALID", "0")),
            master_addr=master_addr or env.get("MASTER_ADDR") or _slurm_master_addr(env),
            master_port=master_port or int(env.get("MASTER_PORT", "0")) or _slurm_master_port(env),
            launcher="srun",
            node=node,
        )
    return DistEnv(0, 1, 0, master_addr or "127.0.0.1", master_port or 29500, "single", node)


def current() -> DistEnv:
    return from_environment(os.environ)
