"""The local stack end to end: `up` starts Slurm, Temporal and a worker; `up` again is a no-op;
`down` stops exactly the recorded PIDs. Uses its own state dir and ports, so it runs beside both
a developer's `ajr dev up` stack and the session's Slurm test cluster.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from activities.database import migrate
from activities.database.engine import make_engine
from devstack import DevStack, StackConfig
from devstack.processes import pid_running
from devstack.stack import WORKER_NAME
from models.search_attributes import ALL_SEARCH_ATTRIBUTES
from tests.conftest import PORT_OFFSET, integration_unavailable, reap_leftovers
from tests.integration.test_notify import Receiver

pytestmark = pytest.mark.integration

BASE = 28800 + PORT_OFFSET
CONFIG = StackConfig(
    ajr_state_dir=Path("/nonexistent"),  # replaced per test
    cluster_name="ajrdevtest",
    slurmctld_port=BASE + 17,
    slurmd_port=BASE + 18,
    node_port_base=BASE + 201,
    temporal_port=BASE + 33,
    temporal_ui_port=BASE + 34,
)


def _cli(state_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`ajr dev ...` in a child process, pointed at the test stack through AJR_* variables."""
    env = {
        **os.environ,
        "AJR_STATE_DIR": str(state_dir),
        "AJR_CLUSTER_NAME": "ajrdevtest",
        "AJR_DEV_SLURMCTLD_PORT": str(CONFIG.slurmctld_port),
        "AJR_DEV_SLURMD_PORT": str(CONFIG.slurmd_port),
        "AJR_DEV_NODE_PORT_BASE": str(CONFIG.node_port_base),
        "AJR_DEV_TEMPORAL_PORT": str(CONFIG.temporal_port),
        "AJR_DEV_TEMPORAL_UI_PORT": str(CONFIG.temporal_ui_port),
    }
    env.pop("AJR_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-c", "from worker.cli import main; main()", "dev", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_up_twice_then_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slurm_cluster: object
) -> None:
    # slurm_cluster first: then munged is the session's, and `down` here leaves it to the
    # other test worker's cluster (a stack that started munged stops it).
    # Set before `up`, as a user would: the stack's worker sends its notices there.
    hooks = Receiver()
    monkeypatch.setenv("AJR_NOTIFY_WEBHOOK_URL", f"{hooks.url}/dev")
    reap_leftovers(
        f"devstack-{CONFIG.slurmctld_port}",
        tmp_path,
        lambda previous: DevStack(replace(CONFIG, ajr_state_dir=previous)).down(),
    )
    stack = DevStack(replace(CONFIG, ajr_state_dir=tmp_path))
    try:
        try:
            stack.up(timeout=60)
        except Exception as exc:
            integration_unavailable("the dev stack", exc)
        recorded = stack.registry.load()
        assert {"slurmctld", "temporal", WORKER_NAME} <= set(recorded)
        # The worker starts on this release's schema (migrated by `up`, nothing lazy).
        engine = make_engine(stack.config.effective_database_url)
        assert migrate.current(engine) == migrate.head()
        engine.dispose()
        assert Path(recorded[WORKER_NAME].log_file).exists()

        env = {**os.environ, **stack.env()}
        sinfo = subprocess.run(
            ["sinfo", "-h", "-N", "-p", "gpu", "-o", "%N %T"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=15,
        )
        assert sorted(sinfo.stdout.split()) == sorted(
            [*(f"node{i}" for i in range(1, 5)), *["idle"] * 4]
        )

        assert httpx.get(stack.temporal.ui_url, timeout=10).status_code == 200
        listed = subprocess.run(
            stack.temporal.cli("operator", "search-attribute", "list"),
            capture_output=True,
            text=True,
            check=True,
            timeout=15,
        )
        for key in ALL_SEARCH_ATTRIBUTES:
            assert key.name in listed.stdout

        # `ajr dev env` output must survive `eval` in a shell unchanged.
        exported = _cli(tmp_path, "env")
        assert exported.returncode == 0, exported.stderr
        echoed = subprocess.run(
            [
                "bash",
                "-c",
                'eval "$1"; printf "%s\\n" "$SLURM_CONF" "$TEMPORAL_ADDRESS"',
                "_",
                exported.stdout,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        assert echoed.stdout.split() == [str(stack.slurm.conf), stack.temporal.address]

        status = _cli(tmp_path, "status")
        assert status.returncode == 0, status.stdout + status.stderr
        assert stack.temporal.ui_url in status.stdout

        # AJR_NOTIFY_WEBHOOK_URL given to `up` reaches the worker: a job with a broken APS
        # directive is refused, and its submitter is told through the webhook.
        broken = subprocess.run(
            ["sbatch", "--parsable", "-p", "gpu", "-J", "bad", "-o", str(tmp_path / "bad.out"),
             "--comment", '{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": -1}}',
             "--wrap", "sleep 30"],
            env=env, capture_output=True, text=True, check=True, timeout=15,
        )  # fmt: skip
        job_id = int(broken.stdout.strip().split(";")[0])
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline and not hooks.posts:
            time.sleep(0.5)
        subprocess.run(["scancel", str(job_id)], env=env, check=False, timeout=15)
        assert [body["job_id"] for _, body in hooks.posts] == [job_id], hooks.posts
        path, body = hooks.posts[0]
        assert path == "/dev" and body["kind"] == "not_managed", body

        # Up again: nothing restarts, nothing new is recorded.
        pids_before = {n: r.pid for n, r in recorded.items() if stack.registry.is_alive(r)}
        report = stack.up(timeout=60)
        assert any("already running" in line for line in report)
        pids_after = {n: r.pid for n, r in stack.registry.load().items()}
        for name, pid in pids_before.items():
            assert pids_after[name] == pid, name
    finally:
        all_pids = [r.pid for r in stack.registry.load().values()]
        stack.down()
        hooks.server.shutdown()

    assert all_pids
    assert not [pid for pid in all_pids if pid_running(pid)]
    assert stack.registry.load() == {}
    assert _cli(tmp_path, "status").returncode == 3
