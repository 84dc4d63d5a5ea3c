"""Production settings: the Temporal client's TLS/mTLS and API key, JSON log lines, and
what `ajr status` says a job in observe-only mode would have had done."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from temporalio.service import TLSConfig

from models.recovery import Action, AttemptRecord, Observed
from worker.config import Settings
from worker.logs import JsonFormatter, job_fields
from worker.main import tls_config
from worker.status import would_have_done


@pytest.fixture
def certs(tmp_path: Path) -> dict[str, Path]:
    files = {"ca": b"CA PEM", "cert": b"CLIENT PEM", "key": b"KEY PEM"}
    paths = {}
    for name, content in files.items():
        paths[name] = tmp_path / f"{name}.pem"
        paths[name].write_bytes(content)
    return paths


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({}, False),
        ({"temporal_tls": True}, True),
        ({"temporal_api_key": "secret"}, True),  # API keys only travel over TLS
        (
            {"temporal_tls_ca_cert": "ca"},
            TLSConfig(server_root_ca_cert=b"CA PEM"),
        ),
        (
            {
                "temporal_tls_ca_cert": "ca",
                "temporal_tls_client_cert": "cert",
                "temporal_tls_client_key": "key",
                "temporal_tls_server_name": "temporal.example.org",
            },
            TLSConfig(
                server_root_ca_cert=b"CA PEM",
                client_cert=b"CLIENT PEM",
                client_private_key=b"KEY PEM",
                domain="temporal.example.org",
            ),
        ),
        (
            {"temporal_tls": True, "temporal_tls_server_name": "t.example.org"},
            TLSConfig(domain="t.example.org"),
        ),
    ],
)
def test_tls_config(settings: dict[str, Any], expected: object, certs: dict[str, Path]) -> None:
    values = {k: certs.get(v, v) if isinstance(v, str) else v for k, v in settings.items()}
    assert tls_config(Settings(**values)) == expected


def test_client_cert_without_key_is_refused(certs: dict[str, Path]) -> None:
    with pytest.raises(ValidationError, match="go together"):
        Settings(temporal_tls_client_cert=certs["cert"])


def test_api_key_is_not_printed() -> None:
    settings = Settings(temporal_api_key="very-secret")
    assert "very-secret" not in repr(settings)


@pytest.mark.parametrize(
    ("workflow_id", "fields"),
    [
        ("ajr-local-42", {"cluster": "local", "job_id": 42}),
        ("ajr-my-cluster.1-7", {"cluster": "my-cluster.1", "job_id": 7}),
        ("something-else", {}),
        ("ajr-local-notanumber", {}),
    ],
)
def test_job_fields_from_workflow_id(workflow_id: str, fields: dict[str, Any]) -> None:
    assert job_fields(workflow_id) == fields


def test_json_line_carries_temporal_context_and_extras() -> None:
    record = logging.LogRecord("ajr.x", logging.WARNING, __file__, 1, "job %s: %s", (42, "x"), None)
    record.temporal_workflow = {"workflow_id": "ajr-c1-42", "run_id": "r1"}
    record.attempt = 3
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "job 42: x"
    assert line["level"] == "WARNING"
    assert (line["workflow_id"], line["run_id"], line["job_id"], line["cluster"]) == (
        "ajr-c1-42",
        "r1",
        42,
        "c1",
    )
    assert line["attempt"] == 3


def _record(attempt: int, action: Action, reasons: list[str], *, acted: bool) -> AttemptRecord:
    return AttemptRecord(
        attempt=attempt, observed=Observed.CRASH, action=action, acted=acted, reasons=reasons
    )


@pytest.mark.parametrize(
    ("attempts", "expected"),
    [
        ([], ""),
        ([_record(0, Action.REQUEUE, ["crash", "requeue 1 of 1"], acted=True)], ""),
        (
            [_record(0, Action.REQUEUE, ["segfault", "observe-only: not acting"], acted=False)],
            "observe-only, would requeue attempt 0: segfault",
        ),
        # Paused, not observe-only: not a rollout finding.
        ([_record(0, Action.REQUEUE, ["x", "paused: not acting"], acted=False)], ""),
        (
            [
                _record(0, Action.REQUEUE, ["first", "observe-only: not acting"], acted=False),
                _record(0, Action.WATCH, ["keep watching"], acted=False),
                _record(0, Action.CANCEL, ["limit", "observe-only: not acting"], acted=False),
            ],
            "observe-only, would cancel attempt 0: limit",
        ),
    ],
)
def test_would_have_done(attempts: list[AttemptRecord], expected: str) -> None:
    assert would_have_done(attempts) == expected


def test_json_line_drops_temporals_context_suffix() -> None:
    message = "job 42: release ({'attempt': 1, 'workflow_id': 'ajr-c1-42'})"
    record = logging.LogRecord("temporalio.workflow", logging.INFO, __file__, 1, message, (), None)
    record.temporal_workflow = {"workflow_id": "ajr-c1-42", "run_id": "r1"}
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "job 42: release"
    assert line["job_id"] == 42
    plain = logging.LogRecord("x", logging.INFO, __file__, 1, "a ({'b': 1})", (), None)
    assert json.loads(JsonFormatter().format(plain))["message"] == "a ({'b': 1})"
