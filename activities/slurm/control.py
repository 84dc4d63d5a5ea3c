"""Slurm operations on one job or partition: read, requeuehold, update, release, cancel."""

from __future__ import annotations

from activities.slurm.parse import (
    AmbiguousAnswer,
    ParseError,
    compress_nodes,
    job_from_scontrol,
    job_paths_from_scontrol,
    jobs_from_squeue_json,
    leaf_switches_from_scontrol,
    node_states_from_sinfo,
)
from activities.slurm.runner import CommandResult, SlurmError, SlurmRunner
from models.slurm import SlurmJob, is_valid_node_name


class InvalidNodeName(ValueError):
    pass


def validate_node_names(nodes: list[str]) -> list[str]:
    bad = [node for node in nodes if not is_valid_node_name(node)]
    if bad:
        raise InvalidNodeName(f"invalid node name(s): {', '.join(map(repr, bad))}")
    return nodes


class SlurmControl:
    def __init__(self, runner: SlurmRunner) -> None:
        self.runner = runner

    async def show_job(self, job_id: int) -> SlurmJob | None:
        """The job as slurmctld knows it now, or None when slurmctld says "Invalid job id".

        One `scontrol -o show job <id>` (REQUEST_JOB_INFO_SINGLE: slurmctld's work for one job,
        however many it holds). None is not proof that the job is gone (see `job_known`). A
        degraded answer (slurmctld did not reply, garbage) raises SlurmError: it is never read
        as "no such job". A line whose fields cannot be told apart (a job name or comment that
        holds ` UserId=...`) is read from squeue's JSON instead, which lists every job.
        """
        result = await self.runner.run("scontrol", "-o", "show", "job", str(job_id), check=False)
        if result.returncode != 0:
            if "Invalid job id" in result.stderr:
                return None
            raise SlurmError(
                f"scontrol show job {job_id} failed ({result.returncode}): "
                f"{result.stderr.strip() or result.stdout.strip()[:200]}",
                unavailable=True,
                stderr=result.stderr,
            )
        try:
            return job_from_scontrol(result.stdout, job_id)
        except AmbiguousAnswer:
            return await self._show_job_listed(job_id)
        except ParseError as exc:
            raise SlurmError(f"scontrol show job {job_id}: {exc}", unavailable=True) from exc

    async def _show_job_listed(self, job_id: int) -> SlurmJob | None:
        """The job from `squeue --json` (Slurm 22.05 ignores --jobs there and lists all)."""
        result = await self.runner.run(
            "squeue", "--json", "--states=all", f"--jobs={job_id}", check=False
        )
        if result.returncode != 0:
            if "Invalid job id" in result.stderr:
                return None
            raise SlurmError(
                f"squeue --jobs={job_id} failed: {result.stderr.strip()}",
                unavailable=True,
                stderr=result.stderr,
            )
        try:
            listed = jobs_from_squeue_json(result.stdout)
        except ParseError as exc:
            raise SlurmError(f"squeue --jobs={job_id}: {exc}", unavailable=True) from exc
        jobs = [job for job in listed if job.job_id == job_id]
        return jobs[0] if jobs else None

    async def job_known(self, job_id: int) -> bool:
        """Slurm's explicit word on whether it has a record of the job.

        False only on slurmctld's own "Invalid job id specified"; anything else that is not an
        answer (timeout, connection refused, an unexpected message) raises SlurmError.
        """
        result = await self.runner.run("scontrol", "-o", "show", "job", str(job_id), check=False)
        if result.returncode == 0 and f"JobId={job_id} " in result.stdout:
            return True
        if "Invalid job id specified" in result.stderr:
            return False
        raise SlurmError(
            f"scontrol show job {job_id} failed ({result.returncode}): "
            f"{result.stderr.strip() or result.stdout.strip()[:200]}",
            unavailable=True,
            stderr=result.stderr,
        )

    async def job_paths(self, job_id: int) -> tuple[str, str]:
        """(stdout path, working directory) of the job."""
        result = await self.runner.run("scontrol", "-o", "show", "job", str(job_id), check=False)
        if result.returncode != 0:
            return "", ""
        return job_paths_from_scontrol(result.stdout)

    async def scontrol(self, *args: str) -> CommandResult:
        return await self.runner.run("scontrol", *args, check=False)

    async def requeue_hold(self, job_id: int) -> CommandResult:
        return await self.scontrol("requeuehold", str(job_id))

    async def release(self, job_id: int) -> CommandResult:
        return await self.scontrol("release", str(job_id))

    async def make_requeueable(self, job_id: int) -> CommandResult:
        return await self.scontrol("update", f"jobid={job_id}", "Requeue=1")

    async def set_exclusions_and_start_now(
        self, job_id: int, nodes: list[str], delay_s: int = 0
    ) -> CommandResult:
        """Exclude `nodes` and make the job eligible now (Slurm's own requeue delay is ~2 min),
        or `delay_s` seconds from now (a back-off)."""
        args = ["update", f"jobid={job_id}"]
        if nodes:
            args.append(f"ExcNodeList={compress_nodes(validate_node_names(nodes))}")
        args.append(f"StartTime=now+{int(delay_s)}" if delay_s > 0 else "StartTime=now")
        return await self.scontrol(*args)

    async def cancel(self, job_id: int) -> CommandResult:
        return await self.runner.run("scancel", str(job_id), check=False)

    async def node_state(self, node: str) -> tuple[str, str] | None:
        """(state, reason) of one node as sinfo shows them ("drained", "ajr: GPU ..."), or None
        when Slurm does not know it."""
        (node,) = validate_node_names([node])
        result = await self.runner.run("sinfo", "-h", "-N", "-n", node, "-o", "%T|%E", check=False)
        for line in result.stdout.splitlines():
            state, sep, reason = line.partition("|")
            if sep:
                return state.strip().lower(), "" if reason.strip() == "none" else reason.strip()
        return None

    async def drained_nodes(self) -> dict[str, tuple[str, str]]:
        """{node: (state, reason)} of every node that has a reason (drained, draining, down)."""
        result = await self.runner.run("sinfo", "-h", "-N", "-o", "%N|%T|%E", check=False)
        nodes: dict[str, tuple[str, str]] = {}
        for line in result.stdout.splitlines():
            parts = line.split("|", 2)
            if len(parts) == 3 and parts[2].strip() not in ("", "none"):
                nodes[parts[0].strip()] = (parts[1].strip().lower(), parts[2].strip())
        return nodes

    async def drain_node(self, node: str, reason: str) -> CommandResult:
        (node,) = validate_node_names([node])
        return await self.scontrol("update", f"NodeName={node}", "State=DRAIN", f"Reason={reason}")

    async def resume_node(self, node: str) -> CommandResult:
        (node,) = validate_node_names([node])
        return await self.scontrol("update", f"NodeName={node}", "State=RESUME")

    async def partition_nodes(self, partition: str) -> dict[str, str]:
        """{node: state} for every node of the partition."""
        result = await self.runner.run("sinfo", "-h", "-N", "-p", partition, "-o", "%N %T")
        return node_states_from_sinfo(result.stdout)

    async def leaf_switches(self) -> dict[str, tuple[str, ...]]:
        """{leaf switch: its nodes} from `scontrol show topology`; {} when none is configured."""
        result = await self.runner.run("scontrol", "show", "topology", check=False)
        if result.returncode != 0:
            return {}
        switches = leaf_switches_from_scontrol(result.stdout)
        return {name: tuple(validate_node_names(list(nodes))) for name, nodes in switches.items()}
