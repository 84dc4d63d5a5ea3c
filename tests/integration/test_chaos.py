"""bench/chaos.py --quick on a representative subset of its faults, in CI.

The full table (every fault, 20 trials) is the README's; CI runs two trials each of a worker
SIGKILL and a slurmctld restart in the middle of a recovery, on the bench's own real stack, and
fails on any broken invariant (lost job, double requeue, job left held, healthy job killed,
decision not recorded once).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
CI_FAULTS = ("worker-kill", "slurmctld-restart")


def test_chaos_quick_holds_every_invariant() -> None:
    faults = [arg for fault in CI_FAULTS for arg in ("--fault", fault)]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), "--quick", "--json", *faults],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=480,
        check=False,
    )
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [r["fault"] for r in reports] == list(CI_FAULTS), done.stderr[-3000:]
    for report in reports:
        assert report["trials"] == 2
        assert report["violations"] == [], report
        for key in ("lost", "double_requeues", "left_held", "false_kills", "missing_records"):
            assert report[key] == 0, report
    assert done.returncode == 0, done.stderr[-3000:]
