"""Scoring ajr's log engine on the labelled corpus, as a detector is scored: per split, per class.

Every log goes through `worker.checklog.run_check_log`, i.e. exactly what `ajr check-log --json`
does with the default settings (the engine the watcher runs, and the recovery policy's verdict),
given what the label says the log cannot show by itself: the job's nodes and, for a log that
just stops, how long it then stayed silent while its job ran on (`silence_s`; a log whose
reporter says the job hung without saying how long is taken as silent for an hour, the way the
replay harness keeps such a job alive and quiet; every other log ends with its job).

    python -m tests.corpus_eval tune --misses      # per-class table and every miss (tuning set)
    python -m tests.corpus_eval heldout32 --misses  # heldout/ to heldout32/: tuning data now
    python -m tests.corpus_eval heldout33          # the held-out set: per-class table only
    python -m tests.corpus_eval tuning             # every tuning set together (README's table)

The held-out sets (`HELDOUT`) are for measuring, never for writing rules: the CLI refuses to list
their misses.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from activities.logs.checklog import CheckReport
from models.recovery import RecoveryConfig
from worker.checklog import Verdict, run_check_log

CORPUS = Path(__file__).resolve().parent / "corpus"
# The held-out sets: measured, never used to write rules (their misses are not listed).
# heldout/ and fresh/ were held out until heldout3/ was drawn, heldout3/ until heldout4/ was being
# drawn, heldout4/ until heldout5/ was being drawn, heldout5/ until heldout6/ was being drawn,
# heldout6/ until heldout7/ was being drawn, and so on to heldout32/ until heldout33/ was being
# drawn; since then each one's misses were studied to write rules, so they are tuning data.
# heldout33/ is the held-out set now: drawn and labelled without running the engine on it,
# committed before it was measured.
HELDOUT: tuple[str, ...] = ("heldout33",)
TUNING = (
    "tune", "heldout", "fresh", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7",
    "heldout8", "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14",
    "heldout15", "heldout16", "heldout17", "heldout18", "heldout19", "heldout20", "heldout21",
    "heldout22", "heldout23", "heldout24", "heldout25", "heldout26", "heldout27",
    "heldout28", "heldout29", "heldout30", "heldout31", "heldout32",
)  # fmt: skip
SPLITS = TUNING + HELDOUT
CLASSES = (
    "GPU", "NODE", "NETWORK", "STORAGE", "APPLICATION", "SCHEDULER", "UNKNOWN",
    "HANG", "STRAGGLER", "NONE",
)  # fmt: skip


def labels(split: str) -> dict[str, dict[str, Any]]:
    loaded: dict[str, dict[str, Any]] = json.loads((CORPUS / split / "labels.json").read_text())
    return loaded


def klass(anomaly: str, category: str | None) -> str:
    """CRASH logs count by their category, the others by their anomaly."""
    if anomaly == "CRASH":
        return category or "UNKNOWN"
    return anomaly


@dataclass(frozen=True)
class Scored:
    name: str
    label: dict[str, Any]
    anomaly: str
    category: str | None
    requeue: bool | None
    culprit_nodes: tuple[str, ...]
    summary: str

    @property
    def expected(self) -> str:
        return klass(self.label["anomaly"], self.label.get("category"))

    @property
    def predicted(self) -> str:
        return klass(self.anomaly, self.category)

    @property
    def anomaly_ok(self) -> bool:
        return self.anomaly == self.label["anomaly"]

    @property
    def attribution_labelled(self) -> bool:
        return self.label["anomaly"] != "NONE" and self.label.get("category") is not None

    @property
    def attribution_ok(self) -> bool:
        return self.anomaly_ok and self.category == self.label.get("category")

    @property
    def requeue_ok(self) -> bool:
        return self.requeue is not None and self.requeue == self.label["requeue"]

    @property
    def culprits_ok(self) -> bool:
        return set(self.culprit_nodes) == set(self.label.get("culprit_nodes") or ())


HUNG_FOR_S = 3600.0


def silence_after(label: dict[str, Any]) -> float:
    """How long the job stayed alive and silent after the excerpt's last line."""
    if label.get("silence_s"):
        return float(label["silence_s"])
    return HUNG_FOR_S if label["anomaly"] == "HANG" else 0.0


@cache
def check(split: str, name: str) -> tuple[CheckReport, Verdict | None]:
    """`ajr check-log` on a corpus log as its label describes the job: its nodes, and how long
    it sat silent after the last line."""
    label = labels(split)[name]
    return run_check_log(
        str(CORPUS / split / name),
        RecoveryConfig(),
        nodes=tuple(label.get("job_nodes") or ()),
        silent_for=silence_after(label),
    )


def score(split: str, name: str) -> Scored:
    label = labels(split)[name]
    report, verdict = check(split, name)
    first = report.anomaly
    return Scored(
        name=name,
        label=label,
        anomaly=first.kind if first else "NONE",
        category=str(first.category) if first else None,
        requeue=verdict.requeue if verdict else None,
        culprit_nodes=tuple(first.culprit_nodes) if first else (),
        summary=first.summary if first else "",
    )


def score_split(split: str) -> list[Scored]:
    return [score(split, name) for name in sorted(labels(split))]


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion (sound for small n and for 0 or n)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    hits: int
    n: int

    @property
    def value(self) -> float:
        return self.hits / self.n if self.n else float("nan")

    def __str__(self) -> str:
        if not self.n:
            return "-"
        low, high = wilson(self.hits, self.n)
        return f"{self.value:.2f} [{low:.2f}-{high:.2f}] ({self.hits}/{self.n})"


@dataclass
class Metrics:
    logs: int
    anomaly: Rate
    attribution: Rate
    requeue: Rate
    culprits: Rate
    false_alarms: int
    healthy: int
    precision: dict[str, Rate] = field(default_factory=dict)
    recall: dict[str, Rate] = field(default_factory=dict)


def metrics(scored: list[Scored]) -> Metrics:
    truth = Counter(s.expected for s in scored)
    said = Counter(s.predicted for s in scored)
    right = Counter(s.expected for s in scored if s.expected == s.predicted)
    attributed = [s for s in scored if s.attribution_labelled]
    anomalous = [s for s in scored if s.label["anomaly"] != "NONE"]
    named = [s for s in anomalous if s.label.get("culprit_nodes")]
    healthy = [s for s in scored if s.label["anomaly"] == "NONE"]
    return Metrics(
        logs=len(scored),
        anomaly=Rate(sum(s.anomaly_ok for s in scored), len(scored)),
        attribution=Rate(sum(s.attribution_ok for s in attributed), len(attributed)),
        requeue=Rate(sum(s.requeue_ok for s in anomalous), len(anomalous)),
        culprits=Rate(sum(s.culprits_ok for s in named), len(named)),
        false_alarms=sum(s.anomaly != "NONE" for s in healthy),
        healthy=len(healthy),
        precision={c: Rate(right[c], said[c]) for c in CLASSES},
        recall={c: Rate(right[c], truth[c]) for c in CLASSES},
    )


def table(m: Metrics) -> list[str]:
    """The README's table: per class n, precision and recall with 95% intervals."""
    rows = ["| class | n | precision [95% CI] | recall [95% CI] |", "|---|---|---|---|"]
    for c in CLASSES:
        if m.recall[c].n or m.precision[c].n:
            rows.append(f"| {c} | {m.recall[c].n} | {m.precision[c]} | {m.recall[c]} |")
    rows += [
        "",
        f"- anomaly right: {m.anomaly}",
        f"- attribution right (where labelled): {m.attribution}",
        f"- requeue verdict right: {m.requeue}",
        f"- culprit nodes right (where the log names them): {m.culprits}",
        f"- false alarms on healthy logs: {m.false_alarms} of {m.healthy}",
    ]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", choices=(*SPLITS, "tuning"))
    parser.add_argument("--misses", action="store_true", help="list every miss (tuning set)")
    args = parser.parse_args(argv)
    if args.misses and args.split in HELDOUT:
        print("the held-out set is for measuring: its misses are not listed", file=sys.stderr)
        return 2
    splits = TUNING if args.split == "tuning" else (args.split,)
    for split in splits:
        if not (CORPUS / split / "labels.json").is_file():
            print(f"no labelled set {split}/ in {CORPUS}", file=sys.stderr)
            return 2
    scored = [s for split in splits for s in score_split(split)]
    print("\n".join(table(metrics(scored))))
    if args.misses:
        for s in scored:
            if not (s.anomaly_ok and (s.attribution_ok or not s.attribution_labelled)) or (
                s.label["anomaly"] != "NONE" and not s.requeue_ok
            ):
                print(
                    f"MISS {s.name}: label {s.label['anomaly']}/{s.label.get('category')}"
                    f"/{s.label['requeue']} got {s.anomaly}/{s.category}/{s.requeue}"
                    f" :: {s.summary[:160]}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
