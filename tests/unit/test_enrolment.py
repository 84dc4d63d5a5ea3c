"""Reading the APS opt-in from a job's comment."""

import pytest

from models.enrolment import AutoResumeMode, Verdict, decide_enrolment, parse_aps_comment

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
