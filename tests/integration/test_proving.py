"""The quick variants of bench/chaos.py, bench/scale.py and bench/campaign.py, in CI.

Each runs on the bench's own real stack (Slurm, Temporal dev server, an `ajr worker` process);
ports shift with AJR_TEST_PORT_OFFSET. The README's tables come from the long runs. Chaos runs every
fault twice with 15 s outages (`bench/chaos.py --quick`), in two halves of about three minutes
each so that the two pytest-xdist workers can take one each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


def bench(script: str, *args: str, timeout: float) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), "--json", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert reports, f"{script} printed no JSON (rc {done.returncode}): {done.stderr[-3000:]}"
    return reports


CHAOS_HALVES = (
    ("worker-kill", "temporal-restart", "slurmctld-pause", "slurmctld-restart"),
    ("db-down", "disk-full", "hostile-user"),
)


@pytest.mark.parametrize("faults", CHAOS_HALVES, ids=["ajr-temporal-slurm", "db-disk-user"])
def test_chaos_quick_holds_every_invariant(faults: tuple[str, ...]) -> None:
    args = [arg for fault in faults for arg in ("--fault", fault)]
    reports = bench("chaos.py", "--quick", *args, timeout=540)
    assert [report["fault"] for report in reports] == list(faults)
    for report in reports:
        assert report["trials"] + len(report["environment_failures"]) == 2, report
        assert report["trials"] >= 1, report  # a host that fails both trials proves nothing
        assert report["violations"] == [], report
        for key in ("lost", "double_requeues", "left_held", "false_kills", "missing_records"):
            assert report[key] == 0, report


def test_scale_quick_reports_every_measure() -> None:
    (report,) = bench("scale.py", "--quick", timeout=300)
    assert report["at_scale_started"]["ok"] and report["at_scale_started"]["running"] == 20
    for window in (report["baseline"], report["at_scale"]):
        assert window["worker_cpu_pct"] > 0 and window["worker_rss_mb"] > 0
        assert window["slurmctld_rpm"] > 0  # ajr's own polls at least
    crash = report["crash_under_load"]
    assert crash["timed"] == crash["crashes"] == 3, crash
    assert report["worker_alive"]


def test_campaign_quick_recovers_the_crash_and_leaves_the_healthy_job() -> None:
    (report,) = bench("campaign.py", "--quick", timeout=300)
    jobs = {job["fault"]: job for job in report["policies"]["ajr"]["jobs"]}
    assert jobs["segfault"]["finished"] and jobs["segfault"]["requeues"] == 1, jobs
    assert jobs["segfault"]["lost_iterations"] < 10  # resumed from a checkpoint
    assert jobs["none"]["finished"] and jobs["none"]["requeues"] == 0, jobs
    assert report["policies"]["ajr"]["summary"]["wrong_actions"] == 0
