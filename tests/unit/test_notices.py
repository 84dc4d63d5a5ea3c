"""The notices' text and ids: pure builders (workflows/notices.py)."""

from __future__ import annotations

import pytest

from models.categories import Category
from models.notifications import NoticeKind
from models.recovery import Action, AttemptRecord, Observed
from workflows import notices

pytestmark = pytest.mark.unit

CRASH = AttemptRecord(
    attempt=1,
    observed=Observed.CRASH,
    category=Category.GPU,
    culprit_nodes=["node3"],
    action=Action.REQUEUE,
)


@pytest.mark.parametrize(
    ("record", "excluded", "text"),
    [
        (
            CRASH,
            ["node3"],
            "job 42 train_gpt (alice) attempt 1: CRASH GPU on node3 -> requeued excluding node3"
            " (requeue 2 of 3)",
        ),
        (
            AttemptRecord(attempt=0, observed=Observed.HANG, action=Action.REQUEUE),
            [],
            "job 42 train_gpt (alice) attempt 0: HANG -> requeued (requeue 1 of 3)",
        ),
    ],
)
def test_requeued_notice(record: AttemptRecord, excluded: list[str], text: str) -> None:
    notice = notices.requeued(
        workflow_id="ajr-local-42",
        cluster="local",
        job_id=42,
        job_name="train_gpt",
        user="alice",
        record=record,
        excluded=excluded,
        max_requeues=3,
        at=5.0,
    )
    assert notice.text == text
    assert notice.event_id == f"ajr-local-42/{record.attempt}/requeued"  # one per attempt
    assert notice.kind is NoticeKind.REQUEUED and notice.excluded_nodes == excluded


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        (NoticeKind.STOPPED, "recovery stopped"),
        (NoticeKind.NOT_MANAGED, "NOT managed (fix the #SBATCH --comment APS directive)"),
        (NoticeKind.STUCK, "recovery stuck"),
    ],
)
def test_ending_notices(kind: NoticeKind, words: str) -> None:
    notice = notices.ended(
        kind=kind,
        workflow_id="ajr-local-7",
        cluster="local",
        job_id=7,
        job_name="",
        user="bob",
        attempt=2,
        reason="why",
        at=1.0,
    )
    assert notice.text == f"job 7 (bob) attempt 2: {words}: why"
    assert notice.event_id == f"ajr-local-7/2/{kind.value}"


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ("drained", "node node3 drained by ajr: GPU in job 7 (bob) attempt 1 (verified)"),
        (
            "suggested",
            "node node3 suspect: drain suggested: GPU in job 7 (bob) attempt 1 (verified)",
        ),
        (
            "capped",
            "node node3 suspect: not drained (ajr's daily cap reached): GPU in job 7 (bob)"
            " attempt 1 (verified)",
        ),
        ("failed", "node node3 suspect: drain FAILED: GPU in job 7 (bob) attempt 1 (verified)"),
        ("already_drained", None),  # someone's drain already: nothing to tell
        ("resumed", None),
        ("no-such-action", None),
    ],
)
def test_node_suspect_notice(action: str, text: str | None) -> None:
    notice = notices.node_suspect(
        workflow_id="ajr-local-7",
        cluster="local",
        job_id=7,
        job_name="",
        user="bob",
        attempt=1,
        node="node3",
        action=action,
        category="GPU",
        detail="verified",
        at=1.0,
    )
    if text is None:
        assert notice is None
        return
    assert notice is not None and notice.text == text
    assert notice.kind is NoticeKind.NODE_SUSPECT and notice.culprit_nodes == ["node3"]
    assert notice.event_id == "ajr-local-7/1/node_suspect/node3"  # once per node and attempt
