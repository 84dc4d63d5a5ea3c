"""Real checkpoints in Megatron-LM's torch layout.

DIR/iter_0000010/mp_rank_00/model_optim_rng.pt plus DIR/latest_checkpointed_iteration.txt.
Each file is written to a temp name in the same directory and renamed, so a crash mid-save never
leaves a truncated checkpoint that a requeued job would then load.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

TRACKER = "latest_checkpointed_iteration.txt"


@dataclass(frozen=True)
class Loaded:
    iteration: int
    consumed_samples: int
    extra: dict[str, Any]


def tracker_path(directory: Path) -> Path:
    return directory / TRACKER


def checkpoint_file(directory: Path, iteration: int) -> Path:
    return directory / f"iter_{iteration:07d}" / "mp_rank_00" / "model_optim_rng.pt"


def _write_atomically(path: Path, write: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.tmp.{os.getpid()}")
    try:
        # An open file object: torch.save then writes through Python's I/O, so a full or failing
        # filesystem surfaces as the kernel's OSError (ENOSPC, EIO) with its errno.
        with open(temp, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def save(
    directory: Path,
    iteration: int,
    consumed_samples: int,
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    extra: dict[str, Any] | None = None,
) -> Path:
    """Write the checkpoint of `iteration`, then point the tracker file at it."""
    state = {
        "iteration": iteration,
        "consumed_samples": consumed_samples,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "rng_state": torch.get_rng_state(),
        "extra": extra or {},
    }
    target = checkpoint_file(directory, iteration)
    _write_atomically(target, lambda out: torch.save(state, out))
    _write_atomically(tracker_path(directory), lambda out: out.write(f"{iteration}".encode()))
    return target


def latest_iteration(directory: Path) -> int | None:
    """The iteration the tracker file names, or None when there is no usable checkpoint."""
    try:
        text = tracker_path(directory).read_text().strip()
    except OSError:
        return None
    if not text.isdigit() or not checkpoint_file(directory, int(text)).exists():
        return None
    return int(text)


def load(
    directory: Path, iteration: int, model: nn.Module, optimizer: torch.optim.Optimizer
) -> Loaded:
    state = torch.load(checkpoint_file(directory, iteration), weights_only=True)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    torch.set_rng_state(state["rng_state"])
    return Loaded(int(state["iteration"]), int(state["consumed_samples"]), dict(state["extra"]))
