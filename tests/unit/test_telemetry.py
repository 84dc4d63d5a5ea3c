"""Training telemetry library records: parsed from the library's real output, read by LogEngine."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.analyzer import AnalyzerContext, Finding
from analysis.engine import LogEngine
from analysis.telemetry import (
    CheckpointLoad,
    CheckpointSave,
    Error,
    Iteration,
    interpret,
    parse_record,
)
from models.recovery import Observed

pytestmark = pytest.mark.unit

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "tune"


def lines(name: str) -> list[str]:
    return (CORPUS / name).read_text().splitlines()


def events(name: str) -> list[Iteration | CheckpointSave | Error]:
    out = []
    for line in lines(name):
        record = parse_record(line)
        if record is not None and (event := interpret(record)) is not None:
            out.append(event)
    return out


def test_real_output_parses_into_iterations_saves_and_errors() -> None:
    got = events("telemetry_runtime_error.log")
    iterations = [e for e in got if isinstance(e, Iteration)]
    assert [e.iteration for e in iterations] == list(range(10, 120, 10))
    assert {e.tflops for e in iterations} == {386.7, 385.9}
    assert all(e.loss is not None and 0 < e.loss < 2.5 for e in iterations)
    saves = [e for e in got if isinstance(e, CheckpointSave)]
    assert saves == [CheckpointSave(True, 50), CheckpointSave(True, 100)]
    errors = [e for e in got if isinstance(e, Error)]
    # The same exception, recorded by the training loop span and then by the main function's.
    assert [(e.exc_type, e.span, e.rank) for e in errors] == [
        ("RuntimeError", "training_loop", 0),
        ("RuntimeError", "main_function", 0),
    ]
    assert errors[0].message == "shape mismatch: value tensor of shape [8] cannot be broadcast"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2026-11-22 00:21:22,442 - training_telemetry - INFO - Initializing recorder", None),
        ("plain training output mentioning training_telemetry [type=", None),
        (
            "x - training_telemetry_rank3 - INFO - [type=event | name=training_loop | "
            "event.name=training_iterations | event.metrics.tflops=nan | "
            "event.metrics.current_iteration=7 | count=3]",
            Iteration(7, None, None),
        ),
        (
            "x - training_telemetry_rank1 - INFO - [type=error | name=checkpoint_save_sync | "
            'event.name=error | event.exception_type="OSError" | '
            'event.exception_message="[Errno 28] No space | left on device" | count=9]',
            Error("OSError", "[Errno 28] No space | left on device", "checkpoint_save_sync", 1),
        ),
        (
            "x - training_telemetry_rank0 - INFO - [type=error | name=training_loop | "
            'event.name=error | event.error_message="loss went up" | count=4]',
            Error("", "loss went up", "training_loop", 0),
        ),
        (
            "x - training_telemetry_rank0 - INFO - [type=start | name=checkpoint_save_sync | "
            "event.metrics.current_iteration=40 | count=5]",
            CheckpointSave(False, 40),
        ),
        (
            "x - training_telemetry_rank0 - INFO - [type=complete | name=checkpoint_load | "
            "stop_event.metrics.current_iteration=200 | count=3]",
            CheckpointLoad(True, 200),
        ),
    ],
)
def test_interpret(
    line: str, expected: Iteration | CheckpointSave | CheckpointLoad | Error | None
) -> None:
    record = parse_record(line)
    assert (interpret(record) if record is not None else None) == expected


def replay(name: str) -> tuple[LogEngine, list[Finding], bool]:
    engine = LogEngine(AnalyzerContext())
    found = [f for line in lines(name) if (f := engine.feed(line, 1000.0)) is not None]
    immediate = bool(found)
    later = engine.silence(40.0, 1040.0)
    if later is not None and later.kind is not Observed.HANG:
        found.append(later)
    return engine, found, immediate


@pytest.mark.parametrize(
    ("name", "kind", "category", "checkpoints", "iteration"),
    [
        ("telemetry_healthy.log", None, None, 2, 120),
        ("telemetry_runtime_error.log", Observed.CRASH, "APPLICATION", 2, 110),
        ("telemetry_throughput_drop.log", Observed.STRAGGLER, "UNKNOWN", 6, 320),
    ],
)
def test_engine_reads_real_telemetry_output(
    name: str, kind: Observed | None, category: str | None, checkpoints: int, iteration: int
) -> None:
    engine, found, immediate = replay(name)
    assert engine.checkpoints == checkpoints
    assert engine.iteration == iteration
    assert engine.phase == "training"
    if kind is None:
        assert found == []
        return
    assert [f.kind for f in found] == [kind]
    assert found[0].category == category
    assert immediate  # an error that left the training loop, a confirmed drop: no waiting


def test_telemetry_error_is_one_signal_with_its_type() -> None:
    engine, (finding,), _ = replay("telemetry_runtime_error.log")
    assert finding.requeue_warranted is False  # a shape mismatch recurs on every attempt
    assert "RuntimeError: shape mismatch" in finding.summary
    assert "first cause of" not in finding.summary  # the outer span's record is no new signal
    attribution = engine.last_attribution
    assert attribution is not None and attribution.root is not None
    assert attribution.root.detail == "RuntimeError"


def test_an_inner_span_error_waits_for_the_loop() -> None:
    engine = LogEngine(AnalyzerContext())
    inner = (
        "x - training_telemetry_rank0 - INFO - [type=error | name=checkpoint_save_sync | "
        'event.name=error | event.exception_type="OSError" | '
        'event.exception_message="[Errno 5] Input/output error" | count=9]'
    )
    outer = inner.replace("checkpoint_save_sync", "training_loop")
    assert engine.feed(inner, 1.0) is None  # the application may catch it and go on
    finding = engine.feed(outer, 1.1)  # it left the training loop: certain
    assert finding is not None and finding.kind is Observed.CRASH
    assert finding.category == "STORAGE"
