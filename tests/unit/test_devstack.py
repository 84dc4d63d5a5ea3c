"""The dev stack's pure parts: config rendering, shell exports, process registry, port checks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from devstack import DevStack, DevStackError, ProcessRegistry, SlurmCluster, StackConfig
from devstack.processes import check_ports, pid_running, port_holders
from devstack.temporal import TemporalServer, search_attribute_flags
from models.search_attributes import ALL_SEARCH_ATTRIBUTES, cli_type_name
from worker.config import Settings
from worker.demo import slurm_narration, steer_hint
from worker.dev import stack_config


def _conf_lines(text: str) -> dict[str, str]:
    pairs = [line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#")]
    return dict(pairs)


def test_slurm_conf_has_the_single_host_layout(tmp_path: Path) -> None:
    cluster = SlurmCluster(
        tmp_path, cluster_name="c1", slurmctld_port=1, slurmd_port=2, node_port_base=100
    )
    text = cluster.render_config()
    conf = _conf_lines(text)
    assert conf["ClusterName"] == "c1"
    assert conf["SlurmctldPort"] == "1" and conf["SlurmdPort"] == "2"
    assert conf["SlurmdSpoolDir"].endswith("/spool/%n")
    assert conf["SlurmdPidFile"].endswith("slurmd-%n.pid")
    assert conf["SlurmdLogFile"].endswith("slurmd-%n.log")
    assert conf["ProctrackType"] == "proctrack/linuxproc"
    assert conf["TaskPlugin"] == "task/none"
    assert conf["SelectType"] == "select/cons_tres"
    assert conf["SlurmUser"] == "root"
    assert conf["ReturnToService"] == "2"
    assert conf["MinJobAge"] == "300"
    assert "RebootProgram" not in text
    assert "NodeName=node[1-4] NodeHostname=localhost NodeAddr=127.0.0.1 Port=100-103" in text
    assert "PartitionName=gpu Nodes=node[1-4] Default=YES" in text
    assert str(tmp_path.resolve()) in conf["StateSaveLocation"]
    assert cluster.ports() == {
        1: "slurmctld",
        2: "SlurmdPort (default)",
        100: "slurmd node1",
        101: "slurmd node2",
        102: "slurmd node3",
        103: "slurmd node4",
    }


def test_topology_is_rendered_only_when_switches_are_given(tmp_path: Path) -> None:
    plain = SlurmCluster(tmp_path)
    assert "TopologyPlugin" not in plain.render_config() and plain.render_topology() == ""
    tree = SlurmCluster(tmp_path, switches={"s0": "node[1-2]", "s1": "node[3-4]"})
    assert _conf_lines(tree.render_config())["TopologyPlugin"] == "topology/tree"
    assert tree.render_topology() == (
        "SwitchName=s0 Nodes=node[1-2]\nSwitchName=s1 Nodes=node[3-4]\n"
        "SwitchName=top Switches=s0,s1\n"
    )


def test_single_node_cluster_renders_without_ranges(tmp_path: Path) -> None:
    text = SlurmCluster(tmp_path, nodes=1, node_port_base=500).render_config()
    assert "NodeName=node1 " in text and "Port=500 " in text


def test_env_exports_survive_eval_with_awkward_paths(tmp_path: Path) -> None:
    state = tmp_path / "it's a $dir with spaces"
    stack = DevStack(StackConfig(ajr_state_dir=state, cluster_name="local"))
    exports = stack.shell_exports()
    names = [line.split("=", 1)[0].removeprefix("export ") for line in exports.splitlines()]
    assert names == [
        "SLURM_CONF",
        "TEMPORAL_ADDRESS",
        "TEMPORAL_NAMESPACE",
        "AJR_TEMPORAL_ADDRESS",
        "AJR_TEMPORAL_NAMESPACE",
        "AJR_SLURM_CONF",
        "AJR_DATABASE_URL",
        "AJR_STATE_DIR",
        "AJR_CLUSTER_NAME",
        "PATH",
    ]
    shown = subprocess.run(
        [
            "bash",
            "-c",
            'eval "$1"; printf "%s\\n" "$SLURM_CONF" "$AJR_STATE_DIR" "$PATH"',
            "_",
            exports,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert shown[0] == str(state.resolve() / "dev" / "slurm" / "slurm.conf")
    assert shown[1] == str(state)
    assert shown[2].split(os.pathsep)[0] == str(Path(sys.executable).parent)


def test_stack_config_reads_dev_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AJR_STATE_DIR", str(tmp_path))
    monkeypatch.setenv("AJR_DEV_TEMPORAL_PORT", "17233")
    monkeypatch.setenv("AJR_DEV_NODES", "2")
    monkeypatch.delenv("AJR_DATABASE_URL", raising=False)
    config = stack_config(Settings())
    assert config.temporal_port == 17233 and config.nodes == 2
    assert config.dev_dir == tmp_path.resolve() / "dev"
    assert config.effective_database_url == f"sqlite:///{tmp_path.resolve() / 'ajr.db'}"


def test_up_refuses_without_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(DevStackError, match=r"^ajr dev up must run as root: slurmd needs it$"):
        DevStack(StackConfig(ajr_state_dir=tmp_path)).up()


def test_worker_gets_the_notification_settings_given_to_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("AJR_NOTIFY_WEBHOOK_URL", "http://127.0.0.1:9/hook")
    env = DevStack(StackConfig(ajr_state_dir=tmp_path, cluster_name="local")).worker_env()
    assert env["AJR_NOTIFY_WEBHOOK_URL"] == "http://127.0.0.1:9/hook"
    assert env["AJR_CLUSTER_NAME"] == "local"  # and pointed at the stack


def test_search_attributes_fit_the_dev_server_caps() -> None:
    types = Counter(cli_type_name(key) for key in ALL_SEARCH_ATTRIBUTES)
    assert types["Keyword"] <= 10 and all(n <= 3 for t, n in types.items() if t != "Keyword")
    flags = search_attribute_flags(ALL_SEARCH_ATTRIBUTES)
    assert flags[:2] == ["--search-attribute", "AjrCluster=Keyword"]
    assert "SlurmRestartCount=Int" in flags


def test_registry_starts_checks_and_stops_by_pid(tmp_path: Path) -> None:
    registry = ProcessRegistry(tmp_path)
    rec = registry.start_detached("sleeper", ["sleep", "60"])
    try:
        assert registry.is_alive(rec)
        assert Path(rec.log_file).parent == tmp_path / "logs"
        assert ProcessRegistry(tmp_path).get("sleeper") == rec  # persisted
        # Same PID, different recorded command: a reused PID is not ours.
        assert not registry.is_alive(replace(rec, cmdline=["sleep", "61"]))
        assert registry.stop("sleeper") == f"sleeper: stopped pid {rec.pid}"
        assert not pid_running(rec.pid)
        assert registry.load() == {}
        assert registry.stop("sleeper") == "sleeper: not recorded"
    finally:
        if pid_running(rec.pid):
            os.kill(rec.pid, 9)


class _RacingServer(TemporalServer):
    """A server process that dies binding a port on its first `lost` starts, then serves."""

    def __init__(self, state_dir: Path, lost: int, said: str) -> None:
        free = []
        for _ in range(2):
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                free.append(sock.getsockname()[1])
        super().__init__(state_dir, port=free[0], ui_port=free[1])
        self.starts, self.lost, self.said = 0, lost, said

    def server_argv(self) -> list[str]:
        self.starts += 1
        if self.starts <= self.lost:
            if self.said.startswith("SIGKILL"):  # killed, by no exit of its own
                words = self.said.removeprefix("SIGKILL")
                echo = f"echo '{words}'; " if words else ""
                return ["sh", "-c", f"{echo}sleep 0.3; kill -KILL $$"]
            return ["sh", "-c", f"echo '{self.said}' >&2; exit 1"]
        return ["sleep", "60"]

    def serving(self) -> bool:
        return self.starts > self.lost and self.is_running()

    def ensure_retention(self, *, timeout: float) -> str:
        return "retention: not set (test)"


def test_a_server_that_lost_a_port_race_is_started_again(tmp_path: Path) -> None:
    race = "listen tcp 127.0.0.1:41877: bind: address already in use"
    server = _RacingServer(tmp_path, lost=1, said=race)
    try:
        report = server.start(timeout=10)
        assert server.starts == 2 and server.is_running()
        assert any("starting again" in line for line in report)
    finally:
        server.registry.stop(server.name)
    # any other death at start is reported, not retried
    broken = _RacingServer(tmp_path / "b", lost=1, said="unknown flag --ui-port")
    with pytest.raises(DevStackError, match="exited during start"):
        broken.start(timeout=10)
    assert broken.starts == 1


def test_a_server_killed_before_it_said_a_word_is_started_again(tmp_path: Path) -> None:
    server = _RacingServer(tmp_path, lost=1, said="SIGKILL")
    try:
        report = server.start(timeout=10)
        assert server.starts == 2 and server.is_running()
        assert "temporal: killed by SIGKILL while starting; starting again" in report
    finally:
        server.registry.stop(server.name)
    # killed after it wrote something: that something may say why, so it is reported
    spoke = _RacingServer(tmp_path / "b", lost=1, said="SIGKILLpanic: bad config")
    with pytest.raises(DevStackError, match=r"exited during start \(killed by SIGKILL\)"):
        spoke.start(timeout=10)
    assert spoke.starts == 1


def test_busy_port_is_named_with_its_holder(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert os.getpid() in port_holders(port)
        with pytest.raises(DevStackError, match=rf"port {port} \(thing\) is in use by pid"):
            check_ports({port: "thing"}, ProcessRegistry(tmp_path))


def test_port_held_by_our_own_process_is_fine(tmp_path: Path) -> None:
    registry = ProcessRegistry(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = (
        "import socket,time\n"
        f"s=socket.socket(); s.bind(('127.0.0.1',{port})); s.listen(); print('up', flush=True)\n"
        "time.sleep(60)\n"
    )
    rec = registry.start_detached("listener", [sys.executable, "-c", server])
    try:
        for _ in range(100):
            if port_holders(port):
                break
            time.sleep(0.05)
        assert port_holders(port) == [rec.pid]
        check_ports({port: "ours"}, registry)  # no error: `up` twice is harmless
    finally:
        registry.stop("listener")


@pytest.mark.parametrize(
    ("reason", "nodes", "said"),
    [
        ("None", "", "Slurm: job 1 PENDING"),
        ("(null)", "node1", "Slurm: job 1 PENDING on node1"),
        ("job requeued in held state", "", "Slurm: job 1 PENDING (job requeued in held state)"),
    ],
)
def test_demo_narration_says_no_none(reason: str, nodes: str, said: str) -> None:
    assert slurm_narration(1, "PENDING", reason, nodes) == said


def test_demo_hint_runs_without_the_venv_on_path() -> None:
    hint = steer_hint("ajr-local-1")
    ajr = str(Path(sys.executable).parent / "ajr")
    assert f'eval "$({ajr} dev env)"; temporal workflow query -w ajr-local-1' in hint


def test_munged_started_meanwhile_by_another_process_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two test workers bring their clusters up at once and both find no munged. The start is
    serialised by a lock: the second finds the first's munged answering once it holds the lock,
    and takes it without starting another (not recorded as ajr's to stop). One started by a
    process that takes no lock makes ours lose the socket's lock: theirs is taken too, and a
    munged that still does not answer is an error."""
    from devstack import slurm as slurm_module

    monkeypatch.setattr(slurm_module, "require_root", lambda what: None)
    monkeypatch.setattr(slurm_module.shutil, "chown", lambda *args, **kwargs: None)
    monkeypatch.setattr(slurm_module, "MUNGE_RUN_DIR", tmp_path)
    monkeypatch.setattr(slurm_module, "MUNGE_PID_FILE", tmp_path / "munged.pid")
    monkeypatch.setattr(slurm_module, "MUNGE_START_LOCK", tmp_path / "start.lock")
    key = tmp_path / "munge.key"
    key.write_text("key")
    monkeypatch.setattr(slurm_module, "MUNGE_KEY", key)
    started: list[list[str]] = []

    def lost_the_lock(argv: list[str], **kwargs: object) -> None:
        started.append(argv)
        raise DevStackError(
            f"{' '.join(argv)} failed (exit 1):\nmunged: Error: Failed to lock "
            '"/run/munge/munge.socket.2.lock": pid 23090 bound to socket'
        )

    monkeypatch.setattr(slurm_module, "run", lost_the_lock)
    registry = ProcessRegistry(tmp_path / "registry")
    # Started by the other worker while this one waited for the lock: nothing is run.
    answers = iter([False, True])
    monkeypatch.setattr(slurm_module, "munge_works", lambda: next(answers))
    assert "another process" in slurm_module.ensure_munge(registry)
    assert started == [] and registry.get("munge") is None
    # Started by a process that takes no lock, as ours ran: ours fails, theirs answers.
    answers = iter([False, False, True])
    assert "another process" in slurm_module.ensure_munge(registry)
    assert len(started) == 1 and registry.get("munge") is None
    monkeypatch.setattr(slurm_module, "munge_works", lambda: False)
    monkeypatch.setattr(slurm_module, "wait_for", lambda *args, **kwargs: False)
    with pytest.raises(DevStackError, match="Failed to lock"):
        slurm_module.ensure_munge(registry)
