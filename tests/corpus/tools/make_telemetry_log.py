"""Writes real logger-backend output of aidot-training-telemetry (no torch) to stdout.

A fake training loop: an iteration event with tflops every 10 iterations, a checkpoint_save
span every 50; mode `crash` raises an exception at iteration 115 inside `running()` (which the
library records as error records), `slow` lowers the reported tflops by 30% from iteration 120.
Run: `RANK=0 python tests/corpus/tools/make_telemetry_log.py MODE > tests/corpus/X.log 2>&1`.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

from training_telemetry.config import LoggerBackendConfig, TelemetryConfig
from training_telemetry.context import checkpoint_save, get_recorder, running, training
from training_telemetry.events import Event, EventName
from training_telemetry.metrics import (
    ApplicationMetrics,
    CheckpointMetrics,
    CheckPointType,
    IterationMetrics,
)
from training_telemetry.provider import Provider
from training_telemetry.utils import get_rank_count, get_rank_index

ITERATIONS = {"crash": 120, "healthy": 120, "slow": 320}
REPORT_EVERY = 10
SAVE_EVERY = 50


def tflops(mode: str, iteration: int) -> float:
    if mode == "slow" and iteration >= 120:
        return 270.6  # 30% below the 386.7 of the healthy steps
    return 386.7 if iteration % 30 else 385.9


def main(mode: str) -> None:
    # The seed guide's setup: logger backend, rank aware; rank 0 logs everything.
    errors_only = get_rank_index() != 0
    backends = [LoggerBackendConfig(rank_aware=True, errors_only=errors_only)]
    Provider.set_provider(TelemetryConfig(backends=backends))
    app = ApplicationMetrics.create(
        rank=get_rank_index(),
        world_size=get_rank_count(),
        node_name=os.uname().nodename,
        timezone="UTC",
        total_iterations=ITERATIONS[mode],
        checkpoint_enabled=True,
        checkpoint_strategy="sync",
    )
    with running(metrics=app), training() as training_span:
        loss = 2.5
        for iteration in range(1, ITERATIONS[mode] + 1):
            time.sleep(0.002)  # the "step"
            loss *= 0.99
            if iteration % REPORT_EVERY == 0:
                metrics = IterationMetrics.create(
                    current_iteration=iteration,
                    num_iterations=REPORT_EVERY,
                    interval=REPORT_EVERY,
                    loss=loss,
                    tflops=tflops(mode, iteration),
                )
                get_recorder().event(
                    Event.create(EventName.TRAINING_ITERATIONS, metrics=metrics), training_span
                )
            if iteration % SAVE_EVERY == 0:
                with checkpoint_save() as span, tempfile.TemporaryDirectory() as temp_dir:
                    path = os.path.join(temp_dir, f"checkpoint_iter_{iteration}.pt")
                    with open(path, "wb") as f:
                        f.write(b"\0" * 1024)
                    span.add_metrics(
                        CheckpointMetrics.create(
                            checkpoint_type=CheckPointType.LOCAL,
                            current_iteration=iteration,
                            num_iterations=SAVE_EVERY,
                            checkpoint_directory=temp_dir,
                        )
                    )
            if mode == "crash" and iteration == 115:
                raise RuntimeError("shape mismatch: value tensor of shape [8] cannot be broadcast")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "crash")
