"""`python -m tests.integration.worker_entry`: `ajr worker` with the test seams, in its own process.

Configured by AJR_* variables exactly like `ajr worker`, plus two test-only ones:
- AJR_TEST_PAUSE_AFTER_HOLD=S: pause S seconds after each requeuehold (tests/integration/faults.py);
- AJR_TEST_WORKFLOW=patched-upgrade | unpatched-upgrade: run that JobRecovery variant
  (tests/workflow_variants.py) instead of today's.
"""

from __future__ import annotations

import asyncio
import os
import sys

from activities.slurm.client import SlurmClient
from tests.integration.faults import PauseAfterHold
from tests.workflow_variants import PatchedUpgrade, UnpatchedUpgrade
from worker.config import Settings
from worker.logs import configure_logging
from worker.main import serve, slurm_runner
from workflows.job_recovery import JobRecoveryWorkflow

WORKFLOWS: dict[str, type] = {
    "current": JobRecoveryWorkflow,
    "patched-upgrade": PatchedUpgrade,
    "unpatched-upgrade": UnpatchedUpgrade,
}


def main() -> int:
    settings = Settings()
    configure_logging(settings.log_format)
    pause = float(os.environ.get("AJR_TEST_PAUSE_AFTER_HOLD", "0"))
    slurm: SlurmClient | None = PauseAfterHold(slurm_runner(settings), pause) if pause else None
    workflow = WORKFLOWS[os.environ.get("AJR_TEST_WORKFLOW", "current")]
    return asyncio.run(serve(settings, slurm=slurm, workflows=[workflow]))


if __name__ == "__main__":
    sys.exit(main())
