"""Parsing Slurm's output into `SlurmJob`, on 22.05 (captured) and 23.02+ shapes."""

import json
import time
from pathlib import Path

import pytest

from activities.slurm.parse import (
    AmbiguousAnswer,
    ParseError,
    SlurmAnswerFailed,
    compress_nodes,
    expand_nodes,
    job_from_json,
    job_from_scontrol,
    jobs_from_squeue_json,
    parse_key_values,
)
from models.slurm import ExitStatus, JobState

pytestmark = pytest.mark.unit
FIXTURES = Path(__file__).parent / "fixtures"


def test_squeue_22_05_captured_output():
    (job,) = jobs_from_squeue_json((FIXTURES / "squeue-22.05-running.json").read_text())
    assert job.job_id == 1
    assert job.state is JobState.RUNNING
    assert job.nodes == ("pnode1", "pnode2")
    assert job.excluded_nodes == ("pnode4",)
    assert job.restart_count == 0
    assert job.requeue is True
    assert json.loads(job.comment)["APS"]["max_requeue_times"] == 1
    assert job.work_dir == "/tmp/sx/jobs"
    assert job.tasks == 2 and job.node_count == 2
    assert not job.held


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (0, ExitStatus(0, 0)),
        (256, ExitStatus(1, 0)),
        (23808, ExitStatus(93, 0)),
        (11, ExitStatus(0, 11)),
        (15, ExitStatus(0, 15)),
    ],
)
def test_exit_code_is_a_wait_status_on_22_05(raw, expected):
    assert job_from_json({"job_id": 1, "exit_code": raw}).exit_status == expected


def test_newer_slurm_shapes():
    job = job_from_json(
        {
            "job_id": {"set": True, "number": 7},
            "job_state": ["PENDING", "REQUEUED"],
            "restart_cnt": {"set": True, "number": 2},
            "priority": {"set": True, "number": 0},
            "state_reason": "JobHeldUser",
            "exit_code": {
                "status": ["EXIT"],
                "return_code": {"set": True, "number": 16},
                "signal": {"id": {"set": False, "number": 0}},
            },
            "nodes": "",
            "excluded_nodes": "gpu[001-003]",
        }
    )
    assert job.job_id == 7 and job.state is JobState.PENDING and job.restart_count == 2
    assert job.held
    assert job.exit_status == ExitStatus(16, 0)
    assert job.excluded_nodes == ("gpu001", "gpu002", "gpu003")


def test_one_unreadable_job_does_not_hide_the_others():
    text = json.dumps(
        {"jobs": [{"job_id": 1, "nodes": "node[1-"}, {"job_id": 2, "nodes": "node3"}]}
    )
    assert [job.job_id for job in jobs_from_squeue_json(text)] == [2]


def test_unknown_state_does_not_crash():
    assert job_from_json({"job_id": 3, "job_state": "RESV_DEL_HOLD"}).state is JobState.UNKNOWN


@pytest.mark.parametrize("text", ["not json", "[]", '{"jobs": 3}'])
def test_garbage_is_a_clear_error(text):
    with pytest.raises(ParseError):
        jobs_from_squeue_json(text)


def test_hostlists_round_trip():
    assert expand_nodes("node[1-3],gpu7") == ("node1", "node2", "node3", "gpu7")
    assert compress_nodes(["node3", "node1", "node2", "node1"]) == "node[1-3]"
    with pytest.raises(ParseError):
        expand_nodes("node[1-")


def test_scontrol_one_line_with_spaces_in_values():
    fields = parse_key_values(
        "JobId=5 JobName=a b Comment=x y=z StdOut=/tmp/d/slurm-5.out WorkDir=/tmp/d Requeue=1"
    )
    assert fields["JobName"] == "a b"
    assert fields["StdOut"] == "/tmp/d/slurm-5.out"
    assert fields["WorkDir"] == "/tmp/d"


def test_a_degraded_answer_is_a_failure_never_an_empty_cluster():
    """Slurm 22.05 with slurmctld stopped: exit 0, no jobs, one error (captured on this cluster)."""
    degraded = {
        "meta": {"plugin": {"type": "openapi/v0.0.38"}},
        "errors": [
            {
                "description": "Failed while looking for jobs",
                "error_number": -1,
                "error": "Unspecified error",
                "source": "slurm_load_jobs",
            }
        ],
        "jobs": [],
    }
    with pytest.raises(SlurmAnswerFailed, match="Failed while looking for jobs"):
        jobs_from_squeue_json(json.dumps(degraded))
    assert jobs_from_squeue_json(json.dumps({**degraded, "errors": []})) == []


def test_fuzz_found_odd_field_types_skip_only_that_job():
    """Found by tests/unit/test_fuzz.py: a list for `nodes`, a number for `job_state` and
    JSON's Infinity crashed the whole poll (TypeError / OverflowError) instead of one job."""
    text = (
        '{"jobs": [{"job_id": 1, "nodes": [null]}, {"job_id": 2, "job_state": 5},'
        ' {"job_id": 3, "restart_cnt": Infinity, "exit_code": {"signal": null}}]}'
    )
    jobs = jobs_from_squeue_json(text)
    assert [job.job_id for job in jobs] == [2, 3]
    assert jobs[0].state is JobState.UNKNOWN and jobs[1].restart_count == 0


def test_fuzz_found_a_quote_in_sinfo_output_is_no_crash():
    from activities.slurm.parse import node_states_from_sinfo

    assert node_states_from_sinfo('node1 idle\n"odd down*\n') == {"node1": "IDLE", '"odd': "DOWN"}


# --- one job from `scontrol -o show job <id>` (REQUEST_JOB_INFO_SINGLE) -----------------------


def _scontrol_line(job_id: int) -> str:
    """Lines captured on this host's Slurm 22.05.8 (jobs 1-5 of one cluster, TZ=UTC)."""
    lines = (FIXTURES / "scontrol-22.05-jobs.txt").read_text().splitlines()
    return next(line for line in lines if line.startswith(f"JobId={job_id} "))


def _utc(stamp: str) -> float:
    return time.mktime(time.strptime(stamp, "%Y-%m-%dT%H:%M:%S"))


def test_scontrol_running_job_reads_like_squeue_json():
    # squeue --json of the same job said: RUNNING, nodes node1, excluded node2, 2 tasks, 1 node,
    # requeue true, exit 0, name "train run".
    job = job_from_scontrol(_scontrol_line(3), 3)
    assert job is not None
    assert (job.job_id, job.name, job.state, job.state_reason) == (
        3,
        "train run",
        JobState.RUNNING,
        "None",
    )
    assert job.nodes == ("node1",) and job.excluded_nodes == ("node2",)
    assert (job.tasks, job.node_count, job.requeue, job.restart_count) == (2, 1, True, 0)
    assert (job.user_name, job.user_id, job.group_id) == ("root", 0, 0)
    assert json.loads(job.comment)["APS"]["auto_resume_mode"] == "requeue"
    assert job.work_dir == "/tmp/wtscale-probe/w"
    assert job.stdout_path == "/tmp/wtscale-probe/w/slurm-3.out"
    assert job.partition == "gpu" and job.priority == 4294901757
    assert job.start_time == job.submit_time == _utc("2026-11-23T06:44:45")
    assert job.end_time == 0.0  # EndTime=Unknown (no time limit)
    assert not job.held


def test_scontrol_held_job_after_requeuehold():
    job = job_from_scontrol(_scontrol_line(1), 1)
    assert job is not None
    assert job.state is JobState.PENDING and job.held
    assert (job.restart_count, job.priority, job.nodes) == (1, 0, ())
    assert job.state_reason == "job_requeued_in_held_state"


@pytest.mark.parametrize(
    ("job_id", "exit_status"),
    [(4, ExitStatus(code=3, signal=0)), (5, ExitStatus(code=0, signal=9))],
)
def test_scontrol_exit_code_is_code_colon_signal(job_id, exit_status):
    job = job_from_scontrol(_scontrol_line(job_id), job_id)
    assert job is not None and job.state is JobState.FAILED
    assert job.exit_status == exit_status
    assert job.end_time == _utc("2026-11-23T06:44:45")


@pytest.mark.parametrize(
    "line",
    [
        # captured: job name "evil UserId=0(0) x=y", comment "c JobState=COMPLETED"
        _scontrol_line(2),
        "JobId=7 JobName=a Comment=b UserId=x(5) JobState=RUNNING",  # a key before UserId
        "JobId=7 JobName=a UserId=u(5) JobState=RUNNING Restarts=0 Comment=x Restarts=3",
    ],
)
def test_scontrol_line_that_a_user_can_forge_is_ambiguous(line):
    job_id = int(line.split()[0].split("=")[1])
    with pytest.raises(AmbiguousAnswer):
        job_from_scontrol(line, job_id)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "JobId=70 JobName=other UserId=u(5) JobState=RUNNING",  # another job (7 vs 70)
        "slurm_load_jobs error: Invalid job id specified",
    ],
)
def test_scontrol_without_the_job_is_none(text):
    assert job_from_scontrol(text, 7) is None


@pytest.mark.parametrize(
    "line",
    [
        "JobId=7 JobName=a UserId=nobody JobState=RUNNING",  # no (uid)
        "JobId=7 JobName=a UserId=u(5) Reason=None",  # no JobState
    ],
)
def test_scontrol_unreadable_line_is_a_parse_error(line):
    with pytest.raises(ParseError):
        job_from_scontrol(line, 7)
