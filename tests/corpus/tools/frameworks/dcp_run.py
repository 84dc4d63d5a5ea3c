"""Tiny training loop checkpointed with torch.distributed.checkpoint (DCP) used directly.

DCP itself prints nothing about a save or a load at Python's default log level, so what a job
log shows is what the training script prints. This script prints like a typical hand-written
loop: a progress line every ``--log-every`` steps and nothing else; ``--log-info`` calls
``logging.basicConfig(level=logging.INFO)`` as many scripts do, which makes the INFO lines of
torch.distributed.checkpoint (e.g. the background process of ``async_save``) visible.

Run (single process, gloo; output captured like a Slurm job log)::

    PYTHONUNBUFFERED=1 /work/fwenv/bin/torchrun --nproc_per_node 1 \\
        tests/corpus/tools/frameworks/dcp_run.py --out /tmp/dcp --steps 45 --save-every 10 \\
        > dcp.log 2>&1

Options: ``--mode sync|async|async-process`` (``dcp.save``, ``dcp.async_save`` with the default
thread executor, or with ``AsyncCheckpointerType.PROCESS``); ``--load STEP`` resumes from
``<out>/step-STEP`` with ``dcp.load``; ``--kill-at-save N`` SIGKILLs the process while the
checkpoint of step N is being written.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
from concurrent.futures import Future

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.filesystem import FileSystemWriter
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType


class KillingWriter(FileSystemWriter):
    """FileSystemWriter that SIGKILLs the process when it starts writing the data files."""

    def write_data(self, plan, planner):  # type: ignore[no-untyped-def]
        os.kill(os.getpid(), signal.SIGKILL)
        return super().write_data(plan, planner)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--steps", type=int, default=45)
    p.add_argument("--save-every", type=int, default=10)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--mode", choices=["sync", "async", "async-process"], default="sync")
    p.add_argument("--load", type=int, default=None)
    p.add_argument("--kill-at-save", type=int, default=None)
    p.add_argument("--log-info", action="store_true")
    a = p.parse_args()

    if a.log_info:
        logging.basicConfig(level=logging.INFO)
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
    optim = torch.optim.AdamW(model.parameters(), lr=1e-3)

    step = 0
    if a.load is not None:
        msd, osd = get_state_dict(model, optim)
        state = {"model": msd, "optim": osd, "step": 0}
        dcp.load(state, checkpoint_id=os.path.join(a.out, f"step-{a.load}"))
        set_state_dict(
            model, optim, model_state_dict=state["model"], optim_state_dict=state["optim"]
        )
        step = int(state["step"])

    pending: Future | None = None
    g = torch.Generator().manual_seed(step)
    while step < a.steps:
        x = torch.randn(8, 32, generator=g)
        loss = nn.functional.mse_loss(model(x), x.sum(dim=1, keepdim=True))
        optim.zero_grad()
        loss.backward()
        optim.step()
        step += 1
        if step % a.log_every == 0:
            print(f"step {step} loss {loss.item():.4f}")
        if step % a.save_every == 0:
            msd, osd = get_state_dict(model, optim)
            state = {"model": msd, "optim": osd, "step": step}
            path = os.path.join(a.out, f"step-{step}")
            writer = KillingWriter(path) if step == a.kill_at_save else None
            if a.mode == "sync":
                dcp.save(state, checkpoint_id=path, storage_writer=writer)
            else:
                if pending is not None:
                    pending.result()
                kind = AsyncCheckpointerType.PROCESS if a.mode == "async-process" else None
                kwargs = {"async_checkpointer_type": kind} if kind else {}
                pending = dcp.async_save(state, checkpoint_id=path, storage_writer=writer, **kwargs)
    if pending is not None:
        pending.result()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
