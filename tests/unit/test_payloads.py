"""ajr's data converter reads what earlier releases wrote, and today's payloads unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from temporalio.converter import DataConverter

from models.categories import Category
from models.payloads import DATA_CONVERTER, LEGACY_BARE_VALUES
from models.recovery import (
    CancelResult,
    MaxRequeuesRequest,
    Observation,
    Observed,
    RecordResult,
    RequeueResult,
    StopRequest,
    SuspectsResult,
)
from models.slurm import JobState
from models.suspects import Suspect

pytestmark = pytest.mark.unit


def read(value: Any, hint: type, converter: DataConverter = DATA_CONVERTER) -> Any:
    """`value` as an earlier release (or the temporal CLI) wrote it, read as `hint`."""
    payload = DataConverter.default.payload_converter.to_payload(value)
    return converter.payload_converter.from_payload(payload, hint)


LEGACY = {
    "requeued: no ended state": (
        {"requeued": True, "restart_count": 1, "ended_state": ""},
        RequeueResult,
        RequeueResult(requeued=True, restart_count=1, ended_state=None),
    ),
    "observation without a finding": (
        {"kind": "EXITED", "attempt": 0, "state": "FAILED", "category": ""},
        Observation,
        Observation(kind=Observed.EXITED, attempt=0, state=JobState.FAILED, category=None),
    ),
    "stop with a bare reason": ("maintenance", StopRequest, StopRequest("maintenance")),
    "max requeues as a bare number": (5, MaxRequeuesRequest, MaxRequeuesRequest(5)),
    "cancel detail as a bare string": ("cancelled", CancelResult, CancelResult("cancelled")),
    "record result as a bare bool": (False, RecordResult, RecordResult(written=False)),
    "suspects as a bare list": (
        [{"node": "node2", "jobs": [1, 2]}],
        SuspectsResult,
        SuspectsResult([Suspect("node2", [1, 2])]),
    ),
}


@pytest.mark.parametrize("value, hint, expected", LEGACY.values(), ids=LEGACY.keys())
def test_what_earlier_releases_wrote_is_read_as_todays_type(
    value: Any, hint: type, expected: Any
) -> None:
    assert read(value, hint) == expected
    with pytest.raises(Exception):  # noqa: B017 - Temporal's default converter cannot
        read(value, hint, DataConverter.default)


TODAY = [
    RequeueResult(requeued=False, ended_state=JobState.CANCELLED),
    Observation(kind=Observed.CRASH, attempt=2, category=Category.GPU),
    StopRequest("maintenance"),
    MaxRequeuesRequest(0),
    SuspectsResult([]),
    RecordResult(written=True),
]


@pytest.mark.parametrize("value", TODAY, ids=lambda v: type(v).__name__)
def test_todays_payloads_round_trip(value: Any) -> None:
    payload = DATA_CONVERTER.payload_converter.to_payload(value)
    assert DATA_CONVERTER.payload_converter.from_payload(payload, type(value)) == value


def test_bare_values_fill_the_dataclass_only_field_they_replaced() -> None:
    for cls, field_name in LEGACY_BARE_VALUES.items():
        required = [
            f.name
            for f in cls.__dataclass_fields__.values()
            if f.default is f.default_factory  # both MISSING: required
        ]
        assert required in ([], [field_name]), cls


def test_an_empty_string_is_never_a_member_of_a_payload_enum() -> None:
    for enum in (JobState, Observed, Category):
        assert "" not in {member.value for member in enum}
    with pytest.raises(Exception):  # noqa: B017 - a wrong value is still an error
        read({"kind": "EXITED", "attempt": 0, "state": "BOGUS"}, Observation)


def test_engine_settings_of_jobs_enrolled_by_an_earlier_release_are_kept() -> None:
    """A real workflow input from r1-baseline (hang test: hang_timeout 6 s, start-up 12 s):
    the engine's settings it carried at top level are read into `analysis`, not dropped."""
    from pathlib import Path

    from temporalio.client import WorkflowHistory

    from models.recovery import JobRecoveryInput

    path = Path(__file__).resolve().parents[1] / "histories/r1-baseline/hang-job0-run0.json"
    history = WorkflowHistory.from_json("hang", path.read_text())
    (payload,) = history.events[0].workflow_execution_started_event_attributes.input.payloads
    job = DATA_CONVERTER.payload_converter.from_payload(payload, JobRecoveryInput)
    settings = job.config.analysis
    assert (settings.hang_timeout_s, settings.setup_timeout_s) == (6.0, 12.0)
    assert any("checkpoint" in p.lower() for p in settings.checkpoint_patterns)
    assert job.config.hang_timeout_s is None  # moved, not kept twice
