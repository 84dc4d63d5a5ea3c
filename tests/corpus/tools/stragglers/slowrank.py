"""The injected slow rank and the ordinary noise of the straggler generators.

Every generator calls ``Injector.at_step(step)`` once per training step, inside the step (a
forward pre-hook, a callback's batch start). Settings come from the environment, so the same
code serves scripts that parse their own arguments (nanoGPT's configurator) and ours:

``BASE_S=0.1``
    every rank waits 0.1 s per step: a stand-in for accelerator compute. The CPU runs share a
    2-core machine with other jobs, so a step made only of tiny-model CPU work would swing with
    their load (a healthy run could show a sustained slowdown); with most of the step a fixed
    wait, the throughput the framework reports is steady unless a rank is made slow.
``SLOW_RANK=1 SLOW_FROM=120 SLOW_S=0.15``
    rank 1 waits 0.15 s more per step from step 120 on. The gradient all-reduce is a collective,
    so every other rank waits for it and the framework's throughput / iteration time degrades
    for the rest of the run.
``SLOW_JITTER=0.5``
    the slow rank's extra wait is drawn uniformly from SLOW_S * [0.5, 1.5] each step (an uneven
    straggler, e.g. a throttling device), seeded, so runs repeat.
``PAUSES="60:2.5,140:1.2@0"``
    one-off pauses, the ordinary noise of healthy runs: at step 60 every rank waits 2.5 s, at
    step 140 rank 0 waits 1.2 s.

Unset or ``SLOW_RANK=-1``: no slow rank (a healthy run).
"""

from __future__ import annotations

import os
import random
import time


def env_rank() -> int:
    """This process's global rank as the launchers set it (torchrun, deepspeed, Lightning)."""
    return int(os.environ.get("RANK", "0"))


def parse_pauses(text: str) -> dict[int, tuple[float, int]]:
    """``"60:2.5,140:1.2@0"`` -> {60: (2.5, -1), 140: (1.2, 0)}; rank -1 means every rank."""
    out: dict[int, tuple[float, int]] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        step, rest = item.split(":", 1)
        seconds, _, rank = rest.partition("@")
        out[int(step)] = (float(seconds), int(rank) if rank else -1)
    return out


class Injector:
    def __init__(self, rank: int | None = None) -> None:
        self.rank = env_rank() if rank is None else rank
        self.base_s = float(os.environ.get("BASE_S", "0"))
        self.slow_rank = int(os.environ.get("SLOW_RANK", "-1"))
        self.slow_from = int(os.environ.get("SLOW_FROM", "0"))
        self.slow_s = float(os.environ.get("SLOW_S", "0"))
        self.jitter = float(os.environ.get("SLOW_JITTER", "0"))
        self.pauses = parse_pauses(os.environ.get("PAUSES", ""))
        self.rng = random.Random(1234 + self.rank)
        self.done: set[int] = set()

    def at_step(self, step: int) -> None:
        """Wait as configured for this rank at this step (a pause fires once)."""
        delay = self.base_s
        if self.rank == self.slow_rank and step >= self.slow_from:
            delay += self.slow_s * (1 + self.jitter * (2 * self.rng.random() - 1))
        pause = self.pauses.get(step)
        if pause and step not in self.done and pause[1] in (-1, self.rank):
            self.done.add(step)
            delay += pause[0]
        if delay > 0:
            time.sleep(delay)
