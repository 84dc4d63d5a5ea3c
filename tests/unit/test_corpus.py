"""The log engine measured on the labelled corpus, as `ajr check-log --json` runs it.

tests/corpus/ holds real excerpts (public issue threads and repositories, each cited) and logs
of real runs made here (bench/faultjob, the frameworks' own output), labelled by the policy in
LABELLING.md and split by source into tuning sets (rules were written against them: tune/,
and the former held-out sets heldout/, fresh/, heldout3/ to heldout32/) and a held-out set
(heldout33/: measured, never used to write rules). tests/corpus_eval.py scores
them; the README shows the tables. The floors below are the figures measured when they were last
changed: a rule change that loses ground fails here, and so does one that silently changes the
corpus.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.corpus_eval import CORPUS, SPLITS, labels, metrics, score, score_split

pytestmark = pytest.mark.unit

# Each known miss on the tuning set, with its reason; asserted exactly (a new miss fails, and so
# does a fixed one: move it out).
TUNE_KNOWN_MISSES = {
    # A DeepSpeed excerpt with three hours between two consecutive lines before its first
    # recognised step report: by the one-line-every-two-minutes contract that silence is a hang
    # (the labeller, who saw the thread, calls the job healthy; the excerpt cut its lines).
    "deepspeed_849.log",
    # Speed falls from ~95 to 46 and 23 samples/s in the last two reports before the excerpt
    # ends: a straggler is called only after `throughput_sustained` (10) reports below the
    # baseline, so that one slow interval never costs a healthy job its run.
    "mxnet-ssd_75.log",
    # The same rule, on real DeepSpeed runs with a slowed rank: the drop shows in 8 reports
    # (CurrSamplesPerSec ~1150 -> ~800) before the run ends...
    "deepspeed_gen_5.log",
    # ...and here it starts at the 5th of 12 reports, inside the baseline window, so the job's
    # own baseline is already the slow speed (rank 0's wall_clock_breakdown shows it waiting in
    # bwd_allreduce: a victim's view, which names no slow rank).
    "deepspeed_gen_3.log",
}
# Anomaly right, cause wrong (counted in attribution), each with its reason.
TUNE_KNOWN_WRONG_CAUSE = {
    # A lone "STEP 204.0 ON localhost CANCELLED AT ..." line (the user's session ended): in a
    # step's own log the same line is also what srun leaves when it ends a step after a task
    # died (its "task N: Killed" goes to the batch log), so a cancel without a reason is read
    # as a victim with the cause unknown (faultjob's sigkill_srun_1.log is that case).
    "shine-cluster_4.log",
}


def test_every_label_is_valid_and_no_source_is_in_two_sets() -> None:
    tool = Path(__file__).resolve().parents[1] / "corpus" / "tools" / "split.py"
    run = subprocess.run(
        [sys.executable, str(tool), "--check"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0 and run.stdout.strip().endswith("check: ok"), run.stdout + run.stderr


def test_a_thread_cited_under_an_explicit_group_is_still_one_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An explicit `group` names a source group, but the thread it cites is still the thread:
    cited in a second set, the check fails (four held-out excerpts slipped through before)."""
    import importlib.util

    tool = Path(__file__).resolve().parents[1] / "corpus" / "tools" / "split.py"
    spec = importlib.util.spec_from_file_location("corpus_split", tool)
    assert spec is not None and spec.loader is not None
    split = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(split)
    url = "https://github.com/example/train/issues/7"
    sets = {"tune": ("a.log", {"group": "first-corpus:a.log"}), "heldout": ("b.log", {})}
    for name, (log, extra) in sets.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / log).write_text("RuntimeError: boom\n")
        label = {
            "source": f"{url} (comment)",
            "anomaly": "CRASH",
            "category": "APPLICATION",
            "requeue": False,
            "culprit_nodes": [],
            "why": "its own error",
            **extra,
        }
        (tmp_path / name / "labels.json").write_text(json.dumps({log: label}))
    monkeypatch.setattr(split, "SPLITS", {name: tmp_path / name for name in sets})
    assert split.check_splits() == [f"source group in both splits: {url}"]


def test_the_corpus_is_large_varied_and_mostly_public() -> None:
    everything = {name: lab for split in SPLITS for name, lab in labels(split).items()}
    public = [lab for lab in everything.values() if lab["source"].startswith("http")]
    assert len(public) >= 200
    groups = {lab.get("group") or lab["source"].split()[0] for lab in public}
    assert len(groups) >= 60
    classes = Counter(
        (lab.get("category") or "UNKNOWN") if lab["anomaly"] == "CRASH" else lab["anomaly"]
        for lab in everything.values()
    )
    for cls in ("GPU", "NODE", "NETWORK", "STORAGE", "APPLICATION", "SCHEDULER", "HANG"):
        assert classes[cls] >= 10, cls
    assert classes["STRAGGLER"] >= 10
    assert classes["NONE"] >= 40
    # the former held-out sets and the current one: a third of the corpus was drawn held out
    held = sum(len(labels(s)) for s in SPLITS if s != "tune")
    assert held * 3 >= len(everything)


def test_tuning_set() -> None:
    scored = score_split("tune")
    m = metrics(scored)
    misses = {s.name for s in scored if not s.anomaly_ok}
    assert misses == TUNE_KNOWN_MISSES
    wrong_cause = {s.name for s in scored if s.attribution_labelled and s.anomaly_ok}
    wrong_cause -= {s.name for s in scored if s.attribution_ok}
    assert wrong_cause == TUNE_KNOWN_WRONG_CAUSE
    assert m.anomaly.value >= 0.98  # 262 of 266
    assert m.attribution.value >= 0.99
    assert m.requeue.value >= 0.98  # 182 of 185
    assert m.culprits.value >= 0.99
    assert m.false_alarms == 1


# The former held-out sets, tuning data since the next one began to be drawn (their misses were
# studied): split -> (anomaly right, attribution right, requeue right, false alarms at most), as
# counts, with what each read while it was held out.
FORMER_HELDOUT_FLOORS = {
    "heldout": (95, 58, 73, 0),  # held out until heldout3/ was drawn
    "fresh": (86, 38, 57, 0),  # held out until heldout3/ was drawn
    "heldout3": (41, 29, 31, 0),  # 0.88/0.79/0.87, 1 of 10 while held out
    "heldout4": (63, 39, 48, 0),  # 0.89/0.71/0.82, then 0.89/0.73/0.84, 0 of 15
    # 0.85/0.71/0.85, 2 of 15; the alarm: a retried HDF5 read. Round 18: megatron-bridge_1656
    # (hangs after "[after training is done]" until its time limit) is now HANG, as labelled,
    # and not requeued (done means done: analysis/finish.py), where its label says requeue
    "heldout5": (53, 26, 36, 1),
    "heldout6": (42, 24, 30, 1),  # 0.81/0.68/0.81, 1 of 12; the alarm: a survived worker segfault
    "heldout7": (48, 28, 35, 0),  # 0.92/0.83/0.89, 1 of 13; after round 31: 0.98/0.97/0.97, 0
    "heldout8": (45, 29, 34, 0),  # 0.83/0.75/0.91, 3 of 14
    "heldout9": (44, 28, 30, 1),  # 0.87/0.80/0.87, 2 of 16; the alarm: MLPerf's RESULT date
    "heldout10": (40, 23, 29, 0),  # 0.93/0.72/0.83, 0 of 11
    "heldout11": (38, 21, 29, 0),  # 0.80/0.68/0.71, 1 of 9
    "heldout12": (34, 20, 27, 0),  # 0.72/0.50/0.63, 2 of 9; after round 13: 0.87/0.91/0.90, 0
    "heldout13": (37, 21, 33, 1),  # 0.88/0.68/0.83, 2 of 5; after round 14: 0.93/0.84/0.94, 1
    "heldout14": (35, 21, 27, 0),  # 0.85/0.54/0.68, 0 of 8; after round 15: 0.90/0.88/0.87, 0
    "heldout15": (25, 9, 19, 0),  # 0.80/0.73/0.79, 1 of 6; after round 16: 1.00/0.82/1.00, 0
    "heldout16": (32, 18, 25, 0),  # 0.91/0.79/0.81, 0 of 6; after round 17: 1.00/0.95/0.96, 0
    "heldout17": (29, 16, 20, 0),  # 0.77/0.62/0.71, 3 of 9; after round 18: 0.97/1.00/0.95, 0
    "heldout18": (33, 20, 26, 1),  # 0.82/0.70/0.92, 2 of 8; after round 20: 0.97/1.00/1.00, 1
    "heldout19": (26, 15, 21, 1),  # 0.70/1.00/0.86, 4 of 6; after round 21: 0.96/1.00/1.00, 1
    "heldout20": (25, 14, 20, 0),  # 0.84/0.86/1.00, 2 of 5; after round 27: 1.00/1.00/1.00, 0
    "heldout21": (38, 19, 27, 2),  # 0.86/0.90/0.90, 3 of 13; after round 22: 0.90/0.95/0.93, 2
    "heldout22": (44, 22, 32, 1),  # 0.79/0.71/0.79, 4 of 14; after round 28: 0.92/0.92/0.94, 1
    "heldout23": (45, 22, 30, 1),  # 0.87/0.74/0.84, 2 of 15; after round 24: 0.98/0.96/0.97, 1
    "heldout24": (40, 19, 28, 2),  # 0.84/0.90/0.81, 3 of 14; after round 25: 0.89/0.95/0.90, 2
    "heldout25": (47, 25, 34, 1),  # 0.90/0.92/0.91, 2 of 14; after round 26: 0.96/0.96/0.97, 1
    "heldout26": (44, 23, 32, 1),  # 0.83/0.83/0.88, 2 of 15; after round 27: 0.94/0.96/1.00, 1
    "heldout27": (43, 27, 32, 0),  # 1.00/0.96/1.00, 0 of 11; after round 28: 1.00/1.00/1.00, 0
    "heldout28": (63, 36, 49, 0),  # 0.97/0.92/0.94, 0 of 14; after round 29: 1.00/1.00/1.00, 0
    "heldout29": (85, 47, 64, 1),  # 0.89/0.81/0.86, 2 of 22; after round 31: 0.98/1.00/0.98, 1
    "heldout30": (64, 33, 48, 0),  # 0.95/0.88/0.98, 2 of 16; after round 31: 1.00/0.97/1.00, 0
    "heldout31": (60, 25, 41, 0),  # 0.88/0.56/0.78, 1 of 20; after round 32: 0.92/0.74/0.91, 0
    "heldout32": (59, 30, 45, 3),  # 0.86/0.88/0.93, 3 of 20; after round 33: 0.89/0.94/0.98, 3
}


@pytest.mark.parametrize("split", sorted(FORMER_HELDOUT_FLOORS))
def test_former_heldout_set_meets_its_floor(split: str) -> None:
    anomaly, attribution, requeue, false_alarms = FORMER_HELDOUT_FLOORS[split]
    m = metrics(score_split(split))
    assert m.anomaly.hits >= anomaly, m.anomaly
    assert m.attribution.hits >= attribution, m.attribution
    assert m.requeue.hits >= requeue, m.requeue
    assert m.false_alarms <= false_alarms


def test_every_former_heldout_set_has_a_floor() -> None:
    from tests.corpus_eval import TUNING

    assert set(FORMER_HELDOUT_FLOORS) == set(TUNING) - {"tune"}


def test_the_heldout_set_keeps_its_measured_figures() -> None:
    """heldout33/ as measured once before round 33's rules and once after them, alike
    (0.83/0.79/0.88, 6 false alarms of 20): a later change that loses ground on the held-out set
    fails here, without listing any miss."""
    m = metrics(score_split("heldout33"))
    assert m.anomaly.hits >= 57, m.anomaly  # of 69: 0.83
    assert m.attribution.hits >= 30, m.attribution  # of 38: 0.79
    assert m.requeue.hits >= 43, m.requeue  # of 49: 0.88
    assert m.false_alarms <= 6  # of 20


@pytest.mark.parametrize("split", SPLITS)
def test_every_anomaly_has_a_verdict_and_an_attribution(split: str) -> None:
    """`check-log --json` never answers `requeue: null` or `attribution: null` for an anomaly."""
    for name in labels(split):
        scored = score(split, name)
        if scored.anomaly != "NONE":
            assert scored.requeue in (True, False), name
            assert scored.category, name


FRAMEWORKS = CORPUS / "frameworks"


@pytest.mark.parametrize("name", sorted(json.loads((FRAMEWORKS / "labels.json").read_text())))
def test_framework_logs_raise_no_false_alarm(name: str) -> None:
    """Real runs of HF Trainer, Accelerate, Lightning, DeepSpeed, DCP, torchtitan, Megatron."""
    from models.recovery import RecoveryConfig
    from worker.checklog import run_check_log

    label = json.loads((FRAMEWORKS / "labels.json").read_text())[name]
    report, _ = run_check_log(str(FRAMEWORKS / name), RecoveryConfig())
    got = report.anomaly.kind if report.anomaly else "NONE"
    assert got == label["anomaly"], report.anomaly


def test_a_former_heldout_set_is_tuning_data() -> None:
    """heldout32/ became tuning data when heldout33/ began to be drawn; it is no longer refused."""
    from tests.corpus_eval import HELDOUT, TUNING

    assert {"heldout31", "heldout32"} <= set(TUNING)
    assert not {"heldout31", "heldout32"} & set(HELDOUT)


def test_the_heldout_sets_misses_are_never_listed(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.corpus_eval import HELDOUT, main

    assert HELDOUT == ("heldout33",)
    assert main([HELDOUT[0], "--misses"]) == 2
    assert "not listed" in capsys.readouterr().err


def test_the_tuning_sets_are_scored_together(capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m tests.corpus_eval tuning`: the README's per-class table of every tuning set."""
    from tests.corpus_eval import TUNING, main

    assert main(["tuning"]) == 0
    n = sum(len(labels(split)) for split in TUNING)
    assert f"/{n})" in capsys.readouterr().out  # the anomaly line counts every tuning log
