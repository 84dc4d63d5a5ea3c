"""Recording real workflow histories for the replay suite (tests/unit/test_replay.py).

With `AJR_RECORD_HISTORIES=<label>` set, the integration scenarios that call `save_histories`
write every run of their jobs' workflows (each continue-as-new is a run of its own) to
`tests/histories/<label>/<scenario>-<job>-run<N>.json`; without it, `save_histories` does nothing.
The label names the code that recorded them (see tests/histories/README.md), e.g.:

    AJR_RECORD_HISTORIES=r2 .venv/bin/pytest tests/integration -k "history or seed or hang"
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from temporalio.client import Client, WorkflowHistory

RECORD_ENV = "AJR_RECORD_HISTORIES"
HISTORIES_DIR = Path(__file__).resolve().parents[1] / "histories"
_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,40}")


def recording_label() -> str:
    label = os.environ.get(RECORD_ENV, "")
    if label and not _LABEL.fullmatch(label):
        raise ValueError(f"{RECORD_ENV}={label!r}: use letters, digits, '.', '_' or '-'")
    return label


async def all_runs(client: Client, workflow_id: str) -> list[WorkflowHistory]:
    """Every run of a workflow, first run first: followed back from the latest run.

    Each run's first event names the run it continued; no visibility query (eventually
    consistent) is involved.
    """
    runs: list[WorkflowHistory] = []
    run_id: str | None = None
    while True:
        history = await client.get_workflow_handle(workflow_id, run_id=run_id).fetch_history()
        runs.append(history)
        started = history.events[0].workflow_execution_started_event_attributes
        run_id = started.continued_execution_run_id
        if not run_id:
            return runs[::-1]


async def save_histories(client: Client, scenario: str, workflow_ids: list[str]) -> list[Path]:
    """Write every run of each workflow when recording is on; the paths written."""
    label = recording_label()
    if not label:
        return []
    directory = HISTORIES_DIR / label
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob(f"{scenario}-*.json"):  # a re-recorded scenario replaces its own
        stale.unlink()
    written: list[Path] = []
    for job_index, workflow_id in enumerate(workflow_ids):
        for run_index, history in enumerate(await all_runs(client, workflow_id)):
            path = directory / f"{scenario}-job{job_index}-run{run_index}.json"
            path.write_text(history.to_json() + "\n")
            written.append(path)
    return written
