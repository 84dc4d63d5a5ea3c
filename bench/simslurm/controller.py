"""The simulated slurmctld: N synthetic jobs, their logs, and the commands ajr runs on them.

    python -m bench.simslurm.controller --root DIR   (the bench starts it; see bench/scale.py)

What it models (Slurm 22.05.8 as seen on this host, tests/unit/fixtures):
  squeue --json --states=all     every job, each object a copy of a captured 22.05 job (111
                                 fields, ~3 KB) with the job's own values: the parser reads what
                                 it reads from a real answer, at a real answer's size
  scontrol -o show job <id>      one job, in the captured 22.05 one-line layout; "Invalid job id
                                 specified" (exit 1) for an unknown id
  scontrol requeuehold | release | update jobid=<id> Requeue=1 ExcNodeList= StartTime=now[+N]
                                 requeuehold: COMPLETING (0.2 s) then PENDING, held, reason
                                 job_requeued_in_held_state, restart count + 1; release: RUNNING
                                 0.5 s after the begin time on a node not excluded, with a new
                                 attempt log `<name>_<id>_date_%y-%m-%d_time_%H-%M-%S.log`
  scancel, sinfo -h -N [-p P | -n NODE] -o <%N %T %E>, sdiag (RPC counts by message type)
Each job's log gets an iteration line every 30 s (one generator, staggered over the 30 s). A
crash (control request) writes `0: Rank0: (1) segmentation fault: artificial segfault at <t>`;
the job stays RUNNING 60 s, then FAILED with exit 1, unless requeued first (bench/scale.py's
real crashy job does the same).

What it does not model: slurmctld's own cost (locks, scheduling, the RPC thread pool), slurmd,
srun and slurmstepd; answers come at once. Controller load is counted (RPCs), never timed.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hostlist

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TEMPLATE: dict[str, Any] = json.loads((HERE / "squeue-22.05-job.json").read_text())
COMMANDS = ("squeue", "scontrol", "sinfo", "scancel", "sdiag")
ITERATION_EVERY_S = 30.0
CRASH_EXIT_AFTER_S = 60.0
COMPLETING_S = 0.2
START_DELAY_S = 0.5
COMMENT = '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 1}}'
ITERATION = "0: iteration {i}/1000000 | elapsed time per iteration (ms): 30000.0 | lm loss: 2.0\n"
CRASH = "0: Rank0: (1) segmentation fault: artificial segfault at {at:.9f}\n"
RPC_IDS = {
    "REQUEST_JOB_INFO": 2003,
    "REQUEST_JOB_INFO_SINGLE": 2021,
    "REQUEST_NODE_INFO": 2007,
    "REQUEST_UPDATE_JOB": 3001,
    "REQUEST_JOB_REQUEUE": 5023,
    "REQUEST_CANCEL_JOB_STEP": 5005,
    "REQUEST_STATS_INFO": 2035,
}


def stamp(at: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(at)) if at else "Unknown"


@dataclass
class Job:
    job_id: int
    name: str
    workdir: Path
    node: str
    submit_time: float
    start_time: float
    phase: float  # seconds into the 30 s cycle at which its iteration line is written
    state: str = "RUNNING"
    reason: str = "None"
    restarts: int = 0
    priority: int = 4294901000
    held: bool = False
    requeue: bool = True
    excluded: list[str] = field(default_factory=list)
    exit_code: int = 0  # wait status, as 22.05's JSON reports it
    end_time: float = 0.0
    begin_time: float = 0.0
    log: Path | None = None
    iteration: int = 0
    next_line_at: float = 0.0
    fail_at: float = 0.0  # crashed: FAILED at this time unless requeued first
    settle_at: float = 0.0  # COMPLETING after requeuehold until then
    run_at: float = 0.0  # released: RUNNING at this time
    crashed_at: float = 0.0
    requeued_at: list[float] = field(default_factory=list)
    released_at: list[float] = field(default_factory=list)


class Cluster:
    def __init__(self, root: Path, nodes: int) -> None:
        self.root = root
        self.nodes = [f"sim{i}" for i in range(1, nodes + 1)]
        self.jobs: dict[int, Job] = {}
        self.next_id = 1
        self.rpcs: dict[str, int] = dict.fromkeys(RPC_IDS, 0)
        self.started = time.time()

    # --- the jobs' life ---------------------------------------------------------------------

    def submit(self, count: int, name: str) -> list[int]:
        now = time.time()
        workdir = self.root / "jobs"
        workdir.mkdir(parents=True, exist_ok=True)
        ids = []
        for _ in range(count):
            job_id = self.next_id
            self.next_id += 1
            job = Job(
                job_id,
                name,
                workdir,
                self.nodes[job_id % len(self.nodes)],
                submit_time=now,
                start_time=now,
                phase=(job_id * 7.919) % ITERATION_EVERY_S,
            )
            self._start(job, now)
            self.jobs[job_id] = job
            ids.append(job_id)
        return ids

    def _start(self, job: Job, now: float) -> None:
        usable = [n for n in self.nodes if n not in job.excluded] or self.nodes
        job.node = usable[job.job_id % len(usable)]
        job.state, job.reason, job.start_time, job.end_time = "RUNNING", "None", now, 0.0
        job.exit_code, job.fail_at, job.run_at = 0, 0.0, 0.0
        day = time.strftime("date_%y-%m-%d_time_%H-%M-%S", time.localtime(now))
        job.log = job.workdir / f"{job.name}_{job.job_id}_{day}.log"
        job.iteration = 0
        self._write(job, ITERATION.format(i=0))
        # the next line at the job's phase of the 30 s cycle
        cycle = now - (now % ITERATION_EVERY_S) + job.phase
        job.next_line_at = cycle if cycle > now else cycle + ITERATION_EVERY_S

    def _write(self, job: Job, text: str) -> None:
        if job.log is not None:
            with job.log.open("a") as out:
                out.write(text)

    def crash(self, job_id: int) -> float:
        job = self.jobs[job_id]
        job.crashed_at = time.time()
        self._write(job, CRASH.format(at=job.crashed_at))
        job.fail_at = job.crashed_at + CRASH_EXIT_AFTER_S
        return job.crashed_at

    def advance(self, now: float) -> None:
        """Timed transitions, and the iteration lines that are due (called every 0.2 s)."""
        for job in self.jobs.values():
            if job.state == "RUNNING":
                if job.fail_at and now >= job.fail_at:
                    job.state, job.reason, job.exit_code = "FAILED", "NonZeroExitCode", 256
                    job.end_time, job.fail_at = now, 0.0
                elif now >= job.next_line_at and not job.fail_at:
                    job.iteration += 1
                    self._write(job, ITERATION.format(i=job.iteration))
                    job.next_line_at += ITERATION_EVERY_S
            elif job.state == "COMPLETING" and now >= job.settle_at:
                job.state = "PENDING"
            elif job.state == "PENDING" and job.run_at and now >= job.run_at:
                self._start(job, now)

    # --- commands -----------------------------------------------------------------------------

    def command(self, argv: list[str]) -> tuple[int, str, str]:
        self.advance(time.time())
        program, args = argv[0], argv[1:]
        if program == "squeue":
            self.rpcs["REQUEST_JOB_INFO"] += 1
            return 0, self.squeue_json(), ""
        if program == "sdiag":
            self.rpcs["REQUEST_STATS_INFO"] += 1
            return 0, self.sdiag(), ""
        if program == "sinfo":
            self.rpcs["REQUEST_NODE_INFO"] += 1
            return 0, self.sinfo(args), ""
        if program == "scancel":
            self.rpcs["REQUEST_CANCEL_JOB_STEP"] += 1
            return self.scancel(args)
        if program == "scontrol":
            return self.scontrol(args)
        return 1, "", f"{program}: not simulated\n"

    def _job(self, text: str) -> Job | None:
        return self.jobs.get(int(text)) if text.isdigit() else None

    def scontrol(self, args: list[str]) -> tuple[int, str, str]:
        words = [a for a in args if a != "-o"]
        if words[:2] == ["show", "job"] and len(words) == 3:
            self.rpcs["REQUEST_JOB_INFO_SINGLE"] += 1
            job = self._job(words[2])
            if job is None:
                return 1, "", "slurm_load_jobs error: Invalid job id specified\n"
            return 0, self.scontrol_line(job) + "\n", ""
        now = time.time()
        if words[:1] == ["requeuehold"] and len(words) == 2:
            self.rpcs["REQUEST_JOB_REQUEUE"] += 1
            job = self._job(words[1])
            if job is None:
                return 1, "", "Requeue job error: Invalid job id specified\n"
            if not job.requeue:
                return 1, "", "Requeue job error: Requested operation is presently disabled\n"
            if job.state not in ("RUNNING", "FAILED", "COMPLETED", "CANCELLED"):
                return 1, "", "Requeue job error: Job is pending execution\n"
            job.restarts += 1
            job.state, job.reason, job.held, job.settle_at = (
                "COMPLETING",
                "job_requeued_in_held_state",
                True,
                now + COMPLETING_S,
            )
            job.fail_at, job.begin_time = 0.0, now + 120  # Slurm's own requeue delay
            job.requeued_at.append(now)
            return 0, "", ""
        if words[:1] == ["release"] and len(words) == 2:
            self.rpcs["REQUEST_UPDATE_JOB"] += 1
            job = self._job(words[1])
            if job is None:
                return 1, "", "Invalid job id specified\n"
            if job.held:
                job.held, job.reason = False, "BeginTime"
                job.run_at = max(now, job.begin_time) + START_DELAY_S
                job.released_at.append(now)
            return 0, "", ""
        if words[:1] == ["update"] and words[1:2] and words[1].lower().startswith("jobid="):
            self.rpcs["REQUEST_UPDATE_JOB"] += 1
            job = self._job(words[1].split("=", 1)[1])
            if job is None:
                return 1, "", "Invalid job id specified\n"
            for word in words[2:]:
                key, _, value = word.partition("=")
                if key == "Requeue":
                    job.requeue = value == "1"
                elif key == "ExcNodeList":
                    job.excluded = list(hostlist.expand_hostlist(value)) if value else []
                elif key == "StartTime":
                    extra = value.removeprefix("now").lstrip("+")
                    job.begin_time = now + (int(extra) if extra.isdigit() else 0)
                    if job.run_at:
                        job.run_at = job.begin_time + START_DELAY_S
            return 0, "", ""
        return 1, "", f"scontrol {' '.join(args)}: not simulated\n"

    def scancel(self, args: list[str]) -> tuple[int, str, str]:
        for word in args:
            job = self._job(word)
            if job is not None and job.state in ("RUNNING", "PENDING", "COMPLETING"):
                job.state, job.reason, job.end_time = "CANCELLED", "None", time.time()
                job.held = False
        return 0, "", ""

    def sinfo(self, args: list[str]) -> str:
        fmt = args[args.index("-o") + 1] if "-o" in args else "%N %T"
        nodes = [args[args.index("-n") + 1]] if "-n" in args else self.nodes
        lines = []
        for node in nodes:
            if node in self.nodes:
                lines.append(fmt.replace("%N", node).replace("%T", "mixed").replace("%E", "none"))
        return "".join(line + "\n" for line in lines)

    def sdiag(self) -> str:
        rows = "".join(
            f"\t{name:<40}( {RPC_IDS[name]}) count:{count} ave_time:0 total_time:0\n"
            for name, count in self.rpcs.items()
        )
        return (
            "*******************************************************\n"
            f"sdiag output at {stamp(time.time())} (simulated)\n"
            "Remote Procedure Call statistics by message type\n"
            f"{rows}\nRemote Procedure Call statistics by user\n"
        )

    # --- answers in 22.05's shapes --------------------------------------------------------------

    def squeue_json(self) -> str:
        jobs = []
        for job in self.jobs.values():
            raw = copy.copy(TEMPLATE_JOB)
            raw.update(
                job_id=job.job_id,
                name=job.name,
                job_state=job.state,
                state_reason="JobHeldUser" if job.held else job.reason,
                restart_cnt=job.restarts,
                user_id=0,
                user_name="root",
                group_id=0,
                partition="gpu",
                comment=COMMENT,
                nodes=job.node if job.state in ("RUNNING", "COMPLETING") or job.end_time else "",
                node_count=1,
                tasks=1,
                excluded_nodes=hostlist.collect_hostlist(job.excluded) if job.excluded else "",
                requeue=job.requeue,
                priority=0 if job.held else job.priority,
                exit_code=job.exit_code,
                current_working_directory=str(job.workdir),
                standard_output=str(job.workdir / "slurm-%j.out"),
                submit_time=int(job.submit_time),
                start_time=int(job.start_time),
                end_time=int(job.end_time),
            )
            jobs.append(raw)
        return json.dumps({"meta": TEMPLATE["meta"], "errors": [], "jobs": jobs})

    def scontrol_line(self, job: Job) -> str:
        node = job.node if job.state in ("RUNNING", "COMPLETING") or job.end_time else ""
        excluded = hostlist.collect_hostlist(job.excluded) if job.excluded else "(null)"
        code, sig = (job.exit_code >> 8) & 0xFF, job.exit_code & 0x7F
        return (
            f"JobId={job.job_id} JobName={job.name} UserId=root(0) GroupId=root(0) "
            f"MCS_label=N/A Priority={0 if job.held else job.priority} Nice=0 Account=(null) "
            f"QOS=(null) JobState={job.state} Reason={job.reason} Dependency=(null) "
            f"Requeue={int(job.requeue)} Restarts={job.restarts} BatchFlag=1 Reboot=0 "
            f"ExitCode={code}:{sig} RunTime=00:00:00 TimeLimit=UNLIMITED TimeMin=N/A "
            f"SubmitTime={stamp(job.submit_time)} EligibleTime={stamp(job.submit_time)} "
            f"AccrueTime={stamp(job.submit_time)} StartTime={stamp(job.start_time)} "
            f"EndTime={stamp(job.end_time)} Deadline=N/A SuspendTime=None SecsPreSuspend=0 "
            f"LastSchedEval={stamp(job.start_time)} Scheduler=Main Partition=gpu "
            f"AllocNode:Sid=localhost:1 ReqNodeList=(null) ExcNodeList={excluded} "
            f"NodeList={node} BatchHost={node or '(null)'} NumNodes=1 NumCPUs=1 NumTasks=1 "
            "CPUs/Task=1 ReqB:S:C:T=0:0:*:* TRES=cpu=1,node=1,billing=1 Socks/Node=* "
            "NtasksPerN:B:S:C=0:0:*:* CoreSpec=* MinCPUsNode=1 MinMemoryNode=0 "
            "MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 OverSubscribe=OK "
            f"Contiguous=0 Licenses=(null) Network=(null) Command={job.workdir}/job.sh "
            f"WorkDir={job.workdir} Comment={COMMENT}  StdErr={job.workdir}/slurm-{job.job_id}"
            f".out StdIn=/dev/null StdOut={job.workdir}/slurm-{job.job_id}.out Power="
        )

    # --- the bench's own requests (not RPCs) --------------------------------------------------

    def control(self, request: dict[str, Any]) -> dict[str, Any]:
        self.advance(time.time())
        what = request["control"]
        if what == "submit":
            return {"ids": self.submit(int(request["count"]), str(request["name"]))}
        if what == "crash":
            return {"at": self.crash(int(request["job_id"]))}
        if what == "jobs":
            return {
                "jobs": {
                    job.job_id: {
                        "state": job.state,
                        "restarts": job.restarts,
                        "crashed_at": job.crashed_at,
                        "requeued_at": job.requeued_at,
                        "released_at": job.released_at,
                    }
                    for job in self.jobs.values()
                }
            }
        if what == "rpcs":
            return {"rpcs": dict(self.rpcs)}
        return {"error": f"unknown control {what!r}"}


TEMPLATE_JOB: dict[str, Any] = TEMPLATE["jobs"][0]


def install_shims(bin_dir: Path, socket_path: Path) -> None:
    """The Slurm commands, each a `python -S` script that forwards its argv to the controller."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name in COMMANDS:
        shim = bin_dir / name
        shim.write_text(
            f"#!{sys.executable} -S\n"
            "import sys\n"
            f"sys.path.insert(0, {str(HERE)!r})\n"
            "from shim import main\n"
            f"sys.exit(main({str(socket_path)!r}))\n"
        )
        shim.chmod(0o755)


async def serve(cluster: Cluster, socket_path: Path) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = json.loads(await reader.readline())
            if "argv" in request:
                rc, out, err = cluster.command([str(a) for a in request["argv"]])
                answer: dict[str, Any] = {"rc": rc, "out": out, "err": err}
            else:
                answer = cluster.control(request)
        except Exception as exc:  # one bad request must not stop the cluster
            answer = {"rc": 1, "out": "", "err": f"simslurm: {exc!r}\n", "error": repr(exc)}
        writer.write(json.dumps(answer).encode())
        await writer.drain()
        writer.close()

    async def tick() -> None:
        while True:
            cluster.advance(time.time())
            await asyncio.sleep(0.2)

    if socket_path.exists():
        socket_path.unlink()
    server = await asyncio.start_unix_server(handle, path=str(socket_path), limit=1 << 20)
    ticker = asyncio.get_running_loop().create_task(tick())
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()
    ticker.cancel()


def request(socket_path: Path, payload: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
    """One request to a running controller (the bench's side)."""
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        conn.connect(str(socket_path))
        conn.sendall(json.dumps(payload).encode() + b"\n")
        conn.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := conn.recv(1 << 20):
            chunks.append(chunk)
    answer: dict[str, Any] = json.loads(b"".join(chunks))
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--nodes", type=int, default=64)
    args = parser.parse_args(argv)
    args.root.mkdir(parents=True, exist_ok=True)
    socket_path = args.root / "slurmctld.sock"
    install_shims(args.root / "bin", socket_path)
    os.chdir(args.root)
    asyncio.run(serve(Cluster(args.root, args.nodes), socket_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
