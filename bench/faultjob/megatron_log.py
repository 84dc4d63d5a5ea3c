"""Megatron-LM's log lines, text taken from its source at three releases.

core_v0.19: megatron/training/training.py training_log() and checkpointing.py of core_v0.19.0
(microsecond timestamps, `gtp_remat` in the checkpoint rank tuple); core_v0.12: core_v0.12.0
(second timestamps, `[ t 1/1, p 1/1 ]`); v2.6: the 2021 release (no timestamps, no TFLOP/s).
Only the text is reproduced; every value printed is measured by the caller.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class IterationStats:
    iteration: int
    train_iters: int
    consumed_samples: int
    elapsed_ms: float
    tflops_per_gpu: float
    learning_rate: float
    global_batch_size: int
    lm_loss: float
    loss_scale: float
    grad_norm: float | None
    skipped_iterations: int
    nan_iterations: int


def _timestamp(style: str, now: datetime | None = None) -> str:
    moment = now or datetime.now()
    if style == "core_v0.19":
        return moment.strftime("%Y-%m-%d %H:%M:%S.%f")
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def _loss_shown(style: str, loss: float) -> bool:
    # Megatron prints a loss only if its average is >= 0 (> 0 before core 0.13): a NaN average
    # fails both tests, so a NaN loss is visible only as "number of nan iterations".
    if math.isnan(loss):
        return False
    return loss >= 0.0 if style == "core_v0.19" else loss > 0.0


def iteration_line(style: str, stats: IterationStats, now: datetime | None = None) -> str:
    """One training_log() line."""
    line = "" if style == "v2.6" else f" [{_timestamp(style, now)}]"
    line += f" iteration {stats.iteration:8d}/{stats.train_iters:8d} |"
    line += f" consumed samples: {stats.consumed_samples:12d} |"
    line += f" elapsed time per iteration (ms): {stats.elapsed_ms:.1f} |"
    if style == "v2.6":
        line += f" learning rate: {stats.learning_rate:.3E} |"
    else:
        line += f" throughput per GPU (TFLOP/s/GPU): {stats.tflops_per_gpu:.1f} |"
        line += f" learning rate: {stats.learning_rate:.6E} |"
    line += f" global batch size: {stats.global_batch_size:5d} |"
    if _loss_shown(style, stats.lm_loss):
        line += f" lm loss: {stats.lm_loss:.6E} |"
    line += f" loss scale: {stats.loss_scale:.1f} |"
    if stats.grad_norm is not None:
        line += f" grad norm: {stats.grad_norm:.3f} |"
    line += f" number of skipped iterations: {stats.skipped_iterations:3d} |"
    line += f" number of nan iterations: {stats.nan_iterations:3d} |"
    return line


def saving_line(style: str, iteration: int, save_dir: str) -> str:
    if style == "core_v0.19":
        return (
            f"[{_timestamp(style)}] saving checkpoint at iteration {iteration:7d} to {save_dir} "
            "in torch format"
        )
    if style == "core_v0.12":
        return f"saving checkpoint at iteration {iteration:7d} to {save_dir} in torch format"
    return f"saving checkpoint at iteration {iteration:7d} to {save_dir}"


def saved_line(style: str, iteration: int, save_dir: str) -> str:
    if style == "core_v0.19":
        return (
            f"  [{_timestamp(style)}] successfully saved checkpoint from iteration "
            f"{iteration:7d} to {save_dir} [ t 1/1, gtp_remat 1/1, p 1/1 ]"
        )
    if style == "core_v0.12":
        return (
            f"  successfully saved checkpoint from iteration {iteration:7d} to {save_dir} "
            "[ t 1/1, p 1/1 ]"
        )
    return f"  successfully saved checkpoint at iteration {iteration:7d} to {save_dir}"


def loading_line(load_dir: str, iteration: int) -> str:
    return f" loading checkpoint from {load_dir} at iteration {iteration}"


def loaded_line(style: str, load_dir: str, iteration: int) -> str:
    if style == "core_v0.19":
        ranks = " [ t 1/1, gtp_remat 1/1, p 1/1 ]"
    elif style == "core_v0.12":
        ranks = " [ t 1/1, p 1/1 ]"
    else:
        ranks = ""
    return f"  successfully loaded checkpoint from {load_dir}{ranks} at iteration {iteration}"


def no_checkpoint_lines(tracker: str) -> list[str]:
    return [
        f"WARNING: could not find the metadata file {tracker}",
        "    will not load any checkpoints and will start from random",
    ]


def datetime_line(label: str) -> str:
    """print_datetime(): "[after training is done] datetime: ..."."""
    return f"[{label}] datetime: {datetime.now().strftime('%Y-%m-%d %H:%M:%S.%f')} "


def world_line(world_size: int) -> str:
    return (
        f"using world size: {world_size}, data-parallel size: {world_size}, "
        "context-parallel size: 1, hierarchical context-parallel sizes: None, "
        "tensor-model-parallel size: 1, pipeline-model-parallel size: 1"
    )
