"""bench/faultjob: options, Megatron line format, checkpoints, and a real 2-process gloo run."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from bench.faultjob import checkpoint, distenv, megatron_log  # noqa: E402
from bench.faultjob.config import parse_args  # noqa: E402
from bench.faultjob.model import GPTShape, TinyGPT, flops_per_iteration  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SHAPE = GPTShape(num_layers=1, hidden_size=16, num_attention_heads=2, seq_length=8, vocab_size=32)


def test_defaults_and_fault_options() -> None:
    cfg = parse_args([])
    assert cfg.fault == "none" and cfg.log_style == "core_v0.19" and cfg.check_for_nan_in_loss
    cfg = parse_args(["--fault", "segfault", "--at-iteration", "7", "--fault-rank", "3"])
    assert (cfg.fault, cfg.at_iteration, cfg.fault_rank) == ("segfault", 7, 3)


@pytest.mark.parametrize(
    "argv",
    [
        ["--fault", "segfault"],  # no trigger
        ["--fault", "storage_error", "--at-iteration", "3"],  # no --save
        ["--fault", "dataloader_killed", "--at-iteration", "3", "--num-workers", "0"],
        ["--hidden-size", "30", "--num-attention-heads", "4"],
        ["--fault", "bogus"],
    ],
)
def test_invalid_options_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(argv)


def _stats(loss: float) -> megatron_log.IterationStats:
    return megatron_log.IterationStats(
        iteration=10,
        train_iters=200,
        consumed_samples=320,
        elapsed_ms=812.34,
        tflops_per_gpu=0.8,
        learning_rate=1e-4,
        global_batch_size=32,
        lm_loss=loss,
        loss_scale=1.0,
        grad_norm=1.2345,
        skipped_iterations=0,
        nan_iterations=0,
    )


def test_iteration_line_matches_megatron_core() -> None:
    now = datetime(2026, 11, 22, 10, 0, 1, 123456)
    line = megatron_log.iteration_line("core_v0.19", _stats(6.812345), now)
    assert line == (
        " [2026-11-22 10:00:01.123456] iteration       10/     200 | consumed samples:"
        "          320 | elapsed time per iteration (ms): 812.3 | throughput per GPU"
        " (TFLOP/s/GPU): 0.8 | learning rate: 1.000000E-04 | global batch size:    32 |"
        " lm loss: 6.812345E+00 | loss scale: 1.0 | grad norm: 1.234 |"
        " number of skipped iterations:   0 | number of nan iterations:   0 |"
    )


def test_old_styles_and_nan_loss() -> None:
    legacy = megatron_log.iteration_line("v2.6", _stats(6.5))
    assert legacy.startswith(" iteration       10/     200 |") and "TFLOP" not in legacy
    assert "learning rate: 1.000E-04 |" in legacy
    # Megatron prints a loss only if its average is >= 0: a NaN loss is not printed.
    assert "lm loss" not in megatron_log.iteration_line("core_v0.12", _stats(float("nan")))
    assert re.match(
        r"^ \[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] iteration",
        megatron_log.iteration_line("core_v0.12", _stats(1.0)),
    )


def test_checkpoint_lines() -> None:
    assert megatron_log.saving_line("v2.6", 20, "/ck") == (
        "saving checkpoint at iteration      20 to /ck"
    )
    assert megatron_log.saved_line("core_v0.12", 20, "/ck") == (
        "  successfully saved checkpoint from iteration      20 to /ck [ t 1/1, p 1/1 ]"
    )
    assert megatron_log.loaded_line("core_v0.12", "/ck", 20) == (
        "  successfully loaded checkpoint from /ck [ t 1/1, p 1/1 ] at iteration 20"
    )


def test_flops_formula() -> None:
    # 72 B s l h^2 (1 + s/6h + V/12lh), by hand for B=2.
    expected = 72 * 2 * 8 * 1 * 16 * 16 * (1 + 8 / 96 + 32 / 192)
    assert flops_per_iteration(SHAPE, 2) == pytest.approx(expected)


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = TinyGPT(SHAPE)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loss = model(torch.randint(0, 32, (2, 9)))
    loss.backward()
    optimizer.step()
    assert checkpoint.latest_iteration(tmp_path) is None
    checkpoint.save(tmp_path, 5, 80, model, optimizer)
    assert checkpoint.latest_iteration(tmp_path) == 5
    assert not list(tmp_path.rglob(".*.tmp.*"))  # written to a temp name, then renamed
    fresh = TinyGPT(SHAPE)
    fresh_opt = torch.optim.AdamW(fresh.parameters(), lr=1e-3)
    loaded = checkpoint.load(tmp_path, 5, fresh, fresh_opt)
    assert (loaded.iteration, loaded.consumed_samples) == (5, 80)
    for a, b in zip(model.parameters(), fresh.parameters(), strict=True):
        assert torch.equal(a, b)
    assert fresh_opt.state_dict()["state"][0]["step"] == 1


def test_rank_from_torchrun_or_srun() -> None:
    tr = distenv.from_environment({"RANK": "3", "WORLD_SIZE": "4", "LOCAL_RANK": "1"})
    assert (tr.rank, tr.world_size, tr.local_rank, tr.launcher) == (3, 4, 1, "torchrun")
    env = {"SLURM_PROCID": "2", "SLURM_NTASKS": "4", "SLURM_LOCALID": "0", "SLURM_JOB_ID": "7"}
    sr = distenv.from_environment({**env, "MASTER_ADDR": "10.0.0.1", "SLURMD_NODENAME": "n2"})
    assert (sr.rank, sr.world_size, sr.master_addr, sr.node, sr.launcher) == (
        2,
        4,
        "10.0.0.1",
        "n2",
        "srun",
    )
    assert 10000 <= sr.master_port < 16000


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_two_process_gloo_run_saves_and_resumes(tmp_path: Path) -> None:
    """Two real ranks (gloo) train 3 iterations and checkpoint; a second run resumes."""
    base = [sys.executable, "-m", "bench.faultjob.train", "--num-layers", "1"]
    base += ["--hidden-size", "16", "--num-attention-heads", "2", "--seq-length", "8"]
    base += ["--vocab-size", "32", "--num-workers", "0", "--save", str(tmp_path)]

    def run(iters: int) -> str:
        # A port per run: the first run's store socket may still hold its port (TIME_WAIT) when
        # the second starts. (The test failed once in a full parallel run; its output was not
        # kept, so this is the likely cause, not a proven one.)
        port = _free_port()
        procs = []
        for rank in range(2):
            env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", LOCAL_RANK=str(rank))
            env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), PYTHONPATH=str(REPO))
            argv = [*base, "--train-iters", str(iters)]
            procs.append(subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True))
        outputs = [p.communicate(timeout=120)[0] for p in procs]
        assert [p.returncode for p in procs] == [0, 0], outputs
        return outputs[0]

    first = run(3)
    assert len(re.findall(r"iteration +\d+/ +3 \|", first)) == 3
    assert "successfully saved checkpoint from iteration       3" in first
    second = run(4)
    assert f"successfully loaded checkpoint from {tmp_path}" in second
    assert re.findall(r"iteration +(\d+)/ +4 \|", second) == ["4"]
