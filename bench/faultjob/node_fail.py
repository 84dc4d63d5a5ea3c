"""node_fail: kill the slurmd of one of a running job's nodes, as a node crash would.

    python -m bench.faultjob.node_fail JOBID [--node node2] [--after 20] \\
        --registry $AJR_STATE_DIR/dev/processes.json

It is run by the harness, not by the training process: the job keeps training until slurmctld
stops hearing from the node (SlurmdTimeout) and ends the job with NODE_FAIL. The slurmd PID comes
from the local stack's process registry (a site would use its own node-power or BMC tooling);
`ajr dev up` restarts the killed slurmd afterwards. Only that recorded PID is signalled, after
checking that it really is `slurmd ... -N <node>`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path


def scontrol(*args: str) -> str:
    binary = shutil.which("scontrol")
    if binary is None:
        raise RuntimeError("scontrol not found on PATH")
    done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=30, check=True)
    return done.stdout


def job_fields(job_id: str) -> dict[str, str]:
    """`scontrol show job -o` as key=value pairs (values without spaces are enough here)."""
    fields: dict[str, str] = {}
    for token in scontrol("show", "job", "-o", job_id).split():
        key, sep, value = token.partition("=")
        if sep:
            fields.setdefault(key, value)
    return fields


def job_nodes(job_id: str) -> list[str]:
    nodelist = job_fields(job_id).get("NodeList", "")
    if not nodelist or nodelist == "(null)":
        return []
    return scontrol("show", "hostnames", nodelist).split()


def wait_running(job_id: str, timeout: float) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if job_fields(job_id).get("JobState") == "RUNNING":
            return job_nodes(job_id)
        time.sleep(0.5)
    raise TimeoutError(f"job {job_id} not RUNNING after {timeout:.0f} s")


def slurmd_pid(registry: Path, node: str) -> int:
    """The recorded PID of `slurmd -N node`, verified against /proc/PID/cmdline."""
    record = json.loads(registry.read_text())[f"slurmd-{node}"]
    pid = int(record["pid"])
    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    if not argv or not argv[0].endswith(b"slurmd") or node.encode() not in argv:
        raise RuntimeError(f"pid {pid} is not slurmd -N {node}: {argv!r}")
    return pid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faultjob.node_fail")
    parser.add_argument("job_id")
    parser.add_argument("--node", help="default: the job's last node")
    parser.add_argument("--after", type=float, default=0.0, help="seconds after RUNNING")
    parser.add_argument("--registry", type=Path, required=True, help="dev stack processes.json")
    parser.add_argument("--wait", type=float, default=300.0, help="max wait for RUNNING, s")
    args = parser.parse_args(argv)
    nodes = wait_running(args.job_id, args.wait)
    node = args.node or nodes[-1]
    if node not in nodes:
        parser.error(f"{node} is not one of job {args.job_id}'s nodes {nodes}")
    time.sleep(args.after)
    pid = slurmd_pid(args.registry, node)
    os.kill(pid, signal.SIGKILL)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    print(f"{stamp} node_fail: SIGKILLed slurmd -N {node} (pid {pid}); job nodes {nodes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
