"""A real Slurm cluster on this one host: install, configure, start, wait, stop.

Owns the Slurm part of the local stack and of the test harness: the rendered `slurm.conf` (from
`deploy/local/slurm.conf.tmpl`), munge (started only if not already running), one slurmctld and
one `slurmd -N nodeK` per node, and their pid/log/spool files, all inside a state dir owned by
the caller. Every daemon started is recorded in the state dir's process registry so `stop()`
signals exactly those PIDs. Several clusters can run side by side if their ports differ.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Template

from devstack.processes import (
    DevStackError,
    PieceStatus,
    ProcessRegistry,
    check_ports,
    pid_running,
    tail,
    wait_for,
)

TEMPLATE_PATH = Path(__file__).resolve().parent.parent / "deploy" / "local" / "slurm.conf.tmpl"
APT_PACKAGES = ("slurmctld", "slurmd", "slurm-client", "munge")
# Every program this module runs, with the package that ships it.
REQUIRED_PROGRAMS = {
    "slurmctld": "slurmctld",
    "slurmd": "slurmd",
    "sinfo": "slurm-client",
    "squeue": "slurm-client",
    "scancel": "slurm-client",
    "scontrol": "slurm-client",
    "munge": "munge",
    "unmunge": "munge",
    "munged": "munge",
}
_SEARCH_DIRS = ("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin")
MUNGE_RUN_DIR = Path("/run/munge")
MUNGE_PID_FILE = MUNGE_RUN_DIR / "munged.pid"
MUNGE_KEY = Path("/etc/munge/munge.key")
# Held while munged is started: two processes (parallel test workers' clusters) that both find
# none would both start one, and the second loses the socket's lock.
MUNGE_START_LOCK = Path("/run/ajr-munged-start.lock")
# Node states in which a node accepts work; '*' (not responding) is checked separately.
_USABLE_STATES = frozenset({"idle", "mixed", "allocated", "completing"})


def require_root(what: str) -> None:
    if os.geteuid() != 0:
        raise DevStackError(f"{what} must run as root: slurmd needs it")


def find_program(name: str) -> str | None:
    """`name` on PATH, or in the sbin/bin dirs (a non-login root shell may lack /usr/sbin)."""
    found = shutil.which(name)
    if found:
        return found
    for directory in _SEARCH_DIRS:
        candidate = os.path.join(directory, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def program(name: str) -> str:
    found = find_program(name)
    if found is None:
        raise DevStackError(f"{name} not found; install {REQUIRED_PROGRAMS.get(name, name)}")
    return found


def run(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 60.0,
    check: bool = True,
) -> subprocess.CompletedProcess[str]:
    """Run a short command (list args only) and fail with its output if it fails."""
    try:
        done = subprocess.run(
            list(argv),
            env=dict(env) if env is not None else None,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise DevStackError(f"{' '.join(argv)} timed out after {timeout:.0f} s") from exc
    except OSError as exc:
        raise DevStackError(f"cannot run {' '.join(argv)}: {exc}") from exc
    if check and done.returncode != 0:
        raise DevStackError(
            f"{' '.join(argv)} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}"
        )
    return done


def missing_programs() -> list[str]:
    return [name for name in REQUIRED_PROGRAMS if find_program(name) is None]


def fix_emulator_alternatives() -> list[str]:
    """Point slurmctld/slurmd back at the real builds if slurm-wlm-emulator took them over.

    The emulator builds are front-end builds that die with "No front end nodes defined".
    """
    fixed: list[str] = []
    for daemon in ("slurmctld", "slurmd"):
        link = Path("/usr/sbin") / daemon
        real = Path(f"/usr/sbin/{daemon}-wlm")
        if "emulator" in os.path.realpath(link) and real.exists():
            run(["update-alternatives", "--set", daemon, str(real)])
            fixed.append(f"{daemon}: update-alternatives set back to {real}")
    return fixed


def ensure_installed() -> list[str]:
    """apt-get install the Slurm and munge packages, but only if a program is missing."""
    report: list[str] = []
    missing = missing_programs()
    if missing:
        require_root("installing Slurm")
        apt_env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        report.append(f"slurm: installing {' '.join(APT_PACKAGES)} (missing: {', '.join(missing)})")
        run(["apt-get", "update"], env=apt_env, timeout=600)
        run(["apt-get", "install", "-y", *APT_PACKAGES], env=apt_env, timeout=1800)
        still = missing_programs()
        if still:
            raise DevStackError(f"after apt-get install, still missing: {', '.join(still)}")
    report.extend(fix_emulator_alternatives())
    return report


def munge_works() -> bool:
    """A credential round-trips through the running munged (`munge -n | unmunge`)."""
    munge, unmunge = find_program("munge"), find_program("unmunge")
    if munge is None or unmunge is None:
        return False
    try:
        cred = subprocess.run([munge, "-n"], capture_output=True, timeout=10, check=False)
        if cred.returncode != 0:
            return False
        decoded = subprocess.run(
            [unmunge], input=cred.stdout, capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return decoded.returncode == 0


def ensure_munge(registry: ProcessRegistry) -> str:
    """Start munged as the munge user unless one already answers; record it only if we did."""
    if munge_works():
        rec = registry.get("munge")
        if rec is not None and registry.is_alive(rec):
            return f"munge: already running (pid {rec.pid}, started by ajr)"
        return "munge: already running (not started by ajr, left alone)"
    require_root("starting munged")
    with _held(MUNGE_START_LOCK):
        if munge_works():  # another process started it while this one waited for the lock
            return "munge: already running (started meanwhile by another process, left alone)"
        return _start_munge(registry)


@contextlib.contextmanager
def _held(lock: Path) -> Iterator[None]:
    """An exclusive lock on the file `lock`, across processes, for the `with` block."""
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _start_munge(registry: ProcessRegistry) -> str:
    MUNGE_RUN_DIR.mkdir(parents=True, exist_ok=True)
    shutil.chown(MUNGE_RUN_DIR, "munge", "munge")
    if not MUNGE_KEY.exists():
        raise DevStackError(f"{MUNGE_KEY} is missing: reinstall the munge package")
    MUNGE_PID_FILE.unlink(missing_ok=True)
    try:
        run(["runuser", "-u", "munge", "--", program("munged")], timeout=30)
    except DevStackError:
        # A process that does not take our lock started munged first: ours lost the socket's
        # lock ("Failed to lock ... munge.socket.2.lock"), and theirs answers.
        if wait_for(munge_works, timeout=10):
            return "munge: already running (started meanwhile by another process, left alone)"
        raise
    if not wait_for(lambda: _pid_from_file(MUNGE_PID_FILE) is not None, timeout=10):
        raise DevStackError(f"munged did not write {MUNGE_PID_FILE}")
    pid = _pid_from_file(MUNGE_PID_FILE)
    assert pid is not None
    registry.adopt("munge", pid, log_file="/var/log/munge/munged.log", info={"started_by": "ajr"})
    if not wait_for(munge_works, timeout=10):
        raise DevStackError(
            "munged started but `munge -n | unmunge` fails:\n" + tail("/var/log/munge/munged.log")
        )
    return f"munge: started pid {pid}"


def _pid_from_file(path: Path) -> int | None:
    """The PID in a daemon's pid file, if that process runs."""
    try:
        pid = int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if pid_running(pid) else None


@dataclass(frozen=True)
class Accounting:
    """slurmdbd on a MySQL/MariaDB database: accounting, `sacct`, and Slurm admin levels
    (`sacctmgr ... AdminLevel=Operator`, what ajr's own least-privilege identity needs)."""

    port: int  # slurmdbd's DbdPort
    storage_db: str  # the database slurmdbd creates and owns (StorageLoc)
    storage_host: str = "127.0.0.1"
    storage_port: int = 3306
    storage_user: str = "root"
    storage_pass: str = ""

    def slurmdbd_conf(self, *, pid_file: Path, log_file: Path) -> str:
        lines = [
            "# Rendered by ajr (devstack/slurm.py). Mode 0600: it may hold a password.",
            "AuthType=auth/munge",
            "DbdHost=localhost",
            f"DbdPort={self.port}",
            "SlurmUser=root",
            f"PidFile={pid_file}",
            f"LogFile={log_file}",
            "StorageType=accounting_storage/mysql",
            f"StorageHost={self.storage_host}",
            f"StoragePort={self.storage_port}",
            f"StorageUser={self.storage_user}",
            f"StorageLoc={self.storage_db}",
        ]
        if self.storage_pass:
            lines.append(f"StoragePass={self.storage_pass}")
        return "\n".join(lines) + "\n"

    def slurm_conf_lines(self) -> str:
        return (
            "\n# Accounting through slurmdbd (admin levels for sacctmgr-managed users).\n"
            "AccountingStorageType=accounting_storage/slurmdbd\n"
            "AccountingStorageHost=localhost\n"
            f"AccountingStoragePort={self.port}\n"
            "JobAcctGatherType=jobacct_gather/none\n"
        )


class SlurmCluster:
    """slurmctld + N slurmd on 127.0.0.1, configured and recorded under `state_dir`.

    Files: `<state_dir>/slurm/slurm.conf`, `slurm/{state,spool,run}/`, logs in `<state_dir>/logs/`,
    the registry in `<state_dir>/processes.json` (shared with the rest of a dev stack).
    """

    def __init__(
        self,
        state_dir: Path,
        *,
        cluster_name: str = "local",
        nodes: int = 4,
        partition: str = "gpu",
        slurmctld_port: int = 6817,
        slurmd_port: int = 6818,
        node_port_base: int = 17001,
        cpus_per_node: int | None = None,
        real_memory_mb: int = 2000,
        registry: ProcessRegistry | None = None,
        accounting: Accounting | None = None,
        switches: Mapping[str, str] | None = None,
    ) -> None:
        if nodes < 1:
            raise ValueError("a cluster needs at least one node")
        self.state_dir = Path(state_dir).resolve()
        self.cluster_name = cluster_name
        self.nodes = nodes
        self.partition = partition
        self.slurmctld_port = slurmctld_port
        self.slurmd_port = slurmd_port
        self.node_port_base = node_port_base
        self.cpus_per_node = cpus_per_node or max(2, os.cpu_count() or 2)
        self.real_memory_mb = real_memory_mb
        self.registry = registry or ProcessRegistry(self.state_dir)
        self.slurm_dir = self.state_dir / "slurm"
        self.log_dir = self.state_dir / "logs"
        self.run_dir = self.slurm_dir / "run"
        self.accounting = accounting
        # {leaf switch: host list}: TopologyPlugin=topology/tree and a topology.conf beside
        # slurm.conf, the leaves joined by one top switch. None: no topology.
        self.switches = dict(switches) if switches else None

    # --- layout --------------------------------------------------------------------------------

    @property
    def conf(self) -> Path:
        return self.slurm_dir / "slurm.conf"

    @property
    def node_names(self) -> list[str]:
        return [f"node{i}" for i in range(1, self.nodes + 1)]

    @property
    def node_ports(self) -> dict[str, int]:
        return {name: self.node_port_base + i for i, name in enumerate(self.node_names)}

    def ports(self) -> dict[int, str]:
        """Every TCP port this cluster listens on, with what listens there."""
        ports = {self.slurmctld_port: "slurmctld", self.slurmd_port: "SlurmdPort (default)"}
        ports.update({port: f"slurmd {name}" for name, port in self.node_ports.items()})
        if self.accounting is not None:
            ports[self.accounting.port] = "slurmdbd"
        return ports

    @property
    def slurmctld_log(self) -> Path:
        return self.log_dir / "slurmctld.log"

    def slurmd_log(self, node: str) -> Path:
        return self.log_dir / f"slurmd-{node}.log"

    def piece_names(self) -> list[str]:
        dbd = ["slurmdbd"] if self.accounting is not None else []
        return [*dbd, "slurmctld", *(f"slurmd-{node}" for node in self.node_names)]

    def env(self) -> dict[str, str]:
        """What a Slurm client command needs to talk to this cluster."""
        return {"SLURM_CONF": str(self.conf)}

    def subprocess_env(self) -> dict[str, str]:
        """A full environment for `subprocess.run(..., env=...)` against this cluster."""
        return {**os.environ, **self.env()}

    # --- configuration -------------------------------------------------------------------------

    def render_config(self) -> str:
        try:
            template = Template(TEMPLATE_PATH.read_text())
        except OSError as exc:
            raise DevStackError(f"slurm.conf template missing: {TEMPLATE_PATH}: {exc}") from exc
        last_port = self.node_port_base + self.nodes - 1
        accounting = self.accounting.slurm_conf_lines() if self.accounting is not None else ""
        return (
            accounting
            + template.substitute(
                cluster_name=self.cluster_name,
                slurmctld_port=self.slurmctld_port,
                slurmd_port=self.slurmd_port,
                state_save_dir=self.slurm_dir / "state",
                spool_dir=self.slurm_dir / "spool",
                run_dir=self.run_dir,
                log_dir=self.log_dir,
                node_range=f"node[1-{self.nodes}]" if self.nodes > 1 else "node1",
                port_range=f"{self.node_port_base}-{last_port}" if self.nodes > 1 else last_port,
                cpus=self.cpus_per_node,
                real_memory=self.real_memory_mb,
                partition=self.partition,
            )
            + ("TopologyPlugin=topology/tree\n" if self.switches else "")
        )

    def render_topology(self) -> str:
        """topology.conf: each leaf switch with its nodes, and one switch above them all."""
        if not self.switches:
            return ""
        lines = [f"SwitchName={name} Nodes={nodes}" for name, nodes in self.switches.items()]
        lines.append(f"SwitchName=top Switches={','.join(self.switches)}")
        return "\n".join(lines) + "\n"

    def write_config(self) -> bool:
        """Write slurm.conf if it changed. Refuses to change it under running daemons."""
        text = self.render_config()
        current = self.conf.read_text() if self.conf.exists() else None
        if current == text:
            return False
        if current is not None and self.running_pieces():
            raise DevStackError(
                f"{self.conf} would change (different nodes or ports) while Slurm runs: "
                "stop it first (`ajr dev down`)"
            )
        for directory in (self.slurm_dir / "state", self.slurm_dir / "spool", self.run_dir):
            directory.mkdir(parents=True, exist_ok=True)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.conf.write_text(text)
        topology = self.conf.parent / "topology.conf"
        if self.switches:
            topology.write_text(self.render_topology())
        else:
            topology.unlink(missing_ok=True)
        if self.accounting is not None:
            # slurmdbd reads slurmdbd.conf beside SLURM_CONF, and only if SlurmUser alone can.
            dbd_conf = self.conf.parent / "slurmdbd.conf"
            dbd_conf.touch(mode=0o600)
            dbd_conf.chmod(0o600)
            dbd_conf.write_text(
                self.accounting.slurmdbd_conf(
                    pid_file=self.run_dir / "slurmdbd.pid", log_file=self.log_dir / "slurmdbd.log"
                )
            )
        return True

    # --- lifecycle -----------------------------------------------------------------------------

    def running_pieces(self) -> list[str]:
        return [name for name in self.piece_names() if self.registry.alive(name)]

    def is_running(self) -> bool:
        return len(self.running_pieces()) == len(self.piece_names())

    def start(self, *, timeout: float = 60.0) -> list[str]:
        """Bring the whole cluster up (idempotent) and wait until every node is usable."""
        require_root("starting Slurm")
        report = ensure_installed()
        check_ports(self.ports(), self.registry)
        if self.write_config():
            report.append(f"slurm: wrote {self.conf}")
        report.append(ensure_munge(self.registry))
        env = self.subprocess_env()
        if self.accounting is not None:
            report.extend(self._start_accounting(env))
        report.append(
            self._start_daemon(
                "slurmctld",
                [program("slurmctld"), "-f", str(self.conf)],
                self.run_dir / "slurmctld.pid",
                self.slurmctld_log,
                env,
                f"127.0.0.1:{self.slurmctld_port}",
            )
        )
        for node, port in self.node_ports.items():
            report.append(
                self._start_daemon(
                    f"slurmd-{node}",
                    [program("slurmd"), "-f", str(self.conf), "-N", node],
                    self.run_dir / f"slurmd-{node}.pid",
                    self.slurmd_log(node),
                    env,
                    f"127.0.0.1:{port}",
                )
            )
        self.wait_until_ready(timeout=timeout)
        report.append(f"slurm: {self.nodes} nodes ready in partition {self.partition}")
        return report

    def _start_accounting(self, env: Mapping[str, str]) -> list[str]:
        """slurmdbd, then this cluster registered in it (before slurmctld connects)."""
        if find_program("slurmdbd") is None or find_program("sacctmgr") is None:
            raise DevStackError("accounting needs slurmdbd and sacctmgr: apt-get install slurmdbd")
        assert self.accounting is not None
        report = [
            self._start_daemon(
                "slurmdbd",
                [program("slurmdbd")],
                self.run_dir / "slurmdbd.pid",
                self.log_dir / "slurmdbd.log",
                env,
                f"127.0.0.1:{self.accounting.port}",
            )
        ]
        if not wait_for(
            lambda: self.sacctmgr("show", "cluster", check=False).returncode == 0, timeout=30
        ):
            raise DevStackError(
                f"slurmdbd does not answer; {self.log_dir / 'slurmdbd.log'}:\n"
                f"{tail(self.log_dir / 'slurmdbd.log')}"
            )
        if self.cluster_name not in self.sacctmgr("show", "cluster", "format=cluster").stdout:
            self.sacctmgr("add", "cluster", self.cluster_name)
        report.append(f"slurmdbd: cluster {self.cluster_name} registered")
        return report

    def sacctmgr(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """`sacctmgr -i -n -P ...` against this cluster's slurmdbd (accounting only)."""
        return run(
            [program("sacctmgr"), "-i", "-n", "-P", *args],
            env=self.subprocess_env(),
            timeout=30,
            check=check,
        )

    def _start_daemon(
        self,
        name: str,
        argv: list[str],
        pid_file: Path,
        log_file: Path,
        env: Mapping[str, str],
        address: str,
    ) -> str:
        rec = self.registry.alive(name)
        if rec is not None:
            return f"{name}: already running (pid {rec.pid})"
        pid_file.unlink(missing_ok=True)  # a stale pid file would name someone else's process
        launch_log = self.log_dir / "slurm-launch.log"
        with open(launch_log, "ab") as out:
            # The daemon forks and the launcher returns; the daemon then logs to its LogFile.
            done = subprocess.run(
                argv,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=60,
                check=False,
            )
        if done.returncode != 0:
            raise DevStackError(
                f"{name} failed to start (exit {done.returncode}). {launch_log}:\n"
                f"{tail(launch_log, 10)}\n{log_file}:\n{tail(log_file)}"
            )
        if not wait_for(lambda: _pid_from_file(pid_file) is not None, timeout=15):
            raise DevStackError(
                f"{name} wrote no pid file {pid_file}; its log {log_file}:\n{tail(log_file)}"
            )
        pid = _pid_from_file(pid_file)
        assert pid is not None
        self.registry.adopt(name, pid, log_file=log_file, info={"address": address})
        return f"{name}: started pid {pid} on {address}"

    def node_states(self) -> dict[str, str]:
        """node name -> long state from sinfo (e.g. "idle", "idle*", "down*")."""
        done = run(
            [program("sinfo"), "-h", "-N", "-o", "%N %T"],
            env=self.subprocess_env(),
            timeout=15,
            check=False,
        )
        if done.returncode != 0:
            return {}
        states: dict[str, str] = {}
        for line in done.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2:
                states[parts[0]] = parts[1].lower()
        return states

    def ready(self) -> bool:
        states = self.node_states()
        return all(states.get(node, "").rstrip("+") in _USABLE_STATES for node in self.node_names)

    def wait_until_ready(self, *, timeout: float = 60.0) -> None:
        """Wait until sinfo lists every node as responding and usable (idle on a fresh cluster)."""
        if wait_for(self.ready, timeout=timeout, interval=0.5):
            return
        logs = [f"--- {self.slurmctld_log}\n{tail(self.slurmctld_log, 15)}"]
        logs += [
            f"--- {self.slurmd_log(n)}\n{tail(self.slurmd_log(n), 8)}" for n in self.node_names
        ]
        raise DevStackError(
            f"Slurm nodes not idle after {timeout:.0f} s; sinfo says {self.node_states()}\n"
            + "\n".join(logs)
        )

    def cancel_all_jobs(self, *, timeout: float = 20.0) -> int:
        """scancel every job of this cluster and wait until they are gone (no stray slurmstepd)."""
        if self.registry.alive("slurmctld") is None:
            return 0
        env = self.subprocess_env()
        listed = run([program("squeue"), "-h", "-o", "%A"], env=env, timeout=15, check=False)
        job_ids = [line.strip() for line in listed.stdout.splitlines() if line.strip()]
        if not job_ids:
            return 0
        run([program("scancel"), *job_ids], env=env, timeout=15, check=False)

        def queue_empty() -> bool:
            done = run([program("squeue"), "-h", "-o", "%A"], env=env, timeout=15, check=False)
            return done.returncode == 0 and not done.stdout.strip()

        wait_for(queue_empty, timeout=timeout, interval=0.5)
        return len(job_ids)

    def stop(self, *, cancel_jobs: bool = True, stop_munge: bool = True) -> list[str]:
        """Stop the daemons this cluster recorded (by PID), slurmd first; munge only if ours."""
        report: list[str] = []
        if cancel_jobs:
            cancelled = self.cancel_all_jobs()
            if cancelled:
                report.append(f"slurm: cancelled {cancelled} job(s)")
        for node in self.node_names:
            report.append(self.registry.stop(f"slurmd-{node}", timeout=15))
        report.append(self.registry.stop("slurmctld", timeout=20))
        if self.accounting is not None:
            report.append(self.registry.stop("slurmdbd", timeout=20))
        if stop_munge and self.registry.get("munge") is not None:
            report.append(self.registry.stop("munge", timeout=10))
        return report

    def status(self) -> list[PieceStatus]:
        pieces = [
            PieceStatus(
                "slurmctld",
                False,
                None,
                f"127.0.0.1:{self.slurmctld_port}",
                str(self.slurmctld_log),
            )
        ]
        pieces += [
            PieceStatus(
                f"slurmd-{node}", False, None, f"127.0.0.1:{port}", str(self.slurmd_log(node))
            )
            for node, port in self.node_ports.items()
        ]
        result: list[PieceStatus] = []
        for piece in pieces:
            rec = self.registry.alive(piece.name)
            result.append(
                PieceStatus(
                    piece.name,
                    rec is not None,
                    rec.pid if rec else None,
                    piece.address,
                    piece.log_file,
                )
            )
        return result


def wait_for_job_end(job_id: str, env: Mapping[str, str], *, timeout: float = 60.0) -> str:
    """Poll until slurmctld reports job `job_id` ended; return its final state (e.g. COMPLETED)."""
    deadline = time.monotonic() + timeout
    state = "UNKNOWN"
    while time.monotonic() < deadline:
        done = run(
            [program("scontrol"), "show", "job", "-o", job_id], env=env, timeout=15, check=False
        )
        for token in done.stdout.split():
            if token.startswith("JobState="):
                state = token.split("=", 1)[1]
        if state in {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY"}:
            return state
        time.sleep(0.3)
    raise DevStackError(f"job {job_id} still {state} after {timeout:.0f} s")
