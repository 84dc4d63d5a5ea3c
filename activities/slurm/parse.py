"""Pure parsers: Slurm's JSON and `key=value` output into `SlurmJob`, across Slurm versions.

Slurm 22.05 (OpenAPI v0.0.38) reports plain numbers and strings; 23.02 and later wrap numbers as
`{"set": true, "number": N}`, report `job_state` as a list and `exit_code` as an object.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterable, Mapping
from typing import Any

import hostlist

from models.placement import NODE_STATE_UNKNOWN
from models.slurm import ExitStatus, JobState, SlurmJob

log = logging.getLogger(__name__)


class ParseError(ValueError):
    """Slurm printed something ajr cannot read."""


class SlurmAnswerFailed(ParseError):
    """Slurm printed a well-formed answer that says it failed (e.g. slurmctld did not reply).

    Slurm 22.05's `squeue --json` exits 0 with `"jobs": []` and an `errors` entry ("Failed while
    looking for jobs") when the controller does not answer: that is no answer, never an empty
    cluster.
    """


def _number(value: Any, default: int = 0) -> int:
    if isinstance(value, dict):
        if not value.get("set", True) or value.get("infinite"):
            return default
        value = value.get("number", default)
    if isinstance(value, bool) or value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: JSON's Infinity
        return default


def _state(value: Any) -> tuple[JobState, tuple[str, ...]]:
    if isinstance(value, str):
        names = [value]
    elif isinstance(value, list):
        names = value
    else:  # a number, an object, null: no state ajr can read
        names = []
    flags = tuple(str(n) for n in names[1:])
    if not names:
        return JobState.UNKNOWN, flags
    try:
        return JobState(str(names[0])), flags
    except ValueError:
        return JobState.UNKNOWN, flags


def _exit_status(value: Any) -> ExitStatus:
    if isinstance(value, dict):  # 23.02+: {"status": [...], "return_code": N, "signal": {...}}
        signal = value.get("signal") or {}
        signal_id = _number(signal.get("id") if isinstance(signal, dict) else signal)
        return ExitStatus(code=_number(value.get("return_code")), signal=signal_id)
    return ExitStatus.from_wait_status(_number(value))


def expand_nodes(expression: str | None) -> tuple[str, ...]:
    """`node[1-3],gpu7` -> ('node1', 'node2', 'node3', 'gpu7'), via python-hostlist."""
    if not expression or expression in ("(null)", "None"):
        return ()
    if not isinstance(expression, str):
        raise ParseError(f"host list is not a string: {str(expression)[:100]!r}")
    try:
        return tuple(hostlist.expand_hostlist(expression))
    except hostlist.BadHostlist as exc:
        raise ParseError(f"bad host list {expression!r}: {exc}") from exc


def compress_nodes(nodes: Iterable[str]) -> str:
    return str(hostlist.collect_hostlist(sorted(set(nodes))))


def job_from_json(raw: Mapping[str, Any]) -> SlurmJob:
    state, _flags = _state(raw.get("job_state"))
    return SlurmJob(
        job_id=_number(raw.get("job_id")),
        name=str(raw.get("name") or ""),
        state=state,
        state_reason=str(raw.get("state_reason") or ""),
        restart_count=_number(raw.get("restart_cnt")),
        user_id=_number(raw.get("user_id")),
        user_name=str(raw.get("user_name") or ""),
        group_id=_number(raw.get("group_id")),
        partition=str(raw.get("partition") or ""),
        comment=str(raw.get("comment") or ""),
        nodes=expand_nodes(raw.get("nodes")),
        node_count=_number(raw.get("node_count")),
        tasks=_number(raw.get("tasks")),
        excluded_nodes=expand_nodes(raw.get("excluded_nodes")),
        requeue=bool(raw.get("requeue", True)),
        priority=_number(raw.get("priority"), default=1),
        exit_status=_exit_status(raw.get("exit_code")),
        work_dir=str(raw.get("current_working_directory") or ""),
        stdout_path=str(raw.get("standard_output") or ""),
        submit_time=float(_number(raw.get("submit_time"))),
        start_time=float(_number(raw.get("start_time"))),
        end_time=float(_number(raw.get("end_time"))),
    )


def jobs_from_squeue_json(text: str) -> list[SlurmJob]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"squeue --json printed invalid JSON: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("jobs"), list):
        raise ParseError("squeue --json output has no 'jobs' list")
    errors = document.get("errors") or []
    if errors:
        raise SlurmAnswerFailed(f"squeue --json reported errors: {_describe_errors(errors)}")
    jobs = []
    for raw in document["jobs"]:
        if not isinstance(raw, dict):
            continue
        try:
            jobs.append(job_from_json(raw))
        except ParseError as exc:  # one odd job must not blind ajr to every other job
            log.warning("skipping job %s in squeue output: %s", raw.get("job_id"), exc)
    return jobs


def _describe_errors(errors: Any) -> str:
    if not isinstance(errors, list):
        return str(errors)[:300]
    parts = []
    for error in errors[:3]:
        if isinstance(error, dict):
            text = " / ".join(
                str(error[key]) for key in ("description", "error", "source") if error.get(key)
            )
            parts.append(text or json.dumps(error)[:200])
        else:
            parts.append(str(error)[:200])
    return "; ".join(parts)


_KEY = re.compile(r"(?:^|\s)([A-Za-z][A-Za-z0-9_:/]*)=")


def parse_key_values(line: str) -> dict[str, str]:
    """`scontrol -o show job` prints `Key=value Key2=value with spaces ...` on one line.

    Values may contain spaces (Comment=, Command=), so split on the next ` Key=` instead.
    """
    matches = list(_KEY.finditer(line.strip()))
    text = line.strip()
    fields: dict[str, str] = {}
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        fields[match.group(1)] = text[match.end() : end].strip()
    return fields


# What `job_from_scontrol` reads. Each is printed once by Slurm; the same ` Key=` again (in a
# job name or comment its owner wrote) makes the line ambiguous and is never guessed through.
_SCONTROL_READ = (
    "JobId",
    "JobName",
    "UserId",
    "GroupId",
    "Priority",
    "JobState",
    "Reason",
    "Requeue",
    "Restarts",
    "ExitCode",
    "SubmitTime",
    "StartTime",
    "EndTime",
    "Partition",
    "ExcNodeList",
    "NodeList",
    "NumNodes",
    "NumTasks",
    "WorkDir",
    "Comment",
    "StdOut",
)
_OWNER = re.compile(r"^(.*)\((\d+)\)$")
_TIMESTAMP = "%Y-%m-%dT%H:%M:%S"


class AmbiguousAnswer(ParseError):
    """`scontrol -o` printed a line whose fields cannot be told apart (a value holds ` Key=`)."""


def _owner(value: str) -> tuple[str, int]:
    """`alice(1000)` -> ("alice", 1000)."""
    match = _OWNER.match(value)
    if not match:
        raise ParseError(f"unreadable owner {value[:100]!r}")
    return match.group(1), int(match.group(2))


def _local_time(value: str) -> float:
    """scontrol's `2025-01-31T10:00:00` (the client's local time); Unknown/None/N/A -> 0."""
    try:
        return time.mktime(time.strptime(value, _TIMESTAMP))
    except (ValueError, OverflowError):
        return 0.0


def _first_int(value: str, default: int = 0) -> int:
    """`2`, `2-2` (NumNodes of a pending job), `N/A` -> 2, 2, default."""
    match = re.match(r"\d+", value)
    return int(match.group(0)) if match else default


def job_from_scontrol(text: str, job_id: int) -> SlurmJob | None:
    """Job `job_id` from `scontrol -o show job <id>` (one line a job), or None if not listed.

    Raises AmbiguousAnswer when a field ajr reads appears twice on the job's line (a job's
    owner can put ` UserId=0(0)` in its name or comment): the caller asks squeue's JSON then.
    """
    prefix = f"JobId={job_id} "
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith(prefix)]
    if not lines:
        return None
    line = lines[0]
    for key in _SCONTROL_READ:
        if len(re.findall(rf"(?:^|\s){re.escape(key)}=", line)) > 1:
            raise AmbiguousAnswer(f"job {job_id}: {key}= appears more than once")
    fields = parse_key_values(line)
    keys = list(fields)
    # JobName is free text: Slurm prints UserId right after it, so anything between the two
    # (a ` Word=` in the name) makes the name unreadable.
    if "JobName" in fields and keys[keys.index("JobName") + 1 :][:1] != ["UserId"]:
        raise AmbiguousAnswer(f"job {job_id}: JobName is not followed by UserId")
    if fields.get("JobId") != str(job_id) or "JobState" not in fields:
        raise ParseError(f"job {job_id}: no JobId/JobState in scontrol's line")
    user_name, user_id = _owner(fields.get("UserId", "(0)"))
    _group_name, group_id = _owner(fields.get("GroupId", "(0)"))
    code, _, signal = fields.get("ExitCode", "0:0").partition(":")
    state, _flags = _state(fields["JobState"])
    return SlurmJob(
        job_id=job_id,
        name=fields.get("JobName", ""),
        state=state,
        state_reason=fields.get("Reason", ""),
        restart_count=_first_int(fields.get("Restarts", "0")),
        user_id=user_id,
        user_name=user_name,
        group_id=group_id,
        partition=fields.get("Partition", ""),
        comment=fields.get("Comment", ""),
        nodes=expand_nodes(fields.get("NodeList")),
        node_count=_first_int(fields.get("NumNodes", "0")),
        tasks=_first_int(fields.get("NumTasks", "0")),
        excluded_nodes=expand_nodes(fields.get("ExcNodeList")),
        requeue=fields.get("Requeue", "1") != "0",
        priority=_first_int(fields.get("Priority", "1"), default=1),
        exit_status=ExitStatus(code=_first_int(code), signal=_first_int(signal)),
        work_dir=fields.get("WorkDir", ""),
        stdout_path=fields.get("StdOut", ""),
        submit_time=_local_time(fields.get("SubmitTime", "")),
        start_time=_local_time(fields.get("StartTime", "")),
        end_time=_local_time(fields.get("EndTime", "")),
    )


def job_paths_from_scontrol(text: str) -> tuple[str, str]:
    """(StdOut, WorkDir) from `scontrol -o show job <id>`; squeue's JSON lacks StdOut on 22.05."""
    fields = parse_key_values(text.splitlines()[0] if text else "")
    return fields.get("StdOut", ""), fields.get("WorkDir", "")


def node_states_from_sinfo(text: str) -> dict[str, str]:
    """`sinfo -h -N -o '%N %T'` lines -> {node: state}."""
    states: dict[str, str] = {}
    for line in text.splitlines():
        parts = line.split()  # node names and states hold no spaces or quotes
        if len(parts) >= 2:
            states[parts[0]] = parts[1].rstrip("*~#!%$@^-").upper()
        elif len(parts) == 1:
            states[parts[0]] = NODE_STATE_UNKNOWN
    return states


def leaf_switches_from_scontrol(text: str) -> dict[str, tuple[str, ...]]:
    """`scontrol show topology` (topology/tree) -> {leaf switch: its nodes}.

    Lines read `SwitchName=s0 Level=0 LinkSpeed=1 Nodes=node[1-2]`; a leaf is a switch of
    Level 0 (one without `Switches=` when no level is printed). Other lines (no topology
    configured, another plugin's output) are no leaf: {} makes the failure-domain rule inert.
    """
    leaves: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        fields = parse_key_values(line)
        name, nodes = fields.get("SwitchName", ""), fields.get("Nodes", "")
        if not name or not nodes:
            continue
        level = fields.get("Level")
        if level is not None and level != "0":
            continue
        if level is None and fields.get("Switches"):
            continue
        leaves[name] = expand_nodes(nodes)
    return leaves
