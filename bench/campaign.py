"""Campaign: one schedule of real faults in bench/faultjob, under ajr, Slurm's native requeue and
no automation (manual response, modelled).

Each fault of the schedule is one faultjob run (GPT, torch.distributed gloo, `srun` over 2 nodes
x 1 task, checkpoints every `--save-interval` iterations, `--train-iters` iterations,
`--iter-delay` s of simulated compute per iteration) whose fault fires at `--at-iteration` on
the first attempt only (`--fault-on-attempt 0`): the schedule is

  segfault          rank 1 SIGSEGV                       right action: requeue
  collective_hang   rank 1 stops; gloo timeout after 30s  right action: requeue
  silent_hang       rank 1 stops; no timeout, silence     right action: requeue (after hang_timeout)
  exit17            Megatron: result validation failed    right action: stop, no requeue
  exit93            NVRx: do not restart                  right action: stop, no requeue
  none              healthy control                       right action: none

Policies, each on its own fresh stack (4... `--nodes` slurmd, every job of the schedule at once):

  ajr      the ajr worker (hang timeout `--hang-timeout`), the jobs' APS comment enrols them.
  native   no ajr; `sbatch --requeue` and `RequeueExit=1-255` in slurm.conf (Slurm requeues any
           job that exits non-zero; it reads no log, so a silent hang waits for the time limit).
  manual   not run: modelled from the ajr run's first attempts. An operator notices a failed or
           hung job `--manual-response-s` after it failed or went silent (assumption, default
           1800 s: an on-call response during the day), resubmits it (startup as measured) and
           it resumes from its latest checkpoint; exit 93 is read and not restarted.

Measured per job from the attempts' own Megatron lines (their timestamps): the last iteration
before the fault, the checkpoint the next attempt loaded, the next attempt's first iteration.
Reported per policy: ETTR (iterations kept x the median step time / wall time from the first
iteration to the last, or to the campaign's end when the job did not finish), training time
efficiency (iterations kept / iterations computed), lost iterations, fault -> next productive
iteration (s), requeues (Slurm's restart count), wrong actions (a requeue of exit93 or of the
healthy job, a kill of the healthy job) and missed recoveries (a recoverable fault left
unrecovered). Prints one JSON object; `--plot FILE` draws ETTR and fault->progress per policy.

    PYTHONPATH=. .venv/bin/python bench/campaign.py --json
    PYTHONPATH=. .venv/bin/python bench/campaign.py --quick --json   # CI: ajr only, 2 faults,
                                                                     # 30 iterations
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.chaos import Stack, stack_running
from devstack.slurm import program

ROOT = Path(__file__).resolve().parents[1]
SCHEDULE = ("segfault", "collective_hang", "silent_hang", "exit17", "exit93", "none")
QUICK_SCHEDULE = ("segfault", "none")
RECOVERABLE = frozenset({"segfault", "collective_hang", "silent_hang"})
# Megatron's rerun state machine exit 17 (result validation failed) and NVRx's 93: the job must
# not continue (seed 004; ajr's analysis/signals.py). Restarting them is a wrong action.
DO_NOT_RESTART = frozenset({"exit17", "exit93"})
ITERATION = re.compile(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?)\] iteration\s+(\d+)/")
LOADED = re.compile(r"loaded checkpoint from .* at iteration (\d+)")


@dataclass
class Attempt:
    log: str
    first_at: float | None = None
    first_iteration: int | None = None
    last_at: float | None = None
    last_iteration: int | None = None
    loaded: int = 0
    steps: list[float] = field(default_factory=list)


@dataclass
class JobResult:
    fault: str
    job_id: int
    submitted_at: float
    state: str = ""
    restarts: int = 0
    attempts: list[Attempt] = field(default_factory=list)
    finished: bool = False


def read_attempt(path: Path) -> Attempt:
    attempt = Attempt(path.name)
    previous: float | None = None
    for line in path.read_text(errors="replace").splitlines():
        loaded = LOADED.search(line)
        if loaded:
            attempt.loaded = int(loaded.group(1))
        match = ITERATION.search(line)
        if not match:
            continue
        at = datetime.fromisoformat(match.group(1)).timestamp()
        iteration = int(match.group(2))
        if attempt.first_at is None:
            attempt.first_at, attempt.first_iteration = at, iteration
        if previous is not None and at > previous:
            attempt.steps.append(at - previous)
        previous = at
        attempt.last_at, attempt.last_iteration = at, iteration
    return attempt


def submit(stack: Stack, workdir: Path, fault: str, args: argparse.Namespace, native: bool) -> int:
    train = [
        "--train-iters", str(args.train_iters), "--iter-delay", str(args.iter_delay),
        "--fault", fault, "--at-iteration", str(args.at_iteration), "--fault-rank", "1",
        "--fault-on-attempt", "0", "--pg-timeout", "30", "--save-interval", str(args.save_interval),
    ]  # fmt: skip
    sbatch = [
        program("sbatch"), "--parsable", "-J", f"campaign-{fault}", "-p", "gpu", "-N", "2",
        "--ntasks-per-node=1", "-t", f"00:{args.time_limit_min:02d}:00",
    ]  # fmt: skip
    if native:
        sbatch.append("--requeue")  # ajr's jobs keep Slurm's default (requeue allowed)
    env = {**stack.slurm_env, "FAULTJOB_PYTHON": sys.executable, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [*sbatch, str(ROOT / "bench" / "faultjob" / "faultjob.sbatch"), *train],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return int(done.stdout.strip().split(";")[0])


def job_states(stack: Stack) -> dict[int, tuple[str, int]]:
    done = subprocess.run(
        [program("squeue"), "--noheader", "--states=all", "-O", "JobID:20,State:20,RestartCnt:8"],
        env=stack.slurm_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    out: dict[int, tuple[str, int]] = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].isdigit():
            out[int(parts[0])] = (parts[1], int(parts[2]))
    return out


ENDED = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY")


def run_policy(policy: str, faults: tuple[str, ...], args: argparse.Namespace) -> list[JobResult]:
    native = policy == "native"
    extra = "RequeueExit=1-255\n" if native else ""
    overrides = {"AJR_HANG_TIMEOUT": str(args.hang_timeout)}
    with stack_running(
        args.keep,
        prefix=f"ajr-campaign-{policy}-",
        port_shift=200,
        nodes=2 * len(faults),
        cpus_per_node=2,
        extra_conf=extra,
        worker=policy == "ajr",
        worker_overrides=overrides,
    ) as stack:
        workdir = stack.root / "jobs"
        workdir.mkdir()
        workdir.chmod(0o755)
        results = [
            JobResult(fault, submit(stack, workdir, fault, args, native), time.time())
            for fault in faults
        ]
        deadline = time.monotonic() + args.campaign_s
        while time.monotonic() < deadline:
            states = job_states(stack)
            for result in results:
                if result.state in ENDED:
                    continue  # ended for good: slurmctld forgets it after MinJobAge
                state, restarts = states.get(result.job_id, ("GONE", result.restarts))
                result.state, result.restarts = state, restarts
            if all(r.state in ENDED or r.state == "GONE" for r in results):
                break
            time.sleep(2.0)
        for result in results:
            logs = sorted(workdir.glob(f"campaign-{result.fault}_{result.job_id}_date_*.log"))
            result.attempts = [read_attempt(path) for path in logs]
            last = result.attempts[-1] if result.attempts else None
            result.finished = (
                result.state == "COMPLETED"
                and last is not None
                and last.last_iteration == args.train_iters
            )
        stack.cancel([r.job_id for r in results])
    return results


def job_metrics(result: JobResult, args: argparse.Namespace, end_at: float) -> dict[str, Any]:
    attempts = [a for a in result.attempts if a.first_at is not None]
    steps = [s for a in attempts for s in a.steps]
    step = statistics.median(steps) if steps else args.iter_delay
    start = attempts[0].first_at if attempts else result.submitted_at
    assert start is not None
    finished_at = attempts[-1].last_at if result.finished and attempts else end_at
    assert finished_at is not None
    kept = attempts[-1].last_iteration or 0 if attempts else 0
    computed = sum((a.last_iteration or 0) - (a.first_iteration or 1) + 1 for a in attempts)
    lost = sum(
        max(0, (a.last_iteration or 0) - nxt.loaded) for a, nxt in itertools.pairwise(attempts)
    )
    to_progress = [
        nxt.first_at - a.last_at
        for a, nxt in itertools.pairwise(attempts)
        if nxt.first_at is not None and a.last_at is not None
    ]
    wrong = 0
    if (result.fault in DO_NOT_RESTART or result.fault == "none") and result.restarts > 0:
        wrong += 1
    if result.fault == "none" and not result.finished:
        wrong += 1
    missed = int(result.fault in RECOVERABLE and not result.finished)
    return {
        "fault": result.fault,
        "job_id": result.job_id,
        "state": result.state,
        "finished": result.finished,
        "requeues": result.restarts,
        "iterations_kept": kept,
        "iterations_computed": computed,
        "lost_iterations": lost,
        "fault_to_progress_s": [round(t, 1) for t in to_progress],
        "wall_s": round(finished_at - start, 1),
        "ettr": round(kept * step / max(finished_at - start, 1e-9), 3),
        "efficiency": round(kept / computed, 3) if computed else 0.0,
        "wrong_actions": wrong,
        "missed_recoveries": missed,
        "median_step_s": round(step, 3),
    }


def manual_model(
    ajr_jobs: list[dict[str, Any]], results: list[JobResult], args: argparse.Namespace
) -> list[dict[str, Any]]:
    """The manual policy from the ajr run's first attempts (see the module doc)."""
    out: list[dict[str, Any]] = []
    for measured, result in zip(ajr_jobs, results, strict=True):
        row: dict[str, Any]
        first = result.attempts[0] if result.attempts else None
        step = measured["median_step_s"]
        startup = (first.first_at - result.submitted_at) if first and first.first_at else 0.0
        if first is None or first.last_iteration is None or first.first_at is None:
            continue
        reached = first.last_iteration
        if result.fault == "none":
            wall = args.train_iters * step
            row = {"requeues": 0, "lost_iterations": 0, "fault_to_progress_s": [], "finished": True}
        elif result.fault in DO_NOT_RESTART:
            wall = reached * step + args.manual_response_s
            row = {
                "requeues": 0,
                "lost_iterations": 0,
                "fault_to_progress_s": [],
                "finished": False,
            }
        else:
            checkpoint = (reached // args.save_interval) * args.save_interval
            # A crash ends the job at once; a hang is noticed `manual_response_s` after the
            # log went silent (a collective timeout ends the job 30 s in: noticed from then).
            wait = args.manual_response_s + (30.0 if result.fault == "collective_hang" else 0.0)
            downtime = wait + startup
            wall = reached * step + downtime + (args.train_iters - checkpoint) * step
            row = {
                "requeues": 1,
                "lost_iterations": reached - checkpoint,
                "fault_to_progress_s": [round(downtime, 1)],
                "finished": True,
            }
        kept = args.train_iters if row["finished"] else reached
        computed = kept + int(row["lost_iterations"])
        out.append(
            {
                "fault": result.fault,
                **row,
                "iterations_kept": kept,
                "iterations_computed": computed,
                "wall_s": round(wall, 1),
                "ettr": round(kept * step / wall, 3),
                "efficiency": round(kept / computed, 3),
                "wrong_actions": 0,
                "missed_recoveries": 0,
                "modelled": True,
            }
        )
    return out


def summary(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    progress = [t for j in jobs for t in j["fault_to_progress_s"]]
    return {
        "jobs": len(jobs),
        "finished": sum(j["finished"] for j in jobs),
        "ettr_mean": round(statistics.fmean(j["ettr"] for j in jobs), 3) if jobs else 0.0,
        "efficiency_mean": round(statistics.fmean(j["efficiency"] for j in jobs), 3)
        if jobs
        else 0.0,
        "lost_iterations": sum(j["lost_iterations"] for j in jobs),
        "fault_to_progress_median_s": round(statistics.median(progress), 1) if progress else None,
        "requeues": sum(j["requeues"] for j in jobs),
        "wrong_actions": sum(j["wrong_actions"] for j in jobs),
        "missed_recoveries": sum(j["missed_recoveries"] for j in jobs),
    }


def plot(report: dict[str, Any], path: Path) -> None:
    """ETTR per fault and policy as a bar chart, in SVG (no plotting library needed)."""
    policies = list(report["policies"])
    faults = list(report["schedule"])
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"]
    width, height, left, bottom = 640, 300, 50, 40
    group = (width - left - 10) / len(faults)
    bar = group * 0.8 / len(policies)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f'<text x="{width / 2}" y="14" text-anchor="middle">faultjob campaign: ETTR per fault'
        " and policy</text>",
    ]
    plot_h = height - bottom - 25
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = height - bottom - tick * plot_h
        parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{y}" y2="{y}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 4}" y="{y + 4}" text-anchor="end">{tick:.2f}</text>')
    for i, fault in enumerate(faults):
        x0 = left + i * group + group * 0.1
        parts.append(
            f'<text x="{x0 + group * 0.4}" y="{height - bottom + 14}" text-anchor="middle">'
            f"{fault}</text>"
        )
        for j, policy in enumerate(policies):
            by_fault = {job["fault"]: job["ettr"] for job in report["policies"][policy]["jobs"]}
            value = max(0.0, min(1.0, float(by_fault.get(fault, 0.0))))
            h = value * plot_h
            parts.append(
                f'<rect x="{x0 + j * bar:.1f}" y="{height - bottom - h:.1f}" width="{bar:.1f}" '
                f'height="{h:.1f}" fill="{colours[j % len(colours)]}"/>'
            )
    for j, policy in enumerate(policies):
        x = left + j * 110
        parts.append(
            f'<rect x="{x}" y="{height - 14}" width="10" height="10" '
            f'fill="{colours[j % len(colours)]}"/>'
            f'<text x="{x + 14}" y="{height - 5}">{policy}</text>'
        )
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="ajr only, segfault + healthy")
    parser.add_argument("--policies", default="ajr,native,manual")
    parser.add_argument("--train-iters", type=int, default=60)
    parser.add_argument("--at-iteration", type=int, default=25)
    parser.add_argument("--save-interval", type=int, default=20)
    parser.add_argument("--iter-delay", type=float, default=0.5)
    parser.add_argument("--hang-timeout", type=float, default=60.0)
    parser.add_argument("--time-limit-min", type=int, default=8)
    parser.add_argument("--campaign-s", type=float, default=600.0)
    parser.add_argument("--manual-response-s", type=float, default=1800.0)
    parser.add_argument("--plot", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    faults = QUICK_SCHEDULE if args.quick else SCHEDULE
    if args.quick:  # CI: a shorter run, the same shape
        args.train_iters, args.at_iteration, args.save_interval = 30, 12, 10
    policies = ["ajr"] if args.quick else args.policies.split(",")
    report: dict[str, Any] = {
        "schedule": list(faults),
        "settings": {k: v for k, v in vars(args).items() if k not in ("plot", "keep", "json")}
        | {"plot": str(args.plot) if args.plot else None},
        "policies": {},
    }
    ajr_results: list[JobResult] = []
    for policy in policies:
        if policy == "manual":
            continue
        started = time.time()
        results = run_policy(policy, faults, args)
        end_at = time.time()
        jobs = [job_metrics(r, args, end_at) for r in results]
        report["policies"][policy] = {
            "summary": summary(jobs),
            "jobs": jobs,
            "seconds": round(end_at - started),
        }
        if policy == "ajr":
            ajr_results = results
        print(json.dumps({policy: report["policies"][policy]["summary"]}), file=sys.stderr)
    if "manual" in policies and ajr_results:
        jobs = manual_model(report["policies"]["ajr"]["jobs"], ajr_results, args)
        report["policies"]["manual"] = {"summary": summary(jobs), "jobs": jobs, "modelled": True}
    if args.plot:
        plot(report, args.plot)
    report["attempt_logs"] = {
        policy: [
            asdict(a) | {"fault": r.fault}
            for r in (ajr_results if policy == "ajr" else [])
            for a in r.attempts
        ]
        for policy in ("ajr",)
    }
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
