"""Bad input, fuzzed: comments, squeue JSON (22.05, 23.02+ shapes), scontrol/sinfo text, log bytes.

Every property holds for any input: the parser answers (a value, or its own clear error type),
never another exception, and garbage never leads to an action (no enrolment, no finding).

`AJR_FUZZ_EXAMPLES` sets the inputs per property (CI default 100; `bench/fuzz.py` runs 10,000).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from activities.logs.checklog import CheckLogError, check_log
from activities.slurm.parse import (
    ParseError,
    SlurmAnswerFailed,
    job_from_json,
    job_paths_from_scontrol,
    jobs_from_squeue_json,
    node_states_from_sinfo,
    parse_key_values,
)
from models.enrolment import Verdict, parse_aps_comment
from models.recovery import RecoveryConfig
from models.slurm import JobState, SlurmJob
from worker.discovery import DiscoveryPolicy, plan_enrolment

pytestmark = pytest.mark.unit

EXAMPLES = int(os.environ.get("AJR_FUZZ_EXAMPLES", "100"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 100,  # CI: the same inputs every run; the bench explores
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# How many inputs each property really saw (bench/fuzz.py reports these).
INPUTS: Counter[str] = Counter()
POLICY = DiscoveryPolicy(cluster="c", config=RecoveryConfig())

JSON_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
)
JSON_ANY = st.recursive(
    JSON_SCALAR,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)


# --- comments -------------------------------------------------------------------------------

APS_VALUE = st.fixed_dictionaries(
    {},
    optional={
        "auto_resume_mode": st.sampled_from(["requeue", "singleton_dependency"]) | JSON_SCALAR,
        "max_requeue_times": st.integers(min_value=-3, max_value=50) | JSON_SCALAR,
    },
)
COMMENTS = (
    st.text(max_size=2048)
    | st.binary(max_size=512).map(lambda b: b.decode("utf-8", "replace"))
    | st.builds(lambda v: json.dumps({"APS": v}), APS_VALUE | JSON_ANY)
    | st.builds(lambda k, v: json.dumps({k: v}), st.sampled_from(["aps", "Aps", "APS "]), JSON_ANY)
    | st.builds(lambda d: "APS " + "[" * d + "{" * d, st.integers(0, 20_000))
    | st.builds(lambda n: '{"APS": {"max_requeue_times": ' + "9" * n + "}}", st.integers(1, 6000))
    | st.builds(lambda s, t: s + '{"APS": {}}' + t, st.text(max_size=20), st.text(max_size=20))
)


@FUZZ
@given(COMMENTS)
def test_fuzz_comment(comment: str) -> None:
    INPUTS["comment"] += 1
    decision = parse_aps_comment(comment)
    assert decision.verdict in Verdict
    if decision.verdict is not Verdict.MANAGED:
        assert decision.reason, "a refusal always says why"
    job = SlurmJob(job_id=1, name="j", state=JobState.RUNNING, comment=comment, partition="gpu")
    enrolment = plan_enrolment(job, POLICY)
    if decision.verdict is Verdict.NOT_OPTED_IN:
        assert enrolment is None
        return
    # Managed only when the comment is a JSON object with exactly one APS object of known keys.
    if decision.verdict is Verdict.MANAGED:
        document = json.loads(comment.strip())
        aps = next(v for k, v in document.items() if k.upper() == "APS")
        assert isinstance(aps, dict) and set(aps) <= {"auto_resume_mode", "max_requeue_times"}
        limit = aps.get("max_requeue_times")
        assert limit is None or (type(limit) is int and limit >= 0)
    else:
        assert enrolment is not None and enrolment.input.not_managed_reason


# --- squeue --json --------------------------------------------------------------------------

STATES = [s.value for s in JobState if s is not JobState.UNKNOWN]
HOSTLISTS = st.sampled_from(["", "node1", "node[1-4]", "n[01-02],gpu7", "(null)", None])


def _wrapped(value: int) -> dict[str, Any]:
    return {"set": True, "infinite": False, "number": value}


@st.composite
def valid_jobs(draw: st.DrawFn, newer: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A well-formed job in 22.05 or 23.02+ shape, and what ajr must read from it."""
    job_id = draw(st.integers(1, 2**31))
    restarts = draw(st.integers(0, 1000))
    state = draw(st.sampled_from(STATES))
    code = draw(st.integers(0, 255))
    signal = draw(st.integers(0, 64)) if not code else 0
    comment = draw(st.text(max_size=200))
    nodes = draw(HOSTLISTS)
    num = _wrapped if newer else (lambda v: v)
    raw = {
        "job_id": num(job_id),
        "name": draw(st.text(max_size=40)),
        "job_state": [state, *draw(st.lists(st.sampled_from(["REQUEUED", "X"]), max_size=2))]
        if newer
        else state,
        "restart_cnt": num(restarts),
        "comment": comment,
        "nodes": nodes,
        "partition": "gpu",
        "exit_code": {"status": ["EXIT"], "return_code": num(code), "signal": {"id": num(signal)}}
        if newer
        else (code << 8) | signal,
    }
    return raw, {"job_id": job_id, "restarts": restarts, "state": state, "comment": comment}


FIELDS = [
    "job_id",
    "name",
    "job_state",
    "state_reason",
    "restart_cnt",
    "user_id",
    "comment",
    "nodes",
    "excluded_nodes",
    "requeue",
    "priority",
    "exit_code",
    "standard_output",
    "submit_time",
    "start_time",
]
HOSTILE_FIELD = (
    JSON_ANY
    | st.sampled_from(["node[", "node[3-1]", "n[1-99999999]", "a,,b", "[]", "node[a-z]"])
    | st.builds(lambda v: {"set": True, "number": v}, JSON_ANY)
    | st.builds(lambda v: {"set": False, "infinite": v, "number": 5}, JSON_ANY)
)
GARBAGE_JOB = st.dictionaries(st.sampled_from(FIELDS), HOSTILE_FIELD, max_size=len(FIELDS))
DOCUMENTS = st.one_of(
    st.builds(lambda jobs: {"jobs": jobs}, st.lists(GARBAGE_JOB | JSON_ANY, max_size=4)),
    st.builds(
        lambda jobs, errors: {"jobs": jobs, "errors": errors},
        st.lists(GARBAGE_JOB, max_size=2),
        JSON_ANY,
    ),
    JSON_ANY,
)
SQUEUE_TEXT = (
    DOCUMENTS.map(json.dumps)
    | st.text(max_size=300)
    | DOCUMENTS.map(json.dumps).flatmap(
        lambda s: st.integers(0, max(len(s) - 1, 0)).map(lambda cut: s[:cut])
    )
)


@FUZZ
@given(SQUEUE_TEXT)
def test_fuzz_squeue_garbage(text: str) -> None:
    INPUTS["squeue_garbage"] += 1
    try:
        jobs = jobs_from_squeue_json(text)
    except SlurmAnswerFailed as exc:
        assert str(exc).startswith("squeue --json reported errors")
        return
    except ParseError as exc:
        assert str(exc), "a parse error says what was wrong"
        return
    for job in jobs:
        assert isinstance(job, SlurmJob)
        assert job.state in JobState
        assert job.restart_count >= 0 or job.restart_count < 0  # an int, whatever it is
        enrolment = plan_enrolment(job, POLICY)
        if parse_aps_comment(job.comment).verdict is not Verdict.MANAGED:
            assert enrolment is None or enrolment.input.not_managed_reason


@FUZZ
@given(
    st.booleans().flatmap(lambda newer: st.lists(valid_jobs(newer), min_size=1, max_size=5)),
    st.lists(GARBAGE_JOB, max_size=3),
)
def test_fuzz_squeue_every_version_reads_the_good_jobs(
    good: list[tuple[dict[str, Any], dict[str, Any]]], bad: list[dict[str, Any]]
) -> None:
    """Good jobs of either shape are read exactly, whatever odd jobs sit beside them."""
    INPUTS["squeue_versions"] += 1
    document = {"jobs": [raw for raw, _ in good] + bad}
    jobs = {job.job_id: job for job in jobs_from_squeue_json(json.dumps(document))}
    for raw, want in good:
        job = job_from_json(raw)
        assert job.job_id == want["job_id"]
        assert job.restart_count == want["restarts"]
        assert job.state.value == want["state"]
        assert job.comment == want["comment"]
        assert want["job_id"] in jobs


# --- scontrol / sinfo text ------------------------------------------------------------------

KEYS = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,12}", fullmatch=True)
VALUES = st.text(
    st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"], blacklist_characters="="),
    max_size=40,
).map(str.strip)


@FUZZ
@given(st.dictionaries(KEYS, VALUES, min_size=1, max_size=12))
def test_fuzz_scontrol_key_values_round_trip(fields: dict[str, str]) -> None:
    INPUTS["scontrol_round_trip"] += 1
    line = " ".join(f"{key}={value}" for key, value in fields.items())
    assert parse_key_values(line) == fields


@FUZZ
@given(st.text(max_size=600) | st.binary(max_size=600).map(lambda b: b.decode("utf-8", "replace")))
def test_fuzz_scontrol_and_sinfo_garbage(text: str) -> None:
    INPUTS["scontrol_garbage"] += 1
    fields = parse_key_values(text)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items())
    stdout, workdir = job_paths_from_scontrol(text)
    assert isinstance(stdout, str) and isinstance(workdir, str)
    try:
        states = node_states_from_sinfo(text)
    except ParseError:
        return
    assert all(isinstance(state, str) for state in states.values())


# --- log bytes ------------------------------------------------------------------------------

REAL_LINES = [
    b"[2024-07-30 14:21:54] 0:  iteration        1/    1000 | consumed samples:          8 |"
    b" elapsed time per iteration (ms): 812.3 | throughput per GPU (TFLOP/s/GPU): 101.2 |"
    b" learning rate: 1.0E-04 | lm loss: 9.1E+00 |",
    b"1: Segmentation fault (core dumped)",
    b"0: [rank0]:[E ProcessGroupNCCL.cpp:616] Watchdog caught collective operation timeout",
    b"0: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    b"0: saving checkpoint at iteration     100 to /ckpt",
    b"srun: error: node2: task 1: Exited with exit code 139",
    b"0: NaN detected in loss",
]
LOG_NAME = "fuzz_4242_date_24-07-30_time_14-21-44.log"


def _spliced(parts: list[bytes | int], noise: bytes) -> bytes:
    out = bytearray()
    for part in parts:
        out += REAL_LINES[part % len(REAL_LINES)] if isinstance(part, int) else part
        out += b"\n"
    return bytes(out[: len(out) // 2]) + noise + bytes(out[len(out) // 2 :])


# Garbage: bytes, and ASCII without letters (any letters may spell a real signature, e.g.
# "GPU is lost", which hypothesis found: that is a finding, not garbage; MIXED_BYTES covers it).
NO_LETTERS = st.characters(codec="ascii", exclude_categories=["Lu", "Ll"])


def _letterless(data: bytes) -> bytes:
    return bytes(c for c in data if not (65 <= c <= 90 or 97 <= c <= 122))


GARBAGE_BYTES = (
    st.binary(max_size=4096).map(_letterless)
    | st.text(NO_LETTERS, max_size=2048).map(str.encode)
    | st.builds(
        lambda b, n: b * n, st.binary(min_size=1, max_size=8).map(_letterless), st.integers(1, 3000)
    )
)
MIXED_BYTES = st.builds(
    _spliced, st.lists(st.integers(0, 50) | st.binary(max_size=80), max_size=30), GARBAGE_BYTES
)
_TMP = Path(tempfile.mkdtemp(prefix="ajr-fuzz-"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


def _check(data: bytes) -> Any:
    path = _TMP / LOG_NAME
    path.write_bytes(data)
    try:
        return check_log(str(path), nodes=("node1", "node2"))
    except CheckLogError as exc:
        assert str(exc)
        return None


def test_fuzz_found_a_huge_iteration_number_is_no_crash() -> None:
    """Found by the fuzzer: `iteration <313 digits>` after a Megatron line crashed the engine
    (OverflowError in the interval arithmetic): a user's log line could stop the watch."""
    line = REAL_LINES[0].replace(b"       1/", b" " + b"9" * 313 + b"/")
    report = _check(REAL_LINES[0] + b"\n" + line + b"\n")
    assert report is not None and report.findings == []


@FUZZ
@given(GARBAGE_BYTES)
def test_fuzz_log_garbage_is_never_acted_on(data: bytes) -> None:
    """Bytes with no letters of any known signature: read to the end, nothing found."""
    INPUTS["log_garbage"] += 1
    report = _check(data)
    assert report is not None
    assert report.findings == [], f"acted on garbage: {report.findings[0]}"
    assert report.to_json()["path"]


@FUZZ
@given(MIXED_BYTES)
def test_fuzz_log_real_lines_in_noise(data: bytes) -> None:
    """Real fault lines cut and spliced with noise: no crash, a JSON report either way."""
    INPUTS["log_mixed"] += 1
    report = _check(data)
    assert report is not None
    json.dumps(report.to_json())
    for finding in report.findings:
        assert finding.line >= 1 and finding.kind
