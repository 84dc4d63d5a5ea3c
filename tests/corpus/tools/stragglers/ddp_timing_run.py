"""Plain PyTorch DDP training that reports per-rank step timings (gloo, CPU).

A small MLP regression on random data made in-process, wrapped in DistributedDataParallel.
Every ``--log-every`` steps each rank's mean data / forward / backward (which holds DDP's
gradient all-reduce, i.e. the wait for the slowest rank) / optimizer / step times over the
interval are gathered, and printed as

* ``--style table``: rank 0 prints one table with a row per rank (rank, host, times, samples/s);
* ``--style lines``: every rank prints its own line, prefixed ``[rank R]``.

The slow rank comes from ``slowrank.py`` (SLOW_RANK / SLOW_FROM / SLOW_S / PAUSES), applied in
a forward pre-hook, so it shows up as that rank's forward time and as everyone else's backward
(all-reduce wait) time. Run::

    SLOW_RANK=1 SLOW_FROM=100 SLOW_S=0.05 torchrun --nproc-per-node 2 \\
        tests/corpus/tools/stragglers/ddp_timing_run.py --steps 300 --log-every 20
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import socket
import time

import torch
import torch.distributed as dist
from slowrank import Injector
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

FIELDS = ("data", "fwd", "bwd", "opt", "step")


def now() -> str:
    return dt.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--log-every", type=int, default=20)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--style", choices=("table", "lines"), default="table")
    p.add_argument("--save-every", type=int, default=0, help="rank 0 saves a checkpoint")
    p.add_argument("--out", default="/tmp/ddp_timing")
    a = p.parse_args()

    torch.set_num_threads(1)
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    host = socket.gethostname()
    inj = Injector(rank)
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Linear(128, a.width),
        nn.GELU(),
        nn.Linear(a.width, a.width),
        nn.GELU(),
        nn.Linear(a.width, 1),
    )
    ddp = DDP(model)
    opt = torch.optim.AdamW(ddp.parameters(), lr=1e-3)
    step_box = [0]
    ddp.module.register_forward_pre_hook(lambda _m, _i: inj.at_step(step_box[0]))
    g = torch.Generator().manual_seed(1000 + rank)
    w_true = torch.randn(128, 1, generator=g)
    if rank == 0:
        n = sum(x.numel() for x in model.parameters())
        print(
            f"{now()} DDP world_size={world} backend=gloo params={n:,} "
            f"batch/rank={a.batch} steps={a.steps}",
            flush=True,
        )
    acc = dict.fromkeys(FIELDS, 0.0)
    for step in range(1, a.steps + 1):
        step_box[0] = step
        t0 = time.perf_counter()
        x = torch.randn(a.batch, 128, generator=g)
        y = x @ w_true + 0.1 * torch.randn(a.batch, 1, generator=g)
        t1 = time.perf_counter()
        loss = nn.functional.mse_loss(ddp(x), y)
        t2 = time.perf_counter()
        loss.backward()
        t3 = time.perf_counter()
        opt.step()
        opt.zero_grad(set_to_none=True)
        t4 = time.perf_counter()
        for k, v in zip(FIELDS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0), strict=True):
            acc[k] += v
        if a.save_every and step % a.save_every == 0 and rank == 0:
            os.makedirs(a.out, exist_ok=True)
            path = os.path.join(a.out, f"step{step}.pt")
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, path)
            print(f"{now()} saved checkpoint {path}", flush=True)
        if step % a.log_every:
            continue
        mine = torch.tensor([acc[k] * 1000 / a.log_every for k in FIELDS] + [loss.item()])
        acc = dict.fromkeys(FIELDS, 0.0)
        if a.style == "lines":
            d = dict(zip(FIELDS, mine.tolist(), strict=False))
            print(
                f"{now()} [rank {rank}] step {step}/{a.steps} | loss {mine[-1]:.4f} | "
                f"step time {d['step']:.1f} ms | fwd {d['fwd']:.1f} ms | "
                f"bwd+allreduce {d['bwd']:.1f} ms | opt {d['opt']:.1f} ms | "
                f"data {d['data']:.2f} ms | {a.batch * 1000 / d['step']:.1f} samples/s",
                flush=True,
            )
            continue
        rows = [torch.zeros_like(mine) for _ in range(world)]
        dist.all_gather(rows, mine)
        hosts: list[str] = [""] * world
        dist.all_gather_object(hosts, host)
        if rank != 0:
            continue
        print(
            f"{now()} step {step}/{a.steps} loss {rows[0][-1]:.4f} "
            f"| per-rank mean times over the last {a.log_every} steps (ms):",
            flush=True,
        )
        print(
            f"  {'rank':>4}  {'host':<10}{'data':>8}{'fwd':>9}{'bwd+ar':>9}{'opt':>8}"
            f"{'step':>9}{'samples/s':>11}",
            flush=True,
        )
        for r, (row, h) in enumerate(zip(rows, hosts, strict=True)):
            d = dict(zip(FIELDS, row.tolist(), strict=False))
            print(
                f"  {r:>4}  {h:<10}{d['data']:>8.2f}{d['fwd']:>9.1f}{d['bwd']:>9.1f}"
                f"{d['opt']:>8.1f}{d['step']:>9.1f}{a.batch * 1000 / d['step']:>11.1f}",
                flush=True,
            )
    if rank == 0:
        print(f"{now()} training finished after {a.steps} steps", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
