"""DeepSpeed (ZeRO-1) data-parallel training on 2 CPU ranks with an optional slow rank.

A small MLP on random data (no downloads) trained through ``deepspeed.initialize``. What the
log shows comes from DeepSpeed: every ``steps_per_print`` steps the engine's progress line
(``step=N, skipped=..., lr=...``) and the ThroughputTimer's ``RunningAvgSamplesPerSec=...,
CurrSamplesPerSec=...`` line; with ``--breakdown`` (config ``wall_clock_breakdown``) the per-step
``time (ms) | fwd_microstep ... | bwd_microstep ... | step_microstep ...`` timer lines.

The slow rank comes from ``slowrank.py`` (SLOW_RANK / SLOW_FROM / SLOW_S / PAUSES), applied in a
forward pre-hook, so it lands in that rank's forward time. Run (``DS_ACCELERATOR=cpu``)::

    SLOW_RANK=1 SLOW_FROM=100 SLOW_S=0.05 deepspeed --num_gpus 2 \\
        tests/corpus/tools/stragglers/deepspeed_run.py --steps 300 --log-level info
"""

from __future__ import annotations

import argparse
import os

import deepspeed
import torch
from slowrank import Injector
from torch import nn


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--steps-per-print", type=int, default=10)
    p.add_argument("--breakdown", action="store_true", help='config "wall_clock_breakdown"')
    p.add_argument("--log-level", default=None, help='config "log_level"')
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--save-every", type=int, default=0)
    p.add_argument("--out", default="/tmp/ds_straggler")
    p.add_argument("--local_rank", type=int, default=-1)  # passed by the deepspeed launcher
    a = p.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Linear(128, a.width),
        nn.GELU(),
        nn.Linear(a.width, a.width),
        nn.GELU(),
        nn.Linear(a.width, 1),
    )
    config: dict[str, object] = {
        "train_micro_batch_size_per_gpu": a.batch,
        "gradient_accumulation_steps": 1,
        "steps_per_print": a.steps_per_print,
        "wall_clock_breakdown": a.breakdown,
        "optimizer": {"type": "Adam", "params": {"lr": 1e-3, "torch_adam": True}},
        "zero_optimization": {"stage": 1},
    }
    if a.log_level:
        config["log_level"] = a.log_level
    engine, _, _, _ = deepspeed.initialize(
        model=model, model_parameters=model.parameters(), config=config
    )
    inj = Injector(int(os.environ.get("RANK", "0")))
    engine.module.register_forward_pre_hook(lambda _m, _i: inj.at_step(engine.global_steps + 1))
    g = torch.Generator().manual_seed(engine.global_rank)
    w_true = torch.randn(128, 1, generator=torch.Generator().manual_seed(7))
    while engine.global_steps < a.steps:
        x = torch.randn(a.batch, 128, generator=g)
        loss = nn.functional.mse_loss(engine(x), x @ w_true)
        engine.backward(loss)
        engine.step()
        if a.save_every and engine.global_steps % a.save_every == 0:
            engine.save_checkpoint(a.out)


if __name__ == "__main__":
    main()
