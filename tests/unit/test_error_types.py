"""Every error type that crosses the Temporal boundary is classified, and everyone agrees on it.

The activities raise only `activity_error(ErrorType.X, ...)`; the retry policies stop at exactly
the non-retryable types; the workflow ends recovery with an outcome for each of those.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from temporalio.common import RetryPolicy

from models.errors import NON_RETRYABLE_TYPES, ErrorType
from workflows import options
from workflows.policy import STOPS_RECOVERY

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.glob("activities/**/*.py"), *ROOT.glob("workflows/*.py")])


def calls(name: str) -> list[tuple[Path, ast.Call]]:
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called == name:
                    found.append((path, node))
    return found


def error_type_member(node: ast.expr) -> str | None:
    """`X` for an argument written `ErrorType.X` (or `ErrorType.X.value`)."""
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "ErrorType"
    ):
        return node.attr
    return None


def test_every_raised_type_is_an_error_type_member() -> None:
    raised = calls("activity_error")
    assert len(raised) >= 10
    for path, call in raised:
        member = error_type_member(call.args[0])
        if member is None:  # a variable: it must hold an ErrorType chosen in the same module
            assert isinstance(call.args[0], ast.Name), (path, ast.unparse(call))
            continue
        assert member in ErrorType.__members__, (path, ast.unparse(call))


def test_application_errors_are_built_only_from_error_types() -> None:
    for path, call in calls("ApplicationError"):
        if path.name == "errors.py":
            continue  # activity_error itself
        (type_arg,) = [k.value for k in call.keywords if k.arg == "type"]
        assert "kind" in ast.unparse(type_arg) or error_type_member(type_arg), (
            path,
            ast.unparse(call),
        )


@pytest.mark.parametrize(
    "policy",
    [options.WATCH_RETRY, options.ACTION_RETRY, options.RECORD_RETRY],
    ids=["watch", "action", "record"],
)
def test_every_retry_policy_stops_at_exactly_the_non_retryable_types(policy: RetryPolicy) -> None:
    assert sorted(policy.non_retryable_error_types or []) == sorted(NON_RETRYABLE_TYPES)


@pytest.mark.parametrize("error_type", list(ErrorType), ids=lambda t: t.value)
def test_every_type_is_retried_or_ends_recovery_with_an_outcome(error_type: ErrorType) -> None:
    if error_type.retryable:
        assert error_type.value not in NON_RETRYABLE_TYPES
        assert error_type not in STOPS_RECOVERY
    else:
        assert error_type in STOPS_RECOVERY
