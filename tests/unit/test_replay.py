"""Replay safety: today's workflow code must replay every recorded history of a real job.

tests/histories/<label>/ holds histories recorded from the integration scenarios on real Slurm
(see tests/histories/README.md). A change to the workflow that would break a running job at the
next deploy (a new, removed or reordered command without `workflow.patched`, a payload type that
no longer reads an old payload) fails here, in the unit suite, without any server.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer

from models.payloads import DATA_CONVERTER
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.unit

HISTORIES = Path(__file__).resolve().parents[1] / "histories"
FILES = sorted(HISTORIES.glob("*/*.json"))


def load(path: Path) -> WorkflowHistory:
    return WorkflowHistory.from_json(f"{path.parent.name}/{path.stem}", path.read_text())


def test_enough_histories_are_recorded() -> None:
    scenarios = {path.stem.split("-job")[0] for path in FILES}
    assert len(FILES) >= 8, FILES
    assert {"seed", "hang", "crashloop", "straggler", "steering", "continue-as-new"} <= scenarios


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
async def test_history_replays(path: Path) -> None:
    replayer = Replayer(workflows=[JobRecoveryWorkflow], data_converter=DATA_CONVERTER)
    result = await replayer.replay_workflow(load(path), raise_on_replay_failure=False)
    assert result.replay_failure is None, f"{path.name}: {result.replay_failure!r}"


async def test_a_careless_change_fails_replay_and_the_patched_one_does_not() -> None:
    """The suite can fail: the same change, made without and with `workflow.patched`."""
    from tests.workflow_variants import PatchedUpgrade, UnpatchedUpgrade

    async def failures(workflow: type) -> list[str]:
        replayer = Replayer(workflows=[workflow], data_converter=DATA_CONVERTER)
        failed = []
        for path in FILES:
            result = await replayer.replay_workflow(load(path), raise_on_replay_failure=False)
            if result.replay_failure is not None:
                failed.append(path.stem)
        return failed

    careless = await failures(UnpatchedUpgrade)
    assert "seed-job0-run0" in careless  # a run that requeued: a new timer before it
    assert await failures(PatchedUpgrade) == []
