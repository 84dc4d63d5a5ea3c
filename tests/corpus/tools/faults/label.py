"""Write generated_incoming/labels.json for the faultjob logs, after run_campaign.sh.

    python tests/corpus/tools/faults/label.py   # FAULTS_META: commands.tsv/jobs.tsv dir

The labels are judgements per tests/corpus/LABELLING.md, one rule per scenario (RULES below),
checked against each log by reading it; computed per log: completed checkpoint saves, the job's
nodes, the faulty rank's node (srun block layout), and for hangs the silence before the end.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

Rule = Callable[[str, str], dict[str, object]]

REPO = Path(__file__).resolve().parents[4]
INC = REPO / "tests/corpus/generated_incoming"
META = Path(os.environ.get("FAULTS_META", Path(__file__).parent / "campaign_meta"))
TORCH = "2.13.0+cpu"
GPU_TORCH = "2.11.0+cu130 on one NVIDIA H100 80GB (driver 580.159.04)"

commands: dict[str, str] = {}
for line in (META / "commands.tsv").read_text().splitlines():
    name, cmd = line.split("\t", 1)
    commands[name] = cmd
jobs: dict[str, dict[str, str]] = {}
for line in (META / "jobs.tsv").read_text().splitlines():
    parts = line.split("\t")
    if len(parts) > 1 and "=" in parts[1]:
        jobs[parts[0]] = dict(p.split("=", 1) for p in parts[1:] if "=" in p)

GPU_MODEL = (
    "--num-layers 4 --hidden-size 512 --num-attention-heads 8 --seq-length 256 "
    "--vocab-size 8192 --micro-batch-size 16 --num-workers 1"
)
GPU_CMDS = {
    "healthy_gpu_torchrun_1": "--backend gloo --train-iters 80 --save /tmp/ck1 --save-interval 20",
    "straggler_gpu_torchrun_1": "--backend gloo --train-iters 80 --fault straggler "
    "--at-iteration 40 --fault-rank 1 --straggler-delay 0.4",
    "collective_hang_gpu_torchrun_1": "--backend gloo --train-iters 200 --pg-timeout 60 "
    "--fault collective_hang --at-iteration 30 --fault-rank 1",
    "nan_gpu_torchrun_1": "--backend gloo --train-iters 80 --detect-anomaly --fault nan "
    "--at-iteration 25 --fault-rank 0",
    "nccl_two_ranks_one_gpu_torchrun_1": "--backend nccl --train-iters 40",
    "healthy_nccl_gpu_torchrun_1": "--backend nccl --train-iters 60 --log-style core_v0.12",
}

ITER_TS = re.compile(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.\d+)?\] iteration")
CANCEL_TS = re.compile(r"CANCELLED AT (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)")
GLOG_TS = re.compile(r"^[WEI](\d\d)(\d\d) (\d\d:\d\d:\d\d)")
WAITED = re.compile(r"Timed out waiting (\d+)ms")


def silence(text: str, year: int = 2026) -> float | None:
    """Seconds between the last iteration line and the next timestamped line (from the log)."""
    last: datetime | None = None
    after: datetime | None = None
    for line in text.splitlines():
        m = ITER_TS.search(line)
        if m:
            last, after = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S"), None
            continue
        if last is None or after is not None:
            continue
        c = CANCEL_TS.search(line)
        g = GLOG_TS.search(line.split(": ", 1)[-1]) or GLOG_TS.search(line)
        if c:
            after = datetime.strptime(c.group(1), "%Y-%m-%dT%H:%M:%S")
        elif g:
            after = datetime.strptime(
                f"{year}{g.group(1)}{g.group(2)} {g.group(3)}", "%Y%m%d %H:%M:%S"
            )
    if last is not None and after is not None:
        return float(round((after - last).total_seconds()))
    m2 = WAITED.search(text)
    return float(int(m2.group(1)) // 1000) if m2 else None


def rank_node(name: str, rank: int) -> str | None:
    job = jobs.get(name)
    if not job or "nodes" not in job:
        return None
    nodes = job["nodes"].split(",")
    per = 2 if "--ntasks-per-node=2" in commands.get(name, "") else 1
    return nodes[rank // per]


def source(name: str) -> str:
    if name in GPU_CMDS:
        return (
            f"GENERATED: bench/faultjob torch {GPU_TORCH}, gloo (nccl where named), torchrun: "
            f"torchrun --nproc-per-node {1 if name.startswith('healthy_nccl') else 2} "
            f"-m bench.faultjob.train {GPU_MODEL} {GPU_CMDS[name]} (tests/corpus/tools/faults/"
            "gpu_cases.sh; torchrun's stdout+stderr, unedited)"
        )
    launcher = (
        "srun (sbatch on the ajr dev stack's 4-node Slurm 22.05.8 cluster; the srun -l attempt log)"
    )
    if "torchrun" in name:
        launcher = "torchrun (its stdout+stderr)"
    cmd = commands.get(name) or commands.get(name.rsplit("_", 1)[0], "")
    if name.startswith("storage_enospc"):
        cmd += " (checkpoint directory on a 6 MiB tmpfs: mount -t tmpfs -o size=6m"
        cmd += "; FAULTJOB_SAVE for the sbatch job)"
    if name.startswith("storage_eio"):
        cmd += " (checkpoint directory on ext4 in a 32 MiB image on a loop device, shut down with"
        cmd += " FS_IOC_SHUTDOWN by --eio-mount; FAULTJOB_SAVE for the sbatch job)"
    if name.startswith("silent_hang_torchrun"):
        cmd += "; torchrun sent SIGTERM by the harness after 120 s of silence"
    return f"GENERATED: bench/faultjob torch {TORCH} gloo, {launcher}, {cmd}; unedited"


def label(name: str, text: str) -> dict[str, object]:
    saves = len(re.findall(r"successfully saved checkpoint", text))
    entry: dict[str, object] = {"source": source(name)}
    job = jobs.get(name)
    job_nodes = job["nodes"].split(",") if job and job.get("nodes") else None
    return {**entry, **RULES[rule_key(name)](name, text), "checkpoints": saves} | (
        {"job_nodes": job_nodes} if job_nodes else {}
    )


def rule_key(name: str) -> str:
    for key in sorted(RULES, key=len, reverse=True):
        if name.startswith(key):
            return key
    raise KeyError(name)


def none(why: str) -> Rule:
    return lambda n, t: {
        "anomaly": "NONE",
        "category": None,
        "requeue": None,
        "culprit_nodes": [],
        "why": why,
    }


def hang(why: str, with_silence: bool = True) -> Rule:
    def f(n: str, t: str) -> dict[str, object]:
        out: dict[str, object] = {
            "anomaly": "HANG",
            "category": None,
            "requeue": True,
            "culprit_nodes": [],
        }
        s = silence(t) if with_silence else None
        if s is not None:
            out["silence_s"] = s
        out["why"] = why
        return out

    return f


def crash(category: str, requeue: bool, why: str, culprit_rank: int | None = None) -> Rule:
    def f(n: str, t: str) -> dict[str, object]:
        node = rank_node(n, culprit_rank) if culprit_rank is not None else None
        return {
            "anomaly": "CRASH",
            "category": category,
            "requeue": requeue,
            "culprit_nodes": [node] if node else [],
            "why": why,
        }

    return f


def straggler(why: str) -> Rule:
    return lambda n, t: {
        "anomaly": "STRAGGLER",
        "category": None,
        "requeue": True,
        "culprit_nodes": [],
        "why": why,
    }


RULES = {
    "healthy_gpu": none(
        "Training to the last iteration, checkpoints saved, TFLOP/s steady after warm-up; no error "
        "line."
    ),
    "healthy_nccl": none(
        "One-rank NCCL run completes all iterations; steady TFLOP/s; no error line."
    ),
    "healthy": none(
        "Iteration lines to the last iteration and checkpoint saves; warnings are only NumPy/OMP "
        "noise."
    ),
    "resume_srun_2": none(
        "Requeued attempt: 'loading checkpoint ... at iteration 20' / 'successfully loaded "
        "checkpoint', "
        "then training resumes at iteration 21 and finishes."
    ),
    "resume_srun_1": crash(
        "UNKNOWN",
        True,
        "Rank 1 vanishes without a message (SIGKILL leaves none in the attempt log); rank 0 dies "
        "of "
        "'Connection closed by peer' as a victim and slurmstepd cancels the step: the cause is not "
        "shown.",
    ),
    "segfault": crash(
        "APPLICATION",
        False,
        "'Fatal Python error: Segmentation fault' with the faulting stack in ctypes.string_at "
        "called from "
        "the training code; the other ranks are victims (connection closed / SIGTERM).",
    ),
    "sigkill_srun": crash(
        "UNKNOWN",
        True,
        "A rank disappears without any message; the others fail with gloo 'Connection closed by "
        "peer' and "
        "slurmstepd cancels the step: the log does not show why the rank died.",
    ),
    "sigkill_torchrun": crash(
        "UNKNOWN",
        True,
        "torchrun's root cause: 'exitcode  : -9 ... Signal 9 (SIGKILL) received by PID' for rank 1 "
        "and no "
        "other message: who killed it (OOM killer, admin, node agent) is not shown.",
    ),
    "collective_hang_gpu": hang(
        "Iterations stop; 60 s later rank 0's DDP all-reduce fails with gloo 'Timed out waiting "
        "60000ms for "
        "recv operation to complete': a collective never completed, a hang by policy; the stalled "
        "rank "
        "(1) printed nothing."
    ),
    "collective_hang": hang(
        "Iteration lines stop; after the process-group timeout the waiting ranks fail with gloo "
        "'Timed out "
        "waiting Nms for recv operation to complete': a collective never completed, a hang by "
        "policy; the "
        "stalled rank printed nothing, so the log does not say which."
    ),
    "straggler_then_hang": hang(
        "Elapsed time per iteration jumps about 2.5-3x (~0.4-0.5 s to ~1.4 s: a straggler), then "
        "iterations "
        "stop and a waiting rank fails with gloo 'Timed out waiting Nms for recv operation': the "
        "job hung."
    ),
    "straggler_gpu": straggler(
        "Throughput per GPU drops from ~7 TFLOP/s to ~1 TFLOP/s and elapsed time per iteration "
        "rises from "
        "~60 ms to ~450 ms at iteration 40 and stays there until the end: a persistent slowdown."
    ),
    "straggler": straggler(
        "Elapsed time per iteration rises about 3.5x (~0.5 s to ~1.6-2.0 s) at iteration 20 and "
        "stays there "
        "to the end (TFLOP/s reads 0.0 on CPU throughout): a persistent slowdown, no error; the "
        "log does "
        "not say which rank is slow."
    ),
    "silent_hang": hang(
        "Iteration lines stop mid-training and nothing more is printed (no watchdog: 1-day "
        "process-group "
        "timeout) until the job is cancelled/terminated from outside: a hang by silence."
    ),
    "nan_gpu": crash(
        "APPLICATION",
        False,
        "'RuntimeError: Function ... returned nan values in its 0th output' from autograd anomaly "
        "mode: NaN "
        "in the training computation.",
    ),
    "nan_srun_1": crash(
        "APPLICATION",
        False,
        "Autograd anomaly mode: 'Error detected in ...Backward0' and 'RuntimeError: Function ... "
        "returned "
        "nan values in its 0th output' on rank 1; the other rank is a victim.",
    ),
    "nan_torchrun_1": crash(
        "APPLICATION",
        False,
        "Autograd anomaly mode: 'RuntimeError: Function ... returned nan values in its 0th output' "
        "on "
        "rank 1; the other rank is a victim.",
    ),
    "nan": crash(
        "APPLICATION",
        False,
        "Megatron's NaN check: 'RuntimeError: Rank R, node N, device D, iteration I: Unexpected "
        "result "
        "tensor(nan, ...) (message='found NaN in local forward loss calculation')'; the others are "
        "victims.",
    ),
    "oom_srun_1": crash(
        "NODE",
        True,
        "The kernel's 'Memory cgroup out of memory: Killed process ...' (and oom-kill) lines on "
        "rank 1, then "
        "the other rank fails with 'Connection closed by peer': host OOM killer.",
        culprit_rank=1,
    ),
    "oom_srun_2": crash(
        "UNKNOWN",
        True,
        "Rank 2 is killed without a message (OOM report disabled); the others fail with "
        "'Connection closed "
        "by peer': the log does not show the cause.",
    ),
    "oom_torchrun": crash(
        "NODE",
        True,
        "'Memory cgroup out of memory: Killed process <pid>' from the kernel and torchrun's "
        "'exitcode : -9 "
        "(SIGKILL)' for the same PID: host OOM killer.",
    ),
    "dataloader_killed": crash(
        "UNKNOWN",
        True,
        "'RuntimeError: DataLoader worker (pid X) is killed by signal: Killed.': a worker was "
        "SIGKILLed, "
        "by whom (OOM killer, admin) the log does not show.",
    ),
    "exit16_srun": crash(
        "UNKNOWN",
        True,
        "Megatron's rerun state machine: NaN on rank 1 (node2) reproducible in place, 'Need to "
        "rerun on a "
        "different GPU', 'Saving a checkpoint and exiting now', exit 16: resume elsewhere to "
        "establish "
        "whether node2's GPU is at fault.",
        culprit_rank=1,
    ),
    "exit16": crash(
        "UNKNOWN",
        True,
        "Megatron's rerun state machine: NaN reproducible in place, 'Need to rerun on a different "
        "GPU', "
        "checkpoint saved, ranks exit 16: resume on other hardware to establish a diagnostic.",
    ),
    "exit17": crash(
        "UNKNOWN",
        True,
        "Megatron's rerun state machine: NaN not reproducible on re-run ('Possible transient "
        "error!'), "
        "'Exiting now. The job can be resumed from a previous checkpoint', exit 17.",
    ),
    "exit93": crash(
        "APPLICATION",
        False,
        "NVRx ft_launcher: 'Progress tracker detected no progress across restarts. No more "
        "restarts will be "
        "attempted' and 'NVRx decided the job must not be restarted (no_progress) ... exit code = "
        "93'.",
    ),
    "storage_enospc": crash(
        "STORAGE",
        True,
        "Checkpoint save fails with 'OSError: [Errno 28] No space left on device' (after earlier "
        "saves "
        "succeeded); the other ranks are victims.",
    ),
    "storage_eio": crash(
        "STORAGE",
        True,
        "Checkpoint save fails with 'OSError: [Errno 5] Input/output error' on the checkpoint "
        "filesystem; "
        "the other ranks are victims.",
    ),
    "node_fail": crash(
        "NODE",
        True,
        "slurmstepd: '*** STEP ... CANCELLED AT ... DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR "
        "DETAILS ***' "
        "mid-training (node2's slurmd was killed); the attempt log does not name the failed node "
        "(srun's "
        "'Node failure on node2' went to the batch output), so no culprit from the log.",
    ),
    "nccl_two_ranks": crash(
        "APPLICATION",
        False,
        "'NCCL error ... invalid usage', 'Duplicate GPU detected : rank 0 and rank 1 both on CUDA "
        "device': "
        "a launch configuration error, fails the same way on any node.",
    ),
}


def main() -> None:
    labels = {}
    for path in sorted(INC.glob("*.log")):
        labels[path.name] = label(path.stem, path.read_text(errors="replace"))
    (INC / "labels.json").write_text(json.dumps(labels, indent=1, ensure_ascii=False) + "\n")
    for name, lab in labels.items():
        print(
            name,
            lab["anomaly"],
            lab["category"],
            lab.get("culprit_nodes"),
            lab.get("silence_s"),
            lab["checkpoints"],
        )


if __name__ == "__main__":
    main()
