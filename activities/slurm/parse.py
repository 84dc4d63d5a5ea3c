"""Pure parsers: Slurm's JSON and `key=value` output into `SlurmJob`, across Slurm versions.

Slurm 22.05 (OpenAPI v0.0.38) reports plain numbers and strings; 23.02 and later wrap numbers as
`{"set": true, "number": N}`, report `job_state` as a list and `exit_code` as an object.
"""

from __future__ import annotations

import json
import logging
import re
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
