"""End to end on the real test cluster: a job checkpoints, crashes on a GPU, is requeued
excluding its node and completes; `ajr report` tells it, its downtime parts add up to the gap
the job itself measured between its last save and its checkpoint load (within 1 s), the PNG
timeline is drawn and the job_efficiency_records row is current."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session, select

from activities.database.engine import make_engine
from activities.database.tables import JobEfficiencyRecord
from models import search_attributes as sa
from models.recovery import Outcome
from tests.integration.test_notify import Receiver
from worker.report import load

pytestmark = pytest.mark.integration

# Attempt 0 trains, saves (noting the time by its own clock), trains on, then a GPU falls off
# the bus on its node; attempt 1 notes the time, loads the checkpoint and completes.
SCRIPT = """#!/bin/bash
#SBATCH -t 00:05:00
#SBATCH --comment='{{"APS": {{"auto_resume_mode": "requeue", "max_requeue_times": 2}}}}'
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
srun -l -u --output="$(pwd)/%x_%j_$DATETIME.log" bash {step}
"""

STEP = r"""
if [ "$SLURM_RESTART_COUNT" = "" ] || [ "$SLURM_RESTART_COUNT" = "0" ]; then
  echo 'iteration 1/100 | elapsed time per iteration (ms): 500.0 | lm loss: 2.0'
  sleep 1
  echo 'iteration 2/100 | elapsed time per iteration (ms): 500.0 | lm loss: 2.0'
  echo 'Saved checkpoint to /ckpt/iter_2'; date +%s.%N >> {marks}/saved
  sleep 2
  echo 'iteration 3/100 | elapsed time per iteration (ms): 500.0 | lm loss: 2.0'
  sleep 2
  echo "[12345.6] $SLURMD_NODENAME kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1," \
    "GPU has fallen off the bus."
  sleep 60; exit 1
fi
sleep 1
date +%s.%N >> {marks}/loaded; echo 'successfully loaded checkpoint from /ckpt at iteration 2'
echo 'iteration 3/100 | elapsed time per iteration (ms): 500.0 | lm loss: 2.0'
sleep 1
echo 'iteration 4/100 | elapsed time per iteration (ms): 500.0 | lm loss: 2.0'
echo 'Saved checkpoint to /ckpt/iter_4'
sleep 1
"""


async def test_report_of_a_recovered_job(
    start_ajr, slurm_cluster, workdir: Path, sqlite_url: str, tmp_path: Path
) -> None:
    marks = workdir / "marks"
    marks.mkdir()
    marks.chmod(0o777)
    step = workdir / "step.sh"
    step.write_text(STEP.format(marks=marks))
    hooks = Receiver()
    async with start_ajr(sqlite_url, notify_webhook_url=f"{hooks.url}/hook") as ajr:
        job_id = ajr.submit(SCRIPT.format(step=step), name="train_gpt")
        outcome = await ajr.outcome(job_id, timeout=120)
        assert outcome.outcome is Outcome.COMPLETED
        settings = ajr.settings
        described = await ajr.handle(job_id).describe()
        attributes = described.typed_search_attributes
        assert attributes.get(sa.AJR_CATEGORY) == "GPU"
        culprits = attributes.get(sa.AJR_CULPRIT_NODES)
        assert attributes.get(sa.AJR_OUTCOME) == "completed"
        await ajr.save_histories("report-notify", job_id)
    hooks.server.shutdown()
    measured = float((marks / "loaded").read_text()) - float((marks / "saved").read_text())

    report = load(settings, job_id, now=0.0)
    assert report is not None
    first, second = report["attempts"]
    assert (first["observed"], first["category"], first["decision"]) == ("CRASH", "GPU", "requeue")
    assert first["culprit_nodes"] == first["nodes"] and first["excluded_nodes"] == first["nodes"]
    assert culprits == first["culprit_nodes"]
    assert first["confidence"] and 0 < first["confidence"] <= 1
    assert [s["step"] for s in first["checkpoint_saves"]] == [2]
    assert second["decision"] == "complete" and [s["step"] for s in second["checkpoint_saves"]]
    (stop,) = report["interruptions"]
    parts = stop["parts_s"]
    print(f"measured gap {measured:.3f}s; report {stop['downtime_s']:.3f}s = {parts}")
    assert sum(parts.values()) == pytest.approx(stop["downtime_s"], abs=1e-6)
    assert stop["downtime_s"] == pytest.approx(measured, abs=1.0)
    assert parts["recomputed"] >= 3.0 and parts["restart"] >= 0.5  # 4 s trained, 1 s to load
    assert stop["restart_success"] is True
    kpis = report["kpis"]
    assert 0 < kpis["training_time_efficiency_pct"] < 100

    with Session(make_engine(sqlite_url)) as session:
        row = session.exec(
            select(JobEfficiencyRecord).where(JobEfficiencyRecord.job_id == job_id)
        ).one()
    assert (row.outcome, row.attempts, row.failures, row.job_name) == (
        "completed",
        2,
        1,
        "train_gpt",
    )
    assert row.downtime_s == pytest.approx(stop["downtime_s"], abs=1e-3)

    # The webhook heard of the requeue, with the culprit: once.
    (requeued,) = [body for _, body in hooks.posts if body["kind"] == "requeued"]
    culprit = first["culprit_nodes"][0]
    assert requeued["culprit_nodes"] == [culprit] and requeued["category"] == "GPU"
    assert f"CRASH GPU on {culprit} -> requeued excluding {culprit}" in str(requeued["text"])
    assert "(requeue 1 of 2)" in str(requeued["text"])

    # The command line, as an operator runs it: JSON and a PNG timeline.
    png = tmp_path / "timeline.png"
    env = {f"AJR_{k.upper()}": str(v) for k, v in settings.model_dump().items() if v is not None}
    env = {k: v for k, v in env.items() if not k.endswith("_PATTERNS") and "NOTIFY" not in k}
    result = subprocess.run(
        [sys.executable, "-m", "worker", "report", str(job_id), "--json", "--png", str(png)],
        env={**env, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["kpis"]["downtime_s"] == pytest.approx(stop["downtime_s"])
    assert png.stat().st_size > 10_000 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    artifacts = os.environ.get("AJR_TEST_ARTIFACTS")  # CI keeps it; the README shows one
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(png, Path(artifacts) / "report-timeline.png")
