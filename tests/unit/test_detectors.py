"""Per-line detectors: crash signals, tracebacks, progress, checkpoints, node names."""

# ruff: noqa: E501 - the tables hold whole log lines, which are long

from __future__ import annotations

import math

import pytest

from analysis.detectors import (
    CheckpointMatcher,
    NodeNames,
    Traceback,
    detect_crash,
    may_matter,
    parse_progress,
    parse_straggler,
)
from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS

pytestmark = pytest.mark.unit

NODES = NodeNames(["node1", "node2", "gpu-a17", "ip-10-1-57-141"])

# line, name, category, immediate, nodes, requeue, exclude, victim
CRASHES: list[tuple[str, str, str, bool, tuple[str, ...], bool | None, bool, bool]] = [
    # the seed's quick-start test line (000): recognised and acted on at once
    ("Rank0: (1) segmentation fault: artificial segfault", "segfault", "APPLICATION", True, (), None, False, False),
    ("3: Segmentation fault (core dumped)", "segfault", "APPLICATION", True, (), None, False, False),
    ("Fatal Python error: Segmentation fault", "segfault", "APPLICATION", True, (), None, False, False),
    ("[rank2]: Signal 6 (SIGABRT) received by PID 4711", "segfault", "APPLICATION", True, (), None, False, False),
    ("*** SIGSEGV (@0x0) received by PID 1234 (TID 0x7f12) from PID 0; stack trace: ***", "segfault", "APPLICATION", True, (), None, False, False),
    ("process 3 terminated with signal SIGSEGV", "segfault", "APPLICATION", True, (), None, False, False),
    ("/bin/bash: line 1: 4711 Bus error (core dumped) python train.py", "segfault", "APPLICATION", True, (), None, False, False),
    # CUDA
    ("0: RuntimeError: CUDA error: an illegal memory access was encountered", "cuda_illegal_address", "APPLICATION", True, (), None, False, False),
    ("[rank5]: RuntimeError: CUDA error: uncorrectable ECC error encountered on node2", "cuda_ecc", "GPU", True, ("node2",), True, True, False),
    ("RuntimeError: CUDA error: unspecified launch failure", "cuda_launch_failure", "GPU", True, (), True, False, False),
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "cuda_oom", "APPLICATION", False, (), None, False, False),
    ("RuntimeError: CUDA error: out of memory", "cuda_oom", "APPLICATION", False, (), None, False, False),
    ("RuntimeError: CUDA error: device-side assert triggered", "cuda_device_assert", "APPLICATION", True, (), None, False, False),
    ("RuntimeError: CUDA error: no CUDA-capable device is detected", "cuda_no_device", "NODE", True, (), True, True, False),
    # Xid (kernel lines forwarded into the job log, with or without a host prefix)
    ("Jul 30 14:21:44 gpu-a17 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.", "xid", "NODE", True, ("gpu-a17",), True, True, False),
    ("NVRM: Xid (PCI:0000:3b:00): 48, pid=1, name=python, DBE (0x1) on node1", "xid", "GPU", True, ("node1",), True, True, False),
    ("NVRM: Xid (PCI:0000:3b:00): 31, pid=1, name=python, Ch 00000008, intr 00000000. MMU Fault", "xid", "APPLICATION", True, (), None, False, False),
    # NCCL
    ("[rank3]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600023 milliseconds before timing out.", "nccl_watchdog_timeout", "NETWORK", True, (), True, False, True),
    ("node2:1234:5678 [3] NCCL WARN NET/IB : Got completion from peer 10.0.0.7<53612> with error 12, opcode 0, len 0, vendor err 129 (Recv)", "nccl_ib_completion_error", "NETWORK", False, ("node2",), True, False, False),
    ("torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3", "nccl_error", "NETWORK", False, (), True, False, False),
    ("RuntimeError: NCCL communicator was aborted on rank 5. ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely. remote process exited or there was a network error", "nccl_error", "NETWORK", False, (), True, False, True),
    # torch elastic
    ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", "torch_child_failed", "UNKNOWN", True, (), None, False, True),
    # host OOM
    ("[Tue Jul 30 14:21:44 2024] Out of memory: Killed process 4711 (python) total-vm:1024kB", "host_oom", "APPLICATION", False, (), None, False, False),
    ("slurmstepd: error: Detected 1 oom-kill event(s) in StepId=123.0. Some of your processes may have been killed by the cgroup out-of-memory handler.", "host_oom", "APPLICATION", False, (), None, False, False),
    ("Memory cgroup out of memory: Killed process 4711 (python)", "host_oom", "APPLICATION", False, (), None, False, False),
    # storage
    ("OSError: [Errno 5] Input/output error: '/lustre/ckpt/iter_0000100'", "storage_eio", "STORAGE", False, (), None, False, False),
    ("OSError: [Errno 28] No space left on device", "storage_enospc", "STORAGE", False, (), None, False, False),
    ("cp: error reading '/fsx/data': Stale file handle", "storage_estale", "STORAGE", False, (), None, False, False),
    ("OSError: [Errno 122] Disk quota exceeded", "storage_edquot", "STORAGE", False, (), None, False, False),
    # Slurm
    ("slurmstepd: error: *** JOB 123 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO NODE FAILURE ***", "slurm_node_failure", "NODE", True, (), True, False, False),
    ("*** JOB 123 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO NODE FAILURE ***", "slurm_node_failure", "NODE", True, (), True, False, False),
    ("slurmstepd: error: *** STEP 123.0 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO TIME LIMIT ***", "slurm_time_limit", "SCHEDULER", True, (), None, False, False),
    ("slurmstepd: error: *** JOB 123 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO PREEMPTION ***", "slurm_preempted", "SCHEDULER", True, (), True, False, False),
    ("slurmstepd: error: *** JOB 123 ON node1 CANCELLED AT 2024-07-30T14:21:44 ***", "slurm_cancelled", "SCHEDULER", True, (), None, False, False),
    ("srun: error: node2: task 3: Exited with exit code 1", "srun_task_exit", "APPLICATION", True, ("node2",), None, False, False),
    ("srun: error: node2: tasks 0-7: Segmentation fault", "srun_task_crash", "APPLICATION", True, ("node2",), None, False, False),
    ("srun: error: node1: tasks 8-15: Killed", "srun_task_killed", "UNKNOWN", True, ("node1",), None, False, True),
    ("srun: error: node2: task 1: Out Of Memory", "host_oom", "APPLICATION", True, ("node2",), None, False, False),
    ("srun: error: node2: task 3: Exited with exit code 16", "srun_task_exit", "GPU", True, ("node2",), True, True, False),
    ("srun: error: node2: task 3: Exited with exit code 17", "srun_task_exit", "APPLICATION", True, ("node2",), False, False, False),
    ("srun: error: Node failure on ip-10-1-57-141", "srun_node_failure", "NODE", True, ("ip-10-1-57-141",), True, True, False),
    # a host that is not one of the job's nodes is not reported as one
    ("srun: error: other9: task 3: Exited with exit code 1", "srun_task_exit", "APPLICATION", True, (), None, False, False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "name", "category", "immediate", "nodes", "requeue", "exclude", "victim"), CRASHES
)
def test_crash_signals(
    line: str,
    name: str,
    category: str,
    immediate: bool,
    nodes: tuple[str, ...],
    requeue: bool | None,
    exclude: bool,
    victim: bool,
) -> None:
    assert may_matter(line), "the prefilter must let every signature line through"
    signal = detect_crash(line, NODES)
    assert signal is not None
    got = (signal.name, signal.category, signal.immediate, signal.nodes)
    assert got == (name, category, immediate, nodes)
    assert (signal.requeue, signal.exclude, signal.victim) == (requeue, exclude, victim)
    assert signal.line == line


def test_rank_and_first_task_are_reported() -> None:
    signal = detect_crash("  12: [rank97]: RuntimeError: CUDA error: unspecified launch failure")
    assert signal is not None and signal.rank == 97
    task = detect_crash("srun: error: node2: tasks 24-31: Exited with exit code 1", NODES)
    assert task is not None and task.rank == 24


HEALTHY = [
    "[2024-07-30 14:21:44] iteration 30/81380208 | consumed samples: 720 | elapsed time per "
    "iteration (ms): 2986.9 | throughput per GPU (TFLOP/s/GPU): 386.7",
    "0: [W init.cpp:767] Warning: nvfuser is no longer supported in torch script",
    "/usr/lib/python3/site-packages/torch/utils/data.py:123: UserWarning: deprecated",
    "node2:1234:1234 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.2<0>",
    "node2:1234:1234 [0] NCCL INFO Channel 00/32 :    0   1   2   3",
    "node2:1234:1234 [0] NCCL WARN NET/Plugin: Could not find: libnccl-net.so",
    "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping",
    "NVRM: Xid (PCI:0000:10:1c): 92, High single-bit ECC error rate",
    "[Rank 0] (after 10 iterations) memory (MB) | allocated: 1234.5 | max allocated: 2345.6",
    "torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 453152 closing "
    "signal SIGTERM",
    "INFO: error_file is /tmp/x.json",  # "error" as a word alone is no failure
    "Epoch 3: 100%|##########| 10/10 [00:01<00:00, loss=0.123]",
    "[default0]: using world size: 8, data-parallel size: 8",
    "Setting the default log level",
    # Signal names outside a death report (the probe's false crash): evidence only in its grammar.
    "Installing signal handlers for SIGTERM, SIGINT and SIGABRT",
    "0: [rank0]: registered SIGSEGV handler for stack traces",
    "",
]


@pytest.mark.parametrize("line", HEALTHY)
def test_healthy_lines_are_no_crash(line: str) -> None:
    assert detect_crash(line, NODES) is None


def test_prefilter_rejects_typical_healthy_lines() -> None:
    assert not may_matter("0: [W init.cpp:767] Warning: nvfuser is no longer supported")
    assert not may_matter("[default0]: using world size: 8, data-parallel size: 8")
    assert not may_matter("  1:     forward-backward ...............: (2951.12, 2952.91)")


def test_node_names_match_whole_names_and_fqdn_labels() -> None:
    names = NodeNames(["node1", "node12", "gpu-a17"])
    assert names.find("lost node12 and node1.cluster.local, not node123") == ("node12", "node1")
    assert names.find("gpu-a17: task 3") == ("gpu-a17",)
    assert names.find("gpu-a170") == ()
    assert NodeNames([]).find("node1") == ()


def feed_all(tb: Traceback, lines: list[str]) -> list[tuple[str, str, bool | None]]:
    out = []
    for line in lines:
        signal = tb.feed(line, NODES)
        if signal is not None:
            out.append((signal.name, signal.detail, signal.requeue))
    return out


def test_traceback_reports_the_final_exception_per_rank() -> None:
    lines = [
        "0: Traceback (most recent call last):",
        "1: Traceback (most recent call last):",
        '0:   File "/train.py", line 10, in <module>',
        '1:   File "/train.py", line 12, in <module>',
        "0:     import megatron_core_typo",
        "0: ModuleNotFoundError: No module named 'megatron_core_typo'",
        "1:     raise ValueError('bad sample')",
        "1: ValueError: bad sample",
    ]
    assert feed_all(Traceback(), lines) == [
        ("python_exception", "ModuleNotFoundError", False),  # deterministic: requeue can't help
        ("python_exception", "ValueError", None),
    ]


def test_traceback_classifies_by_the_message() -> None:
    lines = [
        "[rank4]: Traceback (most recent call last):",
        '[rank4]:   File "/x/torch/cuda/__init__.py", line 300, in synchronize',
        "[rank4]: RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    assert feed_all(Traceback(), lines) == [("cuda_illegal_address", "RuntimeError", None)]


def test_chained_traceback_and_interrupts() -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "a.py", line 1, in f',
        "KeyError: 'x'",
    ]
    assert feed_all(Traceback(), lines) == [("python_exception", "KeyError", None)]
    chained = [
        "Traceback (most recent call last):",
        '  File "a.py", line 1, in f',
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "a.py", line 3, in g',
        "torch.distributed.DistNetworkError: Connection reset by peer",
    ]
    assert feed_all(Traceback(), chained) == [
        ("python_exception", "torch.distributed.DistNetworkError", True)
    ]
    interrupted = ["Traceback (most recent call last):", '  File "a.py"', "KeyboardInterrupt"]
    assert feed_all(Traceback(), interrupted) == []


def test_traceback_state_is_bounded() -> None:
    tb = Traceback(max_lines=3)
    assert feed_all(tb, ["Traceback (most recent call last):"] + ["  frame"] * 5) == []
    assert feed_all(tb, ["RuntimeError: too late"]) == []  # the traceback was given up


@pytest.mark.parametrize(
    ("line", "iteration", "tflops", "loss", "elapsed", "nans"),
    [
        (
            "[2024-07-30 14:21:44] iteration 30/81380208 | consumed samples: 720 | elapsed time "
            "per iteration (ms): 2986.9 | throughput per GPU (TFLOP/s/GPU): 386.7 | lm loss: "
            "2.345E+00 | number of skipped iterations:   0 | number of nan iterations:   0 |",
            30, 386.7, 2.345, 2986.9, 0,
        ),
        (
            "1: iteration        1/  508626 | consumed samples:          288 | elapsed time per "
            "iteration (ms): 440352.6 | learning rate: 0.000E+00 | number of skipped "
            "iterations:   1 | number of nan iterations:   0 |",
            1, None, None, 440352.6, 0,
        ),
        ("iteration 7/100 | lm loss: nan |", 7, None, math.nan, None, None),
        ("Training epoch 0, iteration 10/99 | reduced_train_loss: 2.31 | global_step: 10", 10,
         None, 2.31, None, None),
        ("event=TRAINING_ITERATIONS current_iteration=42 loss=inf tflops=100", 42, None,
         math.inf, None, None),
        ("throughput per GPU (TFLOP/s/GPU): 401.2", None, 401.2, None, None, None),
    ],
)  # fmt: skip
def test_parse_progress(
    line: str,
    iteration: int | None,
    tflops: float | None,
    loss: float | None,
    elapsed: float | None,
    nans: int | None,
) -> None:
    p = parse_progress(line)
    assert p is not None
    assert (p.iteration, p.tflops, p.elapsed_ms, p.nan_iterations) == (
        iteration,
        tflops,
        elapsed,
        nans,
    )
    if loss is None:
        assert p.loss is None
    elif math.isnan(loss):
        assert p.loss is not None and math.isnan(p.loss)
    else:
        assert p.loss == loss


@pytest.mark.parametrize(
    "line",
    [
        "0: saving checkpoint at iteration       1 to /fsx/checkpoints",
        "[Rank 0] (after 10 iterations) memory (MB) | allocated: 1.0",
        "number of skipped iterations:   1",
        "nothing here",
    ],
)
def test_not_progress(line: str) -> None:
    assert parse_progress(line) is None


@pytest.mark.parametrize(
    ("line", "saved", "iteration"),
    [
        ("0:   successfully saved checkpoint at iteration       1 to /fsx/checkpoints", True, 1),
        ("successfully saved checkpoint from iteration     100 to /ckpt [ t 1/1, p 1/1 ]", True,
         100),
        ("0: saving checkpoint at iteration       1 to /fsx/checkpoints", False, 1),
        ("1:     save-checkpoint ................................: (81611.24, 81611.82)", True,
         None),
        ("SAVE_CHECKPOINT: iteration: 500, ckpt saving takes 12.5 seconds", True, 500),
        ("Saved checkpoint to /ckpt/step_200", True, None),
    ],
)  # fmt: skip
def test_checkpoint_patterns(line: str, saved: bool, iteration: int | None) -> None:
    assert may_matter(line)
    event = CheckpointMatcher(DEFAULT_CHECKPOINT_PATTERNS).match(line)
    assert event is not None
    assert (event.saved, event.iteration) == (saved, iteration)


def test_site_checkpoint_patterns() -> None:
    matcher = CheckpointMatcher([r"ckpt done step=(?P<iteration>\d+)", r"wrote model \S+"])
    assert matcher.has_site_patterns
    named = matcher.match("ckpt done step=77")
    assert named is not None and (named.saved, named.iteration) == (True, 77)
    plain = matcher.match("wrote model /x/y at iteration 12")
    assert plain is not None and plain.iteration == 12
    assert matcher.match("iteration 13/100 | lm loss: 2.0") is None
    assert not CheckpointMatcher(DEFAULT_CHECKPOINT_PATTERNS).has_site_patterns


def test_straggler_lines() -> None:
    row = parse_straggler("  Rank=76 Node=h100-001-253-012 Score=0.94")
    assert row is not None and row.rank_node == (76, "h100-001-253-012", 0.94)
    warning = parse_straggler(
        "STRAGGLER DETECTION WARNING: Some GPUs have worse relative performance. "
        "Affected ranks: [76, 13, 45]"
    )
    assert warning is not None and warning.ranks == (76, 13, 45)
    assert parse_straggler("Rank 3 is fine") is None
