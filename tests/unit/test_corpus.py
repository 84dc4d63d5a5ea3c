"""Replays tests/corpus through LogEngine: labels, precision, recall."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from activities.logs.scanner import LogScanner
from analysis.analyzer import AnalyzerContext, Finding
from analysis.engine import LogEngine
from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS

pytestmark = pytest.mark.unit

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
LABELS: dict[str, dict[str, Any]] = json.loads((CORPUS / "labels.json").read_text())
# Files the engine is known to get wrong, each with its reason in labels.json. Asserted exactly:
# a new miss fails the suite, and so does a fixed one (move it out of this set).
KNOWN_MISSES = {"salloc_node_failure.log"}
HEALTHY = "none"
CLASSES = (
    "GPU", "NODE", "NETWORK", "STORAGE", "APPLICATION", "SCHEDULER", "HANG", "STRAGGLER", HEALTHY,
)  # fmt: skip


@dataclass(frozen=True)
class Replay:
    findings: tuple[Finding, ...]
    immediate: bool
    engine: LogEngine


@cache
def replay(name: str) -> Replay:
    label = LABELS[name]
    engine = LogEngine(
        AnalyzerContext(
            job_nodes=tuple(label.get("job_nodes", ())),
            checkpoint_patterns=DEFAULT_CHECKPOINT_PATTERNS,
        )
    )
    with LogScanner(str(CORPUS / name)) as scanner:
        lines = scanner.read_lines()
    assert lines
    findings = [f for line in lines if (f := engine.feed(line, 1000.0)) is not None]
    immediate = bool(findings)
    # The poll after the confirmation window: deferred crashes surface here. A HANG is looked
    # for only where the label gives the silence to wait (40 s is never a hang).
    silence = float(label.get("silence_s", 40.0))
    later = engine.silence(silence, 1000.0 + silence)
    if later is not None and (later.kind.value != "HANG" or "silence_s" in label):
        findings.append(later)
    return Replay(tuple(findings), immediate, engine)


def expected_class(label: dict[str, Any]) -> str:
    if label["finding"] is None:
        return HEALTHY
    if label["finding"] in ("HANG", "STRAGGLER"):
        return str(label["finding"])
    return str(label["category"])


def predicted_class(findings: tuple[Finding, ...]) -> str:
    if not findings:
        return HEALTHY
    first = findings[0]
    return first.kind.value if first.kind.value in ("HANG", "STRAGGLER") else first.category


def test_every_log_has_a_label_with_a_source() -> None:
    logs = sorted(p.name for p in CORPUS.glob("*.log"))
    assert logs == sorted(LABELS)
    assert all(label["source"] for label in LABELS.values())
    # Every known miss says why, and nothing else claims to be one.
    assert {n for n, label in LABELS.items() if "known_miss" in label} == KNOWN_MISSES


def test_every_class_is_covered() -> None:
    counts = Counter(expected_class(label) for label in LABELS.values())
    assert set(counts) == set(CLASSES)
    assert counts[HEALTHY] >= 4


@pytest.mark.parametrize("name", sorted(LABELS))
def test_corpus_file(name: str) -> None:
    label = LABELS[name]
    result = replay(name)
    findings = result.findings
    if name in KNOWN_MISSES:
        assert predicted_class(findings) != expected_class(label)  # still missed: keep it listed
        return
    assert result.engine.checkpoints == label["checkpoints"]
    if label["finding"] is None:
        assert findings == ()
        return
    assert len(findings) == 1
    finding = findings[0]
    assert finding.kind.value == label["finding"]
    if label["finding"] == "HANG":
        return
    assert result.immediate is label["immediate"]
    assert finding.category == label["category"]
    assert list(finding.culprit_nodes) == label["culprit_nodes"]
    if "requeue" in label:
        assert finding.requeue_warranted is label["requeue"]
    if label["finding"] == "STRAGGLER":
        return
    attribution = result.engine.last_attribution
    assert attribution is not None and attribution.root is not None
    assert attribution.root.name == label["root"]
    if "suspect_nodes" in label:
        assert list(attribution.suspect_nodes) == label["suspect_nodes"]


def test_healthy_logs_produce_no_anomaly() -> None:
    healthy = [n for n, label in LABELS.items() if label["finding"] is None]
    assert len(healthy) >= 4
    for name in healthy:
        assert replay(name).findings == (), name


def precision_recall() -> dict[str, tuple[int, int, int]]:
    """Per class: (true positives, predicted as the class, labelled as the class)."""
    tp: Counter[str] = Counter()
    predicted: Counter[str] = Counter()
    actual: Counter[str] = Counter()
    for name, label in LABELS.items():
        want, got = expected_class(label), predicted_class(replay(name).findings)
        actual[want] += 1
        predicted[got] += 1
        tp[want] += want == got
    return {c: (tp[c], predicted[c], actual[c]) for c in CLASSES}


def test_precision_and_recall_per_class() -> None:
    table = precision_recall()
    print("\nclass        n  TP  precision  recall")
    for cls, (tp, predicted, actual) in table.items():
        precision = tp / predicted if predicted else 1.0
        recall = tp / actual if actual else 1.0
        print(f"{cls:<11} {actual:>2} {tp:>3}  {precision:>9.2f}  {recall:>6.2f}")
    misses = {
        n
        for n, label in LABELS.items()
        if predicted_class(replay(n).findings) != expected_class(label)
    }
    assert misses == KNOWN_MISSES
    # A healthy log flagged would be a false positive on HEALTHY's recall: none allowed.
    tp, _, actual = table[HEALTHY]
    assert tp == actual
