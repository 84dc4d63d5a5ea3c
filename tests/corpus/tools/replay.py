#!/usr/bin/env python3
"""Replay a corpus log as a running job: its lines on stdout with their own timing, then its end.

Run inside a Slurm job step writing the seed's log name (`srun --output=%x_%j_$DATETIME.log`):

    python3 replay.py LOG --speed 30 --max-gap 1 --job-nodes cn131,cn132 --end exit:1

- Timing: the gap between two timestamped lines (analysis/lines.py's formats) is slept, divided
  by `--speed` and at most `--max-gap` seconds; lines without a timestamp follow at once. A
  line that only marks an excerpt's cut ("...", "[...]") is no time at all.
- Nodes: the log's hosts named by `--job-nodes` (the label's `job_nodes`, in order) become the
  nodes Slurm allocated to this job (SLURM_JOB_NODELIST, in order), as whole words, so ajr's
  attribution names real nodes it can exclude.
- The end (`--end`), as the original process behaved: `exit:N` exits with N; `silent` stays
  alive and prints nothing (a hang); `run` keeps printing the last line every `--heartbeat`
  seconds (alive and still slow: a straggler).

It needs only the standard library and ajr's own pure timestamp parser (analysis/lines.py).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from analysis.lines import is_elision, parse_timestamp, split_prefix


def allocated_nodes() -> list[str]:
    nodelist = os.environ.get("SLURM_JOB_NODELIST", "")
    if not nodelist:
        return []
    out = subprocess.run(
        ["scontrol", "show", "hostnames", nodelist], capture_output=True, text=True, check=True
    ).stdout
    return out.split()


def node_map(
    log_nodes: list[str], real: list[str]
) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """One pattern for all the log's hosts, so that node1->node2, node2->node3 is no chain."""
    pairs = dict(zip(log_nodes, real, strict=False))
    if not pairs:
        return None
    # Whole hostnames only: "cn13" must not rewrite "cn131"; an FQDN's first label counts.
    names = "|".join(map(re.escape, sorted(pairs, key=len, reverse=True)))
    return re.compile(rf"(?<![\w-])(?:{names})(?![\w-])"), pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--speed", type=float, default=30.0, help="time compression factor")
    parser.add_argument("--max-gap", type=float, default=1.0, help="longest sleep (seconds)")
    parser.add_argument("--job-nodes", default="", help="the log's own hosts, comma-separated")
    parser.add_argument("--end", default="exit:0", help="exit:N | silent | run")
    parser.add_argument("--heartbeat", type=float, default=1.0, help="seconds, with --end run")
    args = parser.parse_args()
    if not (args.end in ("silent", "run") or re.fullmatch(r"exit:\d{1,3}", args.end)):
        parser.error(f"--end must be exit:N, silent or run, not {args.end!r}")

    mapping = node_map([n for n in args.job_nodes.split(",") if n], allocated_nodes())
    pattern, pairs = mapping if mapping is not None else (None, {})
    raw = args.log.read_bytes().decode("utf-8", "replace").split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    out = sys.stdout
    previous: float | None = None
    last = ""
    for line in raw:
        if pattern is not None:
            line = pattern.sub(lambda m: pairs[m.group(0)], line)
        text = split_prefix(line)[2]
        if text.strip() and is_elision(text):
            previous = None  # a cut: the next timestamp starts a new stretch
        stamp = parse_timestamp(text)
        if stamp is not None:
            if previous is not None and stamp > previous:
                out.flush()
                time.sleep(min((stamp - previous) / args.speed, args.max_gap))
            previous = stamp if previous is None or stamp > previous else previous
        out.write(line + "\n")
        if line.strip():
            last = line
    out.flush()

    if args.end.startswith("exit:"):
        return int(args.end.split(":", 1)[1])
    while True:  # alive until Slurm (ajr's requeue or cancel) ends the step
        time.sleep(args.heartbeat if args.end == "run" else 3600)
        if args.end == "run" and last:
            out.write(last + "\n")
            out.flush()


if __name__ == "__main__":
    sys.exit(main())
