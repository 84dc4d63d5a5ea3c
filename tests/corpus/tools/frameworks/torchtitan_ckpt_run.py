"""torchtitan's own CheckpointManager driven by a minimal CPU training loop.

torchtitan's Trainer needs CUDA, a tokenizer and a dataset, so this script runs only its
checkpoint manager (``torchtitan.components.checkpointer.dcp.CheckpointManager``, the code behind
``--checkpoint.*``) with torchtitan's logger (``init_logger``) around a small MLP: the checkpoint
lines are torchtitan's own; the loop itself prints nothing (torchtitan's per-step metrics line
comes from its Trainer and is not produced here).

Run (single process, gloo; output captured like a Slurm job log)::

    PYTHONUNBUFFERED=1 /work/fwenv/bin/torchrun --nproc_per_node 1 \\
        tests/corpus/tools/frameworks/torchtitan_ckpt_run.py --out /tmp/tt --interval 10 \\
        > tt.log 2>&1

Options: ``--async-mode disabled|async``; a second run with the same ``--out`` resumes from the
latest ``step-N`` folder (``--load-step N`` picks one); ``--kill-at-save N`` SIGKILLs the
process while DCP writes the checkpoint of step N.
"""

from __future__ import annotations

import argparse
import os
import signal
from typing import Any

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.checkpoint.filesystem import FileSystemWriter
from torchtitan.components.checkpointer.dcp import CheckpointManager
from torchtitan.components.optimizer import LRSchedulersContainer, default_adamw
from torchtitan.tools.logging import init_logger


class TrainState:
    """The ``train_state`` entry torchtitan checkpoints (the step counter)."""

    def __init__(self) -> None:
        self.step = 0

    def state_dict(self) -> dict[str, Any]:
        return {"step": torch.tensor(self.step)}

    def load_state_dict(self, sd: dict[str, Any]) -> None:
        self.step = int(sd["step"])


def install_kill_hook(step: int) -> None:
    real_write = FileSystemWriter.write_data

    def write_data(self: FileSystemWriter, plan: Any, planner: Any) -> Any:
        if str(self.path).rstrip("/").endswith(f"step-{step}"):
            os.kill(os.getpid(), signal.SIGKILL)
        return real_write(self, plan, planner)

    FileSystemWriter.write_data = write_data  # type: ignore[method-assign]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--steps", type=int, default=45)
    p.add_argument("--interval", type=int, default=10)
    p.add_argument("--async-mode", default="disabled")
    p.add_argument("--load-step", type=int, default=-1)
    p.add_argument("--kill-at-save", type=int, default=None)
    a = p.parse_args()

    init_logger()
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    opt_cfg = default_adamw(lr=1e-3)
    opt_cfg.implementation = "for-loop"
    optimizers = opt_cfg.build(model_parts=[model])
    lr_cfg = LRSchedulersContainer.Config(warmup_steps=2)
    lr_schedulers = lr_cfg.build(optimizers=optimizers, training_steps=a.steps)
    state = TrainState()
    cfg = CheckpointManager.Config(
        enable=True,
        folder="checkpoint",
        interval=a.interval,
        async_mode=a.async_mode,
        last_save_model_only=False,
        keep_latest_k=0,
        load_step=a.load_step,
    )
    ckpt = cfg.build(
        dataloader=None,
        model_parts=[model],
        optimizers=optimizers,
        lr_schedulers=lr_schedulers,
        states={"train_state": state},
        sd_adapter=None,
        base_folder=a.out,
    )
    if a.kill_at_save is not None:
        install_kill_hook(a.kill_at_save)
    ckpt.load(step=a.load_step)

    g = torch.Generator().manual_seed(state.step)
    while state.step < a.steps:
        state.step += 1
        x = torch.randn(8, 32, generator=g)
        loss = nn.functional.mse_loss(model(x), x.sum(dim=1, keepdim=True))
        optimizers.zero_grad()
        loss.backward()
        optimizers.step()
        lr_schedulers.step()
        ckpt.save(state.step, last_step=(state.step == a.steps))
    ckpt.close()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
