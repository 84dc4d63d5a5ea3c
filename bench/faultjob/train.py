"""Train a tiny GPT with torch.distributed, print Megatron-LM's log lines, inject one fault.

    torchrun --nproc-per-node 2 -m bench.faultjob.train --train-iters 50 --save /tmp/ckpt ...
    srun -l -N 2 --ntasks-per-node 1 python -m bench.faultjob.train --fault segfault ...

See README.md beside this file. Every number printed is measured in this run.
"""

from __future__ import annotations

import faulthandler
import math
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

from . import checkpoint, faults, megatron_log, resilience
from .config import Config, parse_args
from .data import MarkovTokens, make_loader
from .distenv import DistEnv, current
from .model import GPTShape, TinyGPT, flops_per_iteration, parameter_count

SILENT_HANG_PG_TIMEOUT = 86400.0  # silent_hang: no watchdog may end the wait within a test
WARMUP_ITERS = 10


@dataclass
class Run:
    """Everything the training loop needs, built once by setup()."""

    cfg: Config
    env: DistEnv
    device: torch.device
    shape: GPTShape
    raw_model: TinyGPT
    model: nn.Module
    optimizer: torch.optim.Optimizer
    start_iteration: int
    loader_iter: Iterator[torch.Tensor] | None = None
    loader_handle: Any = None
    started: float = field(default_factory=time.monotonic)
    skipped: int = 0
    nan_iters: int = 0

    @property
    def global_batch(self) -> int:
        return self.cfg.micro_batch_size * self.env.world_size


# --- printing -------------------------------------------------------------------------------


def say(run_env: DistEnv, message: str) -> None:
    """print_rank_0: one line from rank 0, flushed at once (the log is tailed live)."""
    if run_env.rank == 0:
        print(message, flush=True)


def prints_iterations(cfg: Config, env: DistEnv) -> bool:
    if cfg.log_rank == "all":
        return True
    return env.rank == (0 if cfg.log_rank == "first" else env.world_size - 1)


# --- setup ----------------------------------------------------------------------------------


def pick_backend(cfg: Config) -> str:
    if cfg.backend != "auto":
        return cfg.backend
    return "nccl" if torch.cuda.is_available() else "gloo"


def init_distributed(cfg: Config, env: DistEnv) -> torch.device:
    backend = pick_backend(cfg)
    timeout = SILENT_HANG_PG_TIMEOUT if cfg.fault == "silent_hang" else cfg.pg_timeout
    device = torch.device("cpu")
    if torch.cuda.is_available():
        device = torch.device("cuda", env.local_rank % torch.cuda.device_count())
        torch.cuda.set_device(device)
    say(env, "> initializing torch distributed ...")
    dist.init_process_group(
        backend,
        init_method=f"tcp://{env.master_addr}:{env.master_port}",
        rank=env.rank,
        world_size=env.world_size,
        timeout=timedelta(seconds=timeout),
    )
    say(env, megatron_log.world_line(env.world_size))
    say(
        env, f"> faultjob: backend {backend}, process-group timeout {timeout:.0f} s, {env.launcher}"
    )
    return device


def build_model(cfg: Config, env: DistEnv, device: torch.device) -> tuple[TinyGPT, nn.Module]:
    shape = GPTShape(
        cfg.num_layers, cfg.hidden_size, cfg.num_attention_heads, cfg.seq_length, cfg.vocab_size
    )
    say(env, "building GPT model ...")
    torch.manual_seed(cfg.seed)  # identical initial weights on every rank
    raw = TinyGPT(shape).to(device)
    say(
        env,
        " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): "
        f"{parameter_count(raw)}",
    )
    ids = [device.index] if device.type == "cuda" else None
    return raw, DistributedDataParallel(raw, device_ids=ids)


def maybe_load(cfg: Config, env: DistEnv, raw: TinyGPT, optimizer: torch.optim.Optimizer) -> int:
    """Resume from the latest checkpoint, as Megatron does; return the iteration reached."""
    directory = cfg.load or cfg.save
    if directory is None:
        return 0
    iteration = checkpoint.latest_iteration(directory)
    if iteration is None:
        for line in megatron_log.no_checkpoint_lines(str(checkpoint.tracker_path(directory))):
            say(env, line)
        return 0
    say(env, megatron_log.loading_line(str(directory), iteration))
    loaded = checkpoint.load(directory, iteration, raw, optimizer)
    say(env, megatron_log.loaded_line(cfg.log_style, str(directory), loaded.iteration))
    return loaded.iteration


def setup(cfg: Config) -> Run:
    env = current()
    faulthandler.enable()  # a fatal signal prints Python's "Fatal Python error" and stacks
    torch.set_num_threads(cfg.threads)
    if cfg.detect_anomaly:
        torch.autograd.set_detect_anomaly(True)
    device = init_distributed(cfg, env)
    raw, model = build_model(cfg, env, device)
    optimizer = torch.optim.AdamW(raw.parameters(), lr=cfg.lr, weight_decay=0.01)
    start = maybe_load(cfg, env, raw, optimizer)
    shape = raw.shape
    return Run(cfg, env, device, shape, raw, model, optimizer, start)


def start_data(run: Run) -> None:
    cfg = run.cfg
    dataset = MarkovTokens(cfg.vocab_size, cfg.seq_length, cfg.seed)
    loader = make_loader(
        dataset,
        run.start_iteration,
        cfg.micro_batch_size,
        run.env.rank,
        run.env.world_size,
        cfg.num_workers,
    )
    handle = iter(loader)
    run.loader_handle = handle
    run.loader_iter = handle


# --- one iteration --------------------------------------------------------------------------


def learning_rate(cfg: Config, iteration: int) -> float:
    """Linear warm-up, then cosine decay to a tenth (a schedule Megatron users commonly run)."""
    if iteration <= WARMUP_ITERS:
        return cfg.lr * iteration / WARMUP_ITERS
    progress = (iteration - WARMUP_ITERS) / max(1, cfg.train_iters - WARMUP_ITERS)
    return cfg.lr * (0.1 + 0.45 * (1 + math.cos(math.pi * min(1.0, progress))))


def next_batch(run: Run) -> torch.Tensor:
    assert run.loader_iter is not None
    return next(run.loader_iter).to(run.device)


def average_across_ranks(value: torch.Tensor, world: int) -> float:
    total = value.detach().clone().reshape(1)
    dist.all_reduce(total)
    return float(total.item()) / world


def nan_check(run: Run, loss: torch.Tensor, iteration: int) -> None:
    """Megatron's check_for_nan_in_loss_and_grad with the rerun state machine disabled."""
    if run.cfg.check_for_nan_in_loss and not run.cfg.detect_anomaly and torch.isnan(loss):
        message = resilience.disabled_mode_error(
            run.env.rank, run.env.node, run.env.local_rank, iteration, str(loss)
        )
        raise RuntimeError(message)


def step(run: Run, iteration: int, poison: float | None) -> tuple[torch.Tensor, float]:
    """Forward, backward (DDP all-reduces the gradients), clip, optimizer step."""
    lr = learning_rate(run.cfg, iteration)
    for group in run.optimizer.param_groups:
        group["lr"] = lr
    batch = next_batch(run)
    run.optimizer.zero_grad(set_to_none=True)
    loss = run.model(batch, poison)
    nan_check(run, loss, iteration)
    loss.backward()
    grad_norm = float(torch.nn.utils.clip_grad_norm_(run.raw_model.parameters(), 1.0))
    if math.isfinite(grad_norm):
        run.optimizer.step()
    else:
        run.skipped += 1  # Megatron skips an update whose gradients hold inf/NaN
    if not math.isfinite(float(loss.detach())):
        run.nan_iters += 1
    return loss, grad_norm


# --- faults ---------------------------------------------------------------------------------


def fault_is_due(run: Run, iteration: int) -> bool:
    attempt = int(os.environ.get("SLURM_RESTART_COUNT", "0"))
    if run.cfg.fault_on_attempt is not None and attempt != run.cfg.fault_on_attempt:
        return False
    trigger = faults.Trigger(run.cfg.at_iteration, run.cfg.fault_after)
    return trigger.due(iteration, time.monotonic() - run.started)


def agree(run: Run, flag: bool) -> bool:
    """All ranks take a job-wide fault at the same iteration (the time trigger is per rank)."""
    value = torch.tensor([1.0 if flag else 0.0], device=run.device)
    dist.all_reduce(value, op=dist.ReduceOp.MAX)
    return bool(value.item() > 0)


def rank_fault(run: Run, iteration: int) -> float | None:
    """Do this rank's fault if it is due; return the activation poison for the step (or None)."""
    cfg = run.cfg
    if cfg.fault not in faults.RANK_LOCAL or run.env.rank != cfg.fault_rank:
        return None
    if not fault_is_due(run, iteration):
        return None
    kind = cfg.fault
    if kind == "segfault":
        faults.segfault()
    elif kind == "sigkill":
        faults.sigkill_self()
    elif kind in ("collective_hang", "silent_hang"):
        faults.sleep_forever()
    elif kind == "straggler":
        time.sleep(cfg.straggler_delay)
    elif kind == "straggler_then_hang":
        first = cfg.at_iteration or iteration
        if iteration >= first + cfg.hang_after:
            faults.sleep_forever()
        time.sleep(cfg.straggler_delay)
    elif kind == "oom":
        faults.oom(cfg.oom_limit_mb, cfg.oom_report)
    elif kind == "dataloader_killed":
        faults.kill_dataloader_workers(run.loader_handle)
        time.sleep(0.5)  # let the SIGCHLD reach the loader before it asks for the next batch
    elif kind == "nan" and iteration == (cfg.at_iteration or iteration):
        return float("nan")
    return None


def rerun_state_machine_exit(run: Run, iteration: int, reproducible: bool) -> None:
    """exit16/exit17: Megatron's rerun state machine, done for real on the faulty rank's batch.

    The initial run gives NaN on the faulty rank; the step is re-run in place on the same batch
    (NaN again when `reproducible`). Reproducible: checkpoint, exit 16 (rerun elsewhere);
    not reproducible (transient): exit 17.
    """
    log = resilience.rerun_logger()
    env, faulty = run.env, run.env.rank == run.cfg.fault_rank
    batch = next_batch(run)
    with torch.no_grad():
        initial = run.raw_model(batch, float("nan") if faulty else None)
        if faulty:
            log.error(resilience.unexpected_result(env.rank, iteration, str(initial)))
        if env.rank == 0:
            log.warning(resilience.NEED_RERUN)
        rerun = run.raw_model(batch, float("nan") if faulty and reproducible else None)
    if faulty:
        detail = (
            resilience.first_rerun_reproducible(str(rerun), str(initial))
            if reproducible
            else resilience.first_rerun_not_reproducible(str(rerun), str(initial))
        )
        log.error(resilience.failure(env.rank, env.node, env.local_rank, iteration, detail))
        if not reproducible:
            message = resilience.POSSIBLE_TRANSIENT
            log.error(resilience.failure(env.rank, env.node, env.local_rank, iteration, message))
    dist.barrier()
    if reproducible:
        if env.rank == 0:
            log.warning(resilience.EXIT_CHECKPOINT_16)
        save_checkpoint(run, iteration - 1)
        finish(resilience.EXIT_CODE_RESUME_TO_DISAMBIGUATE)
    if env.rank == 0:
        log.warning(resilience.EXIT_17)
    finish(resilience.EXIT_CODE_FAILED_ON_RESULT_VALIDATION)


def node_rank() -> int:
    return int(os.environ.get("GROUP_RANK") or os.environ.get("SLURM_NODEID") or "0")


def job_fault(run: Run, iteration: int) -> None:
    """Faults every rank takes part in; decided together so that all act at one iteration."""
    cfg = run.cfg
    if cfg.fault not in faults.JOB_WIDE or not agree(run, fault_is_due(run, iteration)):
        return
    if cfg.fault == "exit16":
        rerun_state_machine_exit(run, iteration, reproducible=True)
    elif cfg.fault == "exit17":
        rerun_state_machine_exit(run, iteration, reproducible=False)
    elif cfg.fault == "exit93":
        if run.env.local_rank == 0:
            for line in resilience.nvrx_lines(run.env.node, node_rank()):
                print(line, file=sys.stderr, flush=True)
        finish(resilience.NVRX_NO_RESTART_EXIT_CODE)
    elif cfg.fault == "storage_error":
        if run.env.rank == 0:
            break_storage(cfg)
        save_checkpoint(run, iteration - 1)


def break_storage(cfg: Config) -> None:
    assert cfg.save is not None
    if cfg.eio_mount is not None:
        faults.shutdown_filesystem(cfg.eio_mount)
    else:
        faults.fill_filesystem(cfg.save)


# --- checkpoints and the end ----------------------------------------------------------------


def save_checkpoint(run: Run, iteration: int) -> None:
    cfg = run.cfg
    if cfg.save is None:
        return
    say(run.env, megatron_log.saving_line(cfg.log_style, iteration, str(cfg.save)))
    if run.env.rank == 0:
        consumed = iteration * run.global_batch
        checkpoint.save(cfg.save, iteration, consumed, run.raw_model, run.optimizer)
    dist.barrier()
    say(run.env, megatron_log.saved_line(cfg.log_style, iteration, str(cfg.save)))


def finish(code: int) -> None:
    faults.flush_all()
    if dist.is_initialized():
        dist.destroy_process_group()
    sys.exit(code)


def log_iteration(run: Run, iteration: int, loss: float, grad_norm: float, ms: float) -> None:
    cfg = run.cfg
    tflops = flops_per_iteration(run.shape, run.global_batch) / (
        ms / 1000.0 * 1e12 * run.env.world_size
    )
    stats = megatron_log.IterationStats(
        iteration=iteration,
        train_iters=cfg.train_iters,
        consumed_samples=iteration * run.global_batch,
        elapsed_ms=ms,
        tflops_per_gpu=tflops,
        learning_rate=learning_rate(cfg, iteration),
        global_batch_size=run.global_batch,
        lm_loss=loss,
        loss_scale=1.0,
        grad_norm=grad_norm,
        skipped_iterations=run.skipped,
        nan_iterations=run.nan_iters,
    )
    if prints_iterations(cfg, run.env):
        print(megatron_log.iteration_line(cfg.log_style, stats), flush=True)
    run.skipped = run.nan_iters = 0


def train(run: Run) -> int:
    cfg = run.cfg
    say(run.env, "training ...")
    say(run.env, megatron_log.datetime_line("before the start of training step"))
    if cfg.fault in ("exit16", "exit17") and run.env.rank == 0:
        resilience.rerun_logger().warning(resilience.VALIDATION_ENABLED)
    run.started = interval_start = time.monotonic()
    iteration = run.start_iteration
    losses: list[float] = []
    while iteration < cfg.train_iters:
        iteration += 1
        job_fault(run, iteration)
        poison = rank_fault(run, iteration)
        loss, grad_norm = step(run, iteration, poison)
        if cfg.iter_delay:
            time.sleep(cfg.iter_delay)
        losses.append(average_across_ranks(loss, run.env.world_size))
        if iteration % cfg.log_interval == 0:
            ms = (time.monotonic() - interval_start) * 1000.0 / len(losses)
            log_iteration(run, iteration, sum(losses) / len(losses), grad_norm, ms)
            losses, interval_start = [], time.monotonic()
        if cfg.save_interval and iteration % cfg.save_interval == 0:
            save_checkpoint(run, iteration)
            interval_start = time.monotonic()  # Megatron's interval timer excludes the save
    say(run.env, megatron_log.datetime_line("after training is done"))
    # Megatron saves at the end too, unless the last iteration was just saved.
    just_saved = cfg.save_interval and iteration % cfg.save_interval == 0
    if cfg.save is not None and not just_saved and iteration > run.start_iteration:
        save_checkpoint(run, iteration)
    return iteration


def main(argv: Sequence[str] | None = None) -> int:
    cfg = parse_args(argv)
    run = setup(cfg)
    start_data(run)
    train(run)
    dist.barrier()
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
