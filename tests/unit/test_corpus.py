"""Replays the labelled real-log excerpts of tests/corpus through LogEngine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from activities.logs.analyzer import AnalyzerContext
from activities.logs.engine import LogEngine
from activities.logs.scanner import LogScanner
from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS

pytestmark = pytest.mark.unit

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
LABELS: dict[str, dict[str, Any]] = json.loads((CORPUS / "labels.json").read_text())


def test_every_log_has_a_label_with_a_source() -> None:
    logs = sorted(p.name for p in CORPUS.glob("*.log"))
    assert logs == sorted(LABELS)
    assert all(label["source"] for label in LABELS.values())


@pytest.mark.parametrize("name", sorted(LABELS))
def test_corpus_file(name: str) -> None:
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
    # The poll after the confirmation window: deferred crashes surface here.
    later = engine.silence(40.0, 1040.0)
    if later is not None and later.kind.value != "HANG":
        findings.append(later)

    assert engine.checkpoints == label["checkpoints"]
    if label["finding"] is None:
        assert findings == []
        return
    assert len(findings) == 1
    finding = findings[0]
    assert finding.kind.value == label["finding"]
    assert immediate is label["immediate"]
    assert finding.category == label["category"]
    assert list(finding.culprit_nodes) == label["culprit_nodes"]
    attribution = engine.last_attribution
    assert attribution is not None and attribution.root is not None
    assert attribution.root.name == label["root"]
    if "suspect_nodes" in label:
        assert list(attribution.suspect_nodes) == label["suspect_nodes"]
