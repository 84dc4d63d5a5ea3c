"""Command line of the fault-injection training job."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

FAULT_KINDS = (
    "none",
    "segfault",
    "collective_hang",
    "silent_hang",
    "straggler",
    "straggler_then_hang",
    "nan",
    "oom",
    "sigkill",
    "storage_error",
    "dataloader_killed",
    "exit16",
    "exit17",
    "exit93",
)

# Megatron-LM releases whose log text is reproduced (see megatron_log.py).
LOG_STYLES = ("core_v0.19", "core_v0.12", "v2.6")

FAULT_HELP = """\
fault kinds (rank R = --fault-rank, at iteration N = --at-iteration or after --fault-after s):
  none                 train normally
  segfault             rank R dereferences NULL (ctypes.string_at(0)): a real SIGSEGV
  collective_hang      rank R stops calling collectives (sleeps); the others block in
                       all_reduce until the process-group timeout (--pg-timeout) fires
  silent_hang          rank R sleeps before the collective and the others wait with a
                       1-day process-group timeout: the job goes silent, no watchdog
  straggler            rank R sleeps --straggler-delay s per iteration from N on: the
                       measured iteration time rises and TFLOP/s drops
  straggler_then_hang  as straggler, then after --hang-after more iterations as
                       collective_hang
  nan                  rank R's activations become NaN: with --detect-anomaly autograd's
                       anomaly mode raises; else Megatron's NaN loss check raises
                       (--no-check-for-nan-in-loss: training goes on with NaN)
  oom                  rank R moves itself into a new memory cgroup limited to
                       --oom-limit-mb and allocates until the kernel OOM killer kills it
  sigkill              rank R sends itself SIGKILL
  storage_error        the checkpoint save at iteration N fails: ENOSPC when --save is on a
                       full filesystem; with --eio-mount M the ext4 filesystem on loop
                       device M is shut down first (FS_IOC_SHUTDOWN), so writes get EIO
  dataloader_killed    rank R SIGKILLs its DataLoader worker process(es)
  exit16               Megatron rerun state machine: NaN reproduced in place, checkpoint,
                       exit 16 (resume on different hardware)
  exit17               Megatron rerun state machine: the in-place rerun does not reproduce
                       the NaN (transient error), exit 17 (failed result validation)
  exit93               NVRx no-progress verdict: exit 93 (do not restart)
node_fail is not a training fault: `python -m bench.faultjob.node_fail` kills a job's slurmd.
"""


@dataclass(frozen=True)
class Config:
    """Parsed options; see build_parser() for their meaning."""

    train_iters: int
    micro_batch_size: int
    seq_length: int
    hidden_size: int
    num_layers: int
    num_attention_heads: int
    vocab_size: int
    lr: float
    seed: int
    log_interval: int
    log_rank: str
    log_style: str
    save: Path | None
    load: Path | None
    save_interval: int
    iter_delay: float
    num_workers: int
    pg_timeout: float
    backend: str
    master_addr: str | None
    master_port: int | None
    fault: str
    at_iteration: int | None
    fault_after: float | None
    fault_rank: int
    fault_on_attempt: int | None
    straggler_delay: float
    hang_after: int
    detect_anomaly: bool
    check_for_nan_in_loss: bool
    oom_limit_mb: int
    oom_report: bool
    eio_mount: Path | None
    threads: int


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _non_negative_float(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _add_model_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("model and data (synthetic tokens, no downloads)")
    group.add_argument("--num-layers", type=_positive_int, default=2)
    group.add_argument("--hidden-size", type=_positive_int, default=64)
    group.add_argument("--num-attention-heads", type=_positive_int, default=4)
    group.add_argument("--seq-length", type=_positive_int, default=64)
    group.add_argument("--vocab-size", type=_positive_int, default=512)
    group.add_argument("--micro-batch-size", type=_positive_int, default=8)
    group.add_argument(
        "--num-workers", type=int, default=1, help="DataLoader worker processes per rank"
    )
    group.add_argument("--seed", type=int, default=1234)


def _add_training_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("training")
    group.add_argument("--train-iters", type=_positive_int, default=100)
    group.add_argument("--lr", type=float, default=3e-4)
    group.add_argument(
        "--iter-delay",
        type=_non_negative_float,
        default=0.0,
        help="seconds every rank waits per iteration (stands for a bigger model's compute so "
        "the log gets a realistic cadence without burning CPU; it is inside the measured time)",
    )
    group.add_argument("--threads", type=_positive_int, default=1, help="torch CPU threads")


def _add_logging_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("logging (Megatron-LM format)")
    group.add_argument("--log-interval", type=_positive_int, default=1)
    group.add_argument(
        "--log-rank",
        choices=("first", "last", "all"),
        default="first",
        help="which rank prints iteration lines (Megatron itself uses the last rank)",
    )
    group.add_argument(
        "--log-style",
        choices=LOG_STYLES,
        default="core_v0.19",
        help="Megatron-LM release whose line text is reproduced; v2.6 has no timestamps",
    )


def _add_checkpoint_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("checkpoints (torch.save, temp file then rename)")
    group.add_argument("--save", type=Path, default=None, help="checkpoint directory")
    group.add_argument("--load", type=Path, default=None, help="resume from (default: --save)")
    group.add_argument("--save-interval", type=int, default=0, help="0: no periodic saves")


def _add_distributed_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "distributed (torchrun env, else SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID)"
    )
    group.add_argument("--backend", choices=("auto", "gloo", "nccl"), default="auto")
    group.add_argument(
        "--pg-timeout", type=_non_negative_float, default=60.0, help="process-group timeout, s"
    )
    group.add_argument("--master-addr", default=None, help="default: $MASTER_ADDR, else see README")
    group.add_argument("--master-port", type=int, default=None, help="default: $MASTER_PORT")


def _add_fault_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("fault injection")
    group.add_argument("--fault", choices=FAULT_KINDS, default="none")
    group.add_argument("--at-iteration", type=_positive_int, default=None)
    group.add_argument("--fault-after", type=_non_negative_float, default=None, metavar="SECONDS")
    group.add_argument("--fault-rank", type=int, default=0)
    group.add_argument(
        "--fault-on-attempt",
        type=int,
        default=None,
        metavar="N",
        help="inject only when $SLURM_RESTART_COUNT is N (e.g. 0: a requeued job then recovers)",
    )
    group.add_argument("--straggler-delay", type=_non_negative_float, default=1.0)
    group.add_argument(
        "--hang-after", type=int, default=5, help="straggler_then_hang: straggling iterations"
    )
    group.add_argument("--detect-anomaly", action="store_true")
    group.add_argument(
        "--no-check-for-nan-in-loss", dest="check_for_nan_in_loss", action="store_false"
    )
    group.add_argument("--oom-limit-mb", type=_positive_int, default=300)
    group.add_argument(
        "--no-oom-report",
        dest="oom_report",
        action="store_false",
        help="oom: do not print the kernel's OOM-kill line (a side process reads it from "
        "/dev/kmsg, as a site's node log forwarder would)",
    )
    group.add_argument(
        "--eio-mount",
        type=Path,
        default=None,
        metavar="DIR",
        help="storage_error: shut down this loop-device ext4 mount (EIO) instead of filling --save",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.faultjob.train",
        description="Train a tiny GPT with torch.distributed and inject a real fault.",
        epilog=FAULT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_model_args(parser)
    _add_training_args(parser)
    _add_logging_args(parser)
    _add_checkpoint_args(parser)
    _add_distributed_args(parser)
    _add_fault_args(parser)
    return parser


def _validate(parser: argparse.ArgumentParser, ns: argparse.Namespace) -> None:
    if ns.hidden_size % ns.num_attention_heads:
        parser.error("--hidden-size must be divisible by --num-attention-heads")
    needs_trigger = ns.fault not in ("none",)
    if needs_trigger and ns.at_iteration is None and ns.fault_after is None:
        parser.error(f"--fault {ns.fault} needs --at-iteration or --fault-after")
    if ns.fault == "storage_error" and ns.save is None:
        parser.error("--fault storage_error needs --save")
    if ns.fault == "dataloader_killed" and ns.num_workers < 1:
        parser.error("--fault dataloader_killed needs --num-workers >= 1")
    if ns.fault in ("exit16", "exit17") and ns.save is None:
        parser.error(f"--fault {ns.fault} needs --save (the rerun state machine checkpoints)")


def parse_args(argv: Sequence[str] | None = None) -> Config:
    parser = build_parser()
    ns = parser.parse_args(argv)
    _validate(parser, ns)
    fields = {name: getattr(ns, name) for name in Config.__dataclass_fields__}
    return Config(**fields)
