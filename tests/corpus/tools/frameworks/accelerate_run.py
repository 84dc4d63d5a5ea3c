"""Tiny Hugging Face Accelerate loop checkpointed with ``save_state`` / ``load_state``.

A small MLP on random data (no downloads). Accelerate's checkpoint lines are ``logger.info``
(``accelerate.accelerator`` / ``accelerate.checkpointing``), so they show only when the script
configures logging: ``--log-info`` calls ``logging.basicConfig(level=logging.INFO)`` as the
Accelerate examples do. The loop prints a progress line every ``--log-every`` steps.

Run (output captured like a Slurm job log)::

    PYTHONUNBUFFERED=1 /work/fwenv/bin/python tests/corpus/tools/frameworks/accelerate_run.py \\
        --out /tmp/acc --steps 45 --save-every 10 --log-info > acc.log 2>&1

Options: ``--load STEP`` resumes from ``<out>/step_STEP`` with ``load_state``; ``--kill-at-save N``
SIGKILLs the process while ``save_state`` of step N writes the optimizer state.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal

import torch
from accelerate import Accelerator
from torch import nn


def install_kill_hook(step: int) -> None:
    real_save = torch.save

    def save(obj: object, f: object, *args: object, **kwargs: object) -> None:
        if isinstance(f, (str, os.PathLike)) and f"step_{step}" in str(f) and "optimizer" in str(f):
            os.kill(os.getpid(), signal.SIGKILL)
        real_save(obj, f, *args, **kwargs)  # type: ignore[arg-type]

    torch.save = save  # type: ignore[assignment]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--steps", type=int, default=45)
    p.add_argument("--save-every", type=int, default=10)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--load", type=int, default=None)
    p.add_argument("--kill-at-save", type=int, default=None)
    p.add_argument("--log-info", action="store_true")
    a = p.parse_args()

    if a.log_info:
        logging.basicConfig(
            format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO
        )
    acc = Accelerator(cpu=not torch.cuda.is_available())
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    optim = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, optim = acc.prepare(model, optim)
    if a.kill_at_save is not None:
        install_kill_hook(a.kill_at_save)

    step = 0
    if a.load is not None:
        acc.load_state(os.path.join(a.out, f"step_{a.load}"))
        step = a.load
    g = torch.Generator().manual_seed(step)
    while step < a.steps:
        x = torch.randn(8, 32, generator=g).to(acc.device)
        loss = nn.functional.mse_loss(model(x), x.sum(dim=1, keepdim=True))
        optim.zero_grad()
        acc.backward(loss)
        optim.step()
        step += 1
        if step % a.log_every == 0:
            acc.print(f"step {step} loss {loss.item():.4f}")
        if step % a.save_every == 0:
            acc.save_state(os.path.join(a.out, f"step_{step}"))


if __name__ == "__main__":
    main()
