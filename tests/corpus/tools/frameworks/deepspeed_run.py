"""Tiny DeepSpeed (ZeRO-1) run that saves, resumes and (optionally) dies mid-save.

A small MLP on random data (no downloads), trained with ``deepspeed.initialize`` and
checkpointed with ``engine.save_checkpoint`` / ``engine.load_checkpoint``.

Run under a launcher (``deepspeed`` or ``torchrun``), output captured like a Slurm job log::

    PYTHONUNBUFFERED=1 DS_ACCELERATOR=cpu /work/fwenv/bin/deepspeed --num_gpus 1 \\
        tests/corpus/tools/frameworks/deepspeed_run.py --out /tmp/ds --steps 45 --save-every 10 \\
        > ds.log 2>&1

Options: ``--log-level info`` sets the config's ``log_level`` (DeepSpeed's logger is at WARNING
otherwise, and then no checkpoint line is printed); ``--load`` resumes from the ``latest`` tag in
``--out`` (or ``--tag``); ``--kill-at-save N``
SIGKILLs the process from inside ``save_checkpoint`` of ``global_stepN`` (after the model states
file, while the ZeRO optimizer states are being written).
"""

from __future__ import annotations

import argparse
import os
import signal

import deepspeed
import torch
from deepspeed.runtime.checkpoint_engine.torch_checkpoint_engine import TorchCheckpointEngine
from torch import nn


def install_kill_hook(step: int) -> None:
    """SIGKILL the process when DeepSpeed writes the optimizer states of global_step<step>."""
    real_save = TorchCheckpointEngine.save

    def save(self: TorchCheckpointEngine, state_dict: object, path: str) -> None:
        if f"global_step{step}" in path and "optim_states" in path:
            os.kill(os.getpid(), signal.SIGKILL)
        real_save(self, state_dict, path)

    TorchCheckpointEngine.save = save  # type: ignore[method-assign]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--steps", type=int, default=45)
    p.add_argument("--save-every", type=int, default=10)
    p.add_argument("--load", action="store_true")
    p.add_argument("--tag", default=None, help="checkpoint tag to load (default: latest)")
    p.add_argument("--kill-at-save", type=int, default=None)
    p.add_argument(
        "--log-level", default=None, help='DeepSpeed config "log_level" (default: unset)'
    )
    p.add_argument("--local_rank", type=int, default=-1)  # passed by the deepspeed launcher
    a = p.parse_args()

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    config = {
        "train_micro_batch_size_per_gpu": 8,
        "gradient_accumulation_steps": 1,
        "steps_per_print": 5,
        "optimizer": {"type": "Adam", "params": {"lr": 1e-3, "torch_adam": True}},
        "zero_optimization": {"stage": 1},
    }
    if a.log_level:
        config["log_level"] = a.log_level
    engine, _, _, _ = deepspeed.initialize(
        model=model, model_parameters=model.parameters(), config=config
    )
    if a.kill_at_save is not None:
        install_kill_hook(a.kill_at_save)
    if a.load:
        engine.load_checkpoint(a.out, tag=a.tag)

    g = torch.Generator().manual_seed(engine.global_steps)
    while engine.global_steps < a.steps:
        x = torch.randn(8, 32, generator=g).to(engine.device)
        loss = nn.functional.mse_loss(engine(x), x.sum(dim=1, keepdim=True))
        engine.backward(loss)
        engine.step()
        if engine.global_steps % a.save_every == 0:
            engine.save_checkpoint(a.out)


if __name__ == "__main__":
    main()
