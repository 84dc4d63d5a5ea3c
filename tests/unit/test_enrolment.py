"""Reading the APS opt-in from a job's comment."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.enrolment import AutoResumeMode, Verdict, decide_enrolment, parse_aps_comment
from models.recovery import RecoveryConfig
from models.slurm import JobState, SlurmJob
from worker.discovery import DiscoveryPolicy, plan_enrolment

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("comment", "verdict", "mode", "max_requeues", "reason_part"),
    [
        (
            '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 1}}',
            Verdict.MANAGED,
            AutoResumeMode.REQUEUE,
            1,
            "",
        ),
        ('{"APS": {}}', Verdict.MANAGED, AutoResumeMode.REQUEUE, None, ""),
        ('{"APS":{"max_requeue_times": 0}}', Verdict.MANAGED, AutoResumeMode.REQUEUE, 0, ""),
        (
            '{"APS": {"auto_resume_mode": "singleton_dependency"}}',
            Verdict.MANAGED,
            AutoResumeMode.SINGLETON_DEPENDENCY,
            None,
            "",
        ),
        ("Training test", Verdict.NOT_OPTED_IN, AutoResumeMode.REQUEUE, None, "no APS"),
        ("", Verdict.NOT_OPTED_IN, AutoResumeMode.REQUEUE, None, "no APS"),
        ('{"owner": "alice"}', Verdict.NOT_OPTED_IN, AutoResumeMode.REQUEUE, None, ""),
        (
            '{"APS": {"auto_resume_mode": "requeue"',
            Verdict.INVALID,
            AutoResumeMode.REQUEUE,
            None,
            "not valid JSON",
        ),
        (
            '{"APS": {"auto_resume_mode": "restart"}}',
            Verdict.INVALID,
            AutoResumeMode.REQUEUE,
            None,
            "unknown auto_resume_mode",
        ),
        (
            '{"APS": {"max_requeue_times": -1}}',
            Verdict.INVALID,
            AutoResumeMode.REQUEUE,
            None,
            "non-negative integer",
        ),
        (
            '{"APS": {"max_requeue_times": "3"}}',
            Verdict.INVALID,
            AutoResumeMode.REQUEUE,
            None,
            "non-negative integer",
        ),
        (
            '{"APS": {"max_requeue_times": 2.5}}',
            Verdict.INVALID,
            AutoResumeMode.REQUEUE,
            None,
            "non-negative integer",
        ),
        (
            '{"APS": {"max_requeue_times": true}}',
            Verdict.INVALID,
            AutoResumeMode.REQUEUE,
            None,
            "non-negative integer",
        ),
        (
            '{"APS": {"max_requeues": 3}}',
            Verdict.INVALID,
            AutoResumeMode.REQUEUE,
            None,
            "unknown key",
        ),
        ('{"APS": "requeue"}', Verdict.INVALID, AutoResumeMode.REQUEUE, None, "JSON object"),
        ("APS please", Verdict.NOT_OPTED_IN, AutoResumeMode.REQUEUE, None, "not JSON"),
    ],
)
def test_parse_aps_comment(comment, verdict, mode, max_requeues, reason_part):
    decision = parse_aps_comment(comment)
    assert decision.verdict is verdict
    assert decision.reason.find(reason_part) >= 0
    if verdict is Verdict.MANAGED:
        assert decision.mode is mode
        assert decision.max_requeue_times == max_requeues


def test_singleton_dependency_is_managed_with_a_deprecation_warning():
    decision = parse_aps_comment('{"APS": {"auto_resume_mode": "singleton_dependency"}}')
    assert any("deprecated" in warning for warning in decision.warnings)


@pytest.mark.parametrize(
    ("comment", "partition", "verdict", "source"),
    [
        ("", "gpu", Verdict.MANAGED, "partition"),
        ("free text", "gpu", Verdict.MANAGED, "partition"),
        ("", "cpu", Verdict.NOT_OPTED_IN, "comment"),
        ('{"APS": {"max_requeue_times": 2}}', "cpu", Verdict.MANAGED, "comment"),
        # An invalid directive is never papered over by the partition default.
        ('{"APS": {"max_requeue_times": -2}}', "gpu", Verdict.INVALID, "comment"),
    ],
)
def test_partition_enrolment(comment, partition, verdict, source):
    decision = decide_enrolment(comment, partition, {"gpu"})
    assert decision.verdict is verdict
    assert decision.source == source


# --- whatever a user writes (the probe's 1,016 `[` blocked every later job's enrolment) ------


@pytest.mark.parametrize(
    ("comment", "verdict", "reason_part", "warning_part"),
    [
        ('{"APS": ' + "[" * 1016, Verdict.INVALID, "nested too deeply", ""),
        ('{"APS": ' + "[" * 1016 + "]" * 1016 + "}", Verdict.INVALID, "nested too deeply", ""),
        ('{"APS": {"max_requeue_times": ' + "9" * 5000 + "}}", Verdict.INVALID, "", ""),
        ('{"aps": {"max_requeue_times": 2}}', Verdict.MANAGED, "", "accepted as 'APS'"),
        ('{"Aps": {}}', Verdict.MANAGED, "", "accepted as 'APS'"),
        ('{"APS": {}, "aps": {}}', Verdict.INVALID, "several APS keys", ""),
        ('{"APS": {"auto_resume_mode": ["requeue"]}}', Verdict.INVALID, "auto_resume_mode", ""),
        ('{"APS": {"auto_resume_mode": {"a": 1}}}', Verdict.INVALID, "auto_resume_mode", ""),
        ('{"APS": {"max_requeue_times": 1.5}}', Verdict.INVALID, "max_requeue_times", ""),
        ('{"APS": {"max_requeue_times": true}}', Verdict.INVALID, "max_requeue_times", ""),
        ('{"APS": null}', Verdict.INVALID, "JSON object", ""),
        ("APS please", Verdict.NOT_OPTED_IN, "not JSON", ""),
        ('"APS"', Verdict.NOT_OPTED_IN, "no APS key", ""),
        ('{"APS": {}}' + " " * 9000, Verdict.MANAGED, "", ""),  # trailing blanks are stripped
        ('{"APS": {}, "x": "' + "a" * 9000 + '"}', Verdict.INVALID, "longer than", ""),
    ],
)
def test_pathological_comments(comment, verdict, reason_part, warning_part):
    decision = parse_aps_comment(comment)
    assert decision.verdict is verdict, decision
    assert reason_part in decision.reason
    assert warning_part in " ".join(decision.warnings)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=20), children, max_size=5)
    ),
    max_leaves=30,
)
APS_LIKE = st.dictionaries(
    st.sampled_from(["APS", "aps", "Aps", "x"]),
    st.dictionaries(
        st.sampled_from(["auto_resume_mode", "max_requeue_times", "other"]), JSON, max_size=3
    )
    | JSON,
    max_size=3,
)
POLICY = DiscoveryPolicy(cluster="c", config=RecoveryConfig())


def _job(comment: str) -> SlurmJob:
    return SlurmJob(job_id=1, name="j", state=JobState.PENDING, comment=comment, partition="gpu")


@settings(max_examples=1500, deadline=None)
@given(st.text(max_size=1024) | st.builds(json.dumps, APS_LIKE))
def test_any_comment_gets_a_decision_never_an_exception(comment: str) -> None:
    decision = parse_aps_comment(comment)
    assert decision.verdict in Verdict
    if decision.verdict is Verdict.INVALID:
        assert decision.reason
    plan_enrolment(_job(comment), POLICY)


@settings(max_examples=1000, deadline=None)
@given(JSON)
def test_any_json_document_under_aps_gets_a_decision(document: object) -> None:
    comment = json.dumps({"APS": document})[:1024]
    decision = parse_aps_comment(comment)
    if decision.verdict is Verdict.MANAGED:
        assert isinstance(document, dict)


@pytest.mark.parametrize(
    ("comment", "verdict", "restarter"),
    [
        ('{"APS": {"in_job_restarter": "nvrx"}}', Verdict.MANAGED, "nvrx"),
        ('{"APS": {"in_job_restarter": "none"}}', Verdict.MANAGED, ""),
        ('{"APS": {}}', Verdict.MANAGED, ""),
        ('{"APS": {"in_job_restarter": "torchrun"}}', Verdict.INVALID, ""),
        ('{"APS": {"in_job_restarter": ["nvrx"]}}', Verdict.INVALID, ""),
        ('{"APS": {"in_job_restarter": {"a": 1}}}', Verdict.INVALID, ""),
    ],
)
def test_in_job_restarter_key(comment, verdict, restarter):
    decision = parse_aps_comment(comment)
    assert decision.verdict is verdict, decision.reason
    assert decision.in_job_restarter == restarter
