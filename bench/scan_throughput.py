"""Log scan throughput: LogScanner alone, and LogScanner + LogEngine, on a generated Megatron log.

The log (`--mb` MB, default 1024) imitates a 1,024-rank Megatron-LM job started with `srun -l`:
every line carries a space-padded task label ("  17: ") and a timestamp. Per training iteration
it holds `--noise` per-rank INFO lines from random ranks (data loader, step timing, dataloader
prefetch, memory-pool stats), one iteration report from the last rank with
`throughput per GPU (TFLOP/s/GPU)`; every 10 iterations rank 0's timer block; now and then a
UserWarning; every 500 iterations a checkpoint save (start, success, timer row). Startup adds
a few NCCL INFO lines per rank. The content is seeded: runs are reproducible.

Each measurement runs in its own child process pinned to one CPU, so its peak RSS
(`resource.getrusage(RUSAGE_SELF).ru_maxrss`) is its own. MB/s is file size / CPU time
(`time.process_time`) and file size / wall time; the file is read once first so that it sits in
the page cache and both modes read it from memory. Modes:

  scanner        LogScanner.read_lines until EOF (what the watcher calls)
  scanner-blocks LogScanner.read_blocks until EOF
  engine-lines   LogScanner.read_lines, then LogEngine.feed per line (the watcher's loop today)
  engine-blocks  LogScanner.read_blocks, then LogEngine.feed_block per block (the fast path)
  check-log      `ajr check-log` on the file: each line's own timestamp, the format counts
                 (the import of its module, the command's fixed start-up, is timed apart)

Run:  PYTHONPATH=. /tmp/probe-venv/bin/python bench/scan_throughput.py [--mb 1024]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

RANKS = 1024
_NOISE = (
    "[INFO] [data_loader.py:212] rank {r}: fetched batch {i} from shard {s} in {ms:.1f} ms",
    "[INFO] [training.py:1044] rank {r}: step {i} micro-batch {s} forward done ({ms:.2f} ms)",
    "[INFO] [distributed.py:388] rank {r}: all-reduce bucket {s} of 24 ready after {ms:.2f} ms",
    "[INFO] [prefetch.py:77] rank {r}: prefetched {s} samples, queue depth {q}",
    "[INFO] [allocator.py:59] rank {r}: caching allocator segments {q}, fragmentation {f:.3f}",
    "[DEBUG] [optimizer.py:301] rank {r}: grad scale 65536.0, clip coeff {f:.4f}, step {i}",
)
_WARNINGS = (
    "[WARNING] /usr/lib/python3/dist-packages/torch/utils/checkpoint.py:91: UserWarning: None of "
    "the inputs have requires_grad=True. Gradients will be None",
    "[WARNING] [data_loader.py:340] rank {r}: slow shard read {ms:.0f} ms from /lustre/data",
)
_TIMERS = (
    "(min, max) time across ranks (ms):",
    "    forward-backward ...............................: ({a:.2f}, {b:.2f})",
    "    forward-compute ................................: ({a:.2f}, {b:.2f})",
    "    backward-compute ...............................: ({a:.2f}, {b:.2f})",
    "    optimizer ......................................: ({a:.2f}, {b:.2f})",
    "    batch-generator ................................: ({a:.2f}, {b:.2f})",
)


def _stamp(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t))


def _label(rank: int) -> str:
    return f"{rank:5d}: "  # srun -l pads labels to the width of the largest task id


def generate(path: str, size: int, noise: int = 200, seed: int = 7) -> dict[str, int]:
    """Write a Megatron-style log of about `size` bytes to `path`; return line counts by kind."""
    rng = random.Random(seed)
    counts = {"lines": 0, "iterations": 0, "checkpoints": 0, "warnings": 0}
    t = 1_722_349_304.0  # 2024-07-30 14:21:44 UTC
    written = 0
    parts: list[str] = []
    with open(path, "w", encoding="utf-8") as fh:
        for rank in range(RANKS):
            host = f"node{rank // 8:04d}"
            for what in (
                "NCCL INFO Bootstrap : Using ib0:10.1.{0}.{1}<0>",
                "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.{0}.{1}<0>",
                "NCCL INFO Using network IB",
                "NCCL INFO comm 0x5581 rank {2} nranks 1024 cudaDev {3} - Init COMPLETE",
            ):
                text = what.format(rank // 256, rank % 256, rank, rank % 8)
                parts.append(f"{_label(rank)}{host}:4242:4242 [{rank % 8}] {text}\n")
        iteration = 0
        while written < size:
            iteration += 1
            t += 3.0
            stamp = _stamp(t)
            for _ in range(noise):
                r = rng.randrange(RANKS)
                text = rng.choice(_NOISE).format(
                    r=r,
                    i=iteration,
                    s=rng.randrange(4096),
                    q=rng.randrange(64),
                    ms=rng.random() * 50,
                    f=rng.random(),
                )
                parts.append(f"{_label(r)}[{stamp}] {text}\n")
            if rng.random() < 0.05:
                r = rng.randrange(RANKS)
                text = rng.choice(_WARNINGS).format(r=r, ms=rng.random() * 9000)
                parts.append(f"{_label(r)}[{stamp}] {text}\n")
                counts["warnings"] += 1
            parts.append(
                f"{_label(RANKS - 1)}[{stamp}] iteration {iteration:8d}/  508626 | consumed "
                f"samples: {iteration * 1024:12d} | elapsed time per iteration (ms): "
                f"{2990 + rng.random() * 20:.1f} | throughput per GPU (TFLOP/s/GPU): "
                f"{380 + rng.random() * 10:.1f} | learning rate: 1.500E-04 | global batch size: "
                f" 1024 | lm loss: {2 + rng.random():.6E} | loss scale: 1.0 | grad norm: "
                f"{rng.random():.3f} | number of skipped iterations:   0 | number of nan "
                f"iterations:   0 |\n"
            )
            counts["iterations"] += 1
            if iteration % 10 == 0:
                for row in _TIMERS:
                    a = rng.random() * 3000
                    parts.append(f"{_label(0)}{row.format(a=a, b=a + 1.5)}\n")
            if iteration % 500 == 0:
                parts.append(
                    f"{_label(0)}[{stamp}] saving checkpoint at iteration {iteration:7d} to "
                    "/lustre/ckpt/gpt3-175b\n"
                    f"{_label(0)}[{stamp}]   successfully saved checkpoint at iteration "
                    f"{iteration:7d} to /lustre/ckpt/gpt3-175b\n"
                    f"{_label(0)}    save-checkpoint ................................: "
                    "(81611.24, 81611.82)\n"
                )
                counts["checkpoints"] += 1
            block = "".join(parts)
            parts.clear()
            fh.write(block)
            written += len(block)
            counts["lines"] += block.count("\n")
    return counts


def _measure(mode: str, path: str) -> dict[str, float]:
    """Scan `path` in this process; return CPU and wall seconds, peak RSS and what was found."""
    from activities.logs.scanner import LogScanner
    from analysis.analyzer import AnalyzerContext
    from analysis.engine import LogEngine

    engine = LogEngine(AnalyzerContext())  # the default settings: what the watcher runs
    findings = lines = 0
    if mode == "check-log":
        # Its module's import (the patterns compiled, the policy's models) is the command's
        # start-up, the same for any size of log: timed apart, not as scan throughput.
        start0 = time.process_time()
        from activities.logs.checklog import check_log

        startup = time.process_time() - start0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        report = check_log(path)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        return {
            "startup_s": startup,
            "cpu_s": cpu,
            "wall_s": wall,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "lines": report.lines,
            "findings": len(report.findings),
            "checkpoints": len(report.checkpoint_saves),
            "iteration": len(report.tflops),
        }
    cpu0, wall0 = time.process_time(), time.perf_counter()
    with LogScanner(path) as scanner:
        if mode in ("engine-blocks", "scanner-blocks"):
            while blocks := scanner.read_blocks():
                for block in blocks:
                    lines += block.count("\n") + 1
                    if mode == "engine-blocks":
                        findings += len(engine.feed_block(block, 0.0))
        else:
            while batch := scanner.read_lines():
                lines += len(batch)
                if mode == "engine-lines":
                    for line in batch:
                        findings += engine.feed(line, 0.0) is not None
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {
        "cpu_s": cpu,
        "wall_s": wall,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "lines": lines,
        "findings": findings,
        "checkpoints": engine.checkpoints,
        "iteration": engine.iteration or 0,
    }


def _child(mode: str, path: str, cpu: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--cpu", str(cpu), path],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mb", type=int, default=1024, help="log size in MB (2^20 bytes)")
    parser.add_argument("--noise", type=int, default=200, help="INFO lines per iteration")
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to pin measurements to")
    parser.add_argument(
        "--modes",
        default="scanner,scanner-blocks,engine-lines,engine-blocks,check-log",
        help="comma-separated",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        os.sched_setaffinity(0, {args.cpu})
        print(json.dumps(_measure(args.child, args.path)))
        return 0

    with tempfile.TemporaryDirectory(prefix="ajr-scan-bench-") as tmp:
        path = os.path.join(tmp, "megatron_1024ranks_4242_date_24-07-30_time_14-21-44.log")
        t0 = time.perf_counter()
        counts = generate(path, args.mb << 20, noise=args.noise)
        size = os.path.getsize(path)
        print(
            f"generated {size / 2**20:.0f} MB ({size} bytes), {counts['lines']} lines "
            f"(avg {size / counts['lines']:.0f} B), {counts['iterations']} iteration lines, "
            f"{counts['checkpoints']} checkpoint saves, {counts['warnings']} warnings, "
            f"{RANKS} ranks, in {time.perf_counter() - t0:.1f}s"
        )
        with open(path, "rb", buffering=0) as fh:  # into the page cache: measure CPU, not disk
            while fh.read(16 << 20):
                pass
        mb = size / 2**20
        for mode in args.modes.split(","):
            r = _child(mode, path, args.cpu)
            print(
                f"{mode:14s} {mb / r['cpu_s']:7.1f} MB/s CPU ({r['cpu_s']:.2f}s)  "
                f"{mb / r['wall_s']:7.1f} MB/s wall ({r['wall_s']:.2f}s)  "
                f"peak RSS {r['peak_rss_mb']:.1f} MB  lines {r['lines']:.0f}"
                + (
                    f"  findings {r['findings']:.0f} checkpoints {r['checkpoints']:.0f} "
                    f"last iteration {r['iteration']:.0f}"
                    if mode.startswith("engine")
                    else f"  findings {r['findings']:.0f} saves {r['checkpoints']:.0f} "
                    f"TFLOP reports {r['iteration']:.0f}  (start-up {r['startup_s']:.2f}s CPU,"
                    " apart)"
                    if mode == "check-log"
                    else ""
                )
            )
    return 0  # the temporary directory and the log in it are gone


if __name__ == "__main__":
    sys.exit(main())
