"""Least privilege for real: the worker runs as an ordinary OS user that Slurm knows (through
slurmdbd on the local MariaDB) as `AdminLevel=Operator`, and recovers a job of another ordinary
user: requeuehold, ExcNodeList/StartTime update, release and scancel all go through with exactly
that right, and without it Slurm refuses them.

Its own cluster (`ajrlp`, accounting on): the session cluster stays without slurmdbd.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from devstack import SlurmCluster
from devstack.slurm import Accounting
from devstack.users import os_user
from models.recovery import JobOutcome, Outcome
from models.slurm import JobState
from tests.conftest import PORT_OFFSET, integration_unavailable
from tests.integration.recovery_harness import (
    REPO,
    SYSTEM_PYTHON,
    WORKER_ENTRY,
    AjrUnderTest,
    import_path,
    make_settings,
    seed_script,
    temporal_address,
    worker_process,
)
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.integration

OPERATOR = "ajr-test-op"  # the service identity (`ajr` on a real head node)
JOB_USER = "ajr-test-alice"  # an ordinary user whose job ajr recovers
# Away from the session cluster (26817/26818/27001+) and from other offsets' (multiples of 100).
LP_SLURMCTLD_PORT = 26827 + PORT_OFFSET
LP_SLURMD_PORT = 26828 + PORT_OFFSET
LP_SLURMDBD_PORT = 26829 + PORT_OFFSET
LP_NODE_PORT_BASE = 27011 + PORT_OFFSET


@pytest.fixture(scope="module")
def operator_cluster(mysql_server: Engine) -> Iterator[SlurmCluster]:
    state_dir = Path(tempfile.mkdtemp(prefix="ajr-test-lp-", dir="/tmp"))
    state_dir.chmod(0o755)
    url = mysql_server.url
    accounting = Accounting(
        port=LP_SLURMDBD_PORT,
        storage_db=f"ajr_test_acct_{uuid.uuid4().hex[:10]}",
        storage_host=url.host or "127.0.0.1",
        storage_port=url.port or 3306,
        storage_user=url.username or "root",
        storage_pass=url.password or "",
    )
    cluster = SlurmCluster(
        state_dir,
        cluster_name="ajrlp",
        nodes=2,
        cpus_per_node=4,
        slurmctld_port=LP_SLURMCTLD_PORT,
        slurmd_port=LP_SLURMD_PORT,
        node_port_base=LP_NODE_PORT_BASE,
        accounting=accounting,
    )
    try:
        cluster.start(timeout=60)
    except Exception as exc:
        cluster.stop(stop_munge=False)
        integration_unavailable("Slurm cluster with slurmdbd accounting", exc)
    try:
        yield cluster
    finally:
        cluster.stop(stop_munge=False)  # munged may serve the session cluster too
        with mysql_server.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS `{accounting.storage_db}`"))
        shutil.rmtree(state_dir, ignore_errors=True)


def submit_as(user: pwd.struct_passwd, cluster: SlurmCluster, home: Path, script: str) -> int:
    path = home / f"job-{uuid.uuid4().hex[:6]}.sh"
    path.write_text(script)
    os.chown(path, user.pw_uid, user.pw_gid)
    done = subprocess.run(
        ["sbatch", "--parsable", "-J", "lp", "-p", "gpu", "-D", str(home),
         f"--uid={user.pw_uid}", f"--gid={user.pw_gid}", str(path)],
        env=cluster.subprocess_env(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(done.stdout.strip().split(";")[0])


def as_operator(operator: pwd.struct_passwd, cluster: SlurmCluster, *args: str) -> str:
    done = subprocess.run(
        list(args), env=cluster.subprocess_env(), capture_output=True, text=True,
        user=operator.pw_uid, group=operator.pw_gid, extra_groups=[], check=False,
    )  # fmt: skip
    return done.stderr


def allowed(user: pwd.struct_passwd, right: str, path: Path) -> bool:
    """Whether `user` has `right` (`test`'s -r, -x) on `path`, asked as that user."""
    probe = subprocess.run(
        ["test", right, str(path)], user=user.pw_uid, group=user.pw_gid, extra_groups=[],
        check=False,
    )  # fmt: skip
    return probe.returncode == 0


def grant_access(
    user: pwd.struct_passwd, *paths: Path, listed: tuple[Path, ...] = ()
) -> list[tuple[Path, bool]]:
    """Let `user` pass through (x, not list) every ancestor of `paths` and `listed` it cannot
    pass yet, and list (r-x) each of the `listed` directories it cannot list yet, by a POSIX ACL
    entry for that user alone; returns the directories changed and whether each had no ACL
    before, for `revoke_access`. Never widens anyone else's rights.

    The worker imports this checkout's code from `listed` (its PYTHONPATH), and Python lists a
    directory to import from it: a checkout that is itself mode 700 (a `mktemp -d` clone) needs
    r-x there, one under a 700 home (a clone under /root) only x on the home."""
    changed: dict[Path, bool] = {}

    def grant(directory: Path, rights: str) -> None:
        if directory not in changed:
            extended = subprocess.run(
                ["getfacl", "--skip-base", "-p", str(directory)],
                capture_output=True, text=True, check=True,
            ).stdout.strip()  # fmt: skip
            changed[directory] = not extended
        subprocess.run(["setfacl", "-m", f"u:{user.pw_name}:{rights}", str(directory)], check=True)

    for path in (*paths, *listed):
        for directory in reversed(path.resolve().parents):
            if not allowed(user, "-x", directory):
                grant(directory, "x")
    for directory in (path.resolve() for path in listed):
        if not (allowed(user, "-r", directory) and allowed(user, "-x", directory)):
            grant(directory, "rx")
    return list(changed.items())


def revoke_access(user: pwd.struct_passwd, directories: list[tuple[Path, bool]]) -> None:
    """Undo `grant_access`: the user's entry, and the whole ACL where there was none."""
    for directory, bare in directories:
        command = ["setfacl", "-b"] if bare else ["setfacl", "-x", f"u:{user.pw_name}"]
        subprocess.run([*command, str(directory)], check=False)


def cannot_import_worker(user: pwd.struct_passwd) -> str:
    """Why `user` cannot import the worker the way `worker_process` runs it ("" if it can)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, import_path()))}
    env.pop("VIRTUAL_ENV", None)
    probe = subprocess.run(
        [str(SYSTEM_PYTHON), "-c", f"import {WORKER_ENTRY}"], env=env, cwd=REPO,
        capture_output=True, text=True, user=user.pw_uid, group=user.pw_gid, extra_groups=[],
        check=False,
    )  # fmt: skip
    if probe.returncode == 0:
        return ""
    return (probe.stderr.strip() or f"exit status {probe.returncode}").splitlines()[-1]


async def outcome_or_why(
    ajr: AjrUnderTest, job_id: int, timeout: float, worker: subprocess.Popen[bytes], log: Path
) -> JobOutcome:
    """The job's outcome; failing that, whether the worker still runs and how its log ends."""
    try:
        return await ajr.outcome(job_id, timeout=timeout)
    except Exception as exc:
        code = worker.poll()
        state = "running" if code is None else f"exited with status {code}"
        raise AssertionError(
            f"job {job_id}: no outcome ({exc}); the worker is {state}; its log ends:\n"
            + log.read_text(errors="replace")[-3000:]
        ) from exc


async def test_operator_user_recovers_another_users_job(
    operator_cluster: SlurmCluster, temporal_env, mysql_url: str, tmp_path: Path
) -> None:
    operator = os_user(OPERATOR, system=True)
    alice = os_user(JOB_USER, system=False)
    # The interpreter, this checkout and its venv (a clone under /root, or itself 700 under
    # `mktemp -d`): importable by the operator, who gets just the rights that takes.
    granted = grant_access(operator, SYSTEM_PYTHON, listed=tuple(import_path()))
    why = cannot_import_worker(operator)
    if why:
        revoke_access(operator, granted)
        integration_unavailable(
            f"this checkout for the non-root user {OPERATOR}", PermissionError(why)
        )
    home = Path(tempfile.mkdtemp(prefix="ajr-lp-alice-", dir="/tmp"))
    home.chmod(0o755)
    os.chown(home, alice.pw_uid, alice.pw_gid)
    state = Path(tempfile.mkdtemp(prefix="ajr-lp-worker-", dir="/tmp"))
    os.chown(state, operator.pw_uid, operator.pw_gid)
    env = operator_cluster.subprocess_env()
    worker = None
    try:
        # Without Operator, Slurm refuses ajr's actions on another user's job.
        probe = submit_as(alice, operator_cluster, home, "#!/bin/bash\nsleep 60\n")
        operator_cluster.sacctmgr("delete", "user", OPERATOR, check=False)
        denied = as_operator(operator, operator_cluster, "scontrol", "requeuehold", str(probe))
        assert "Access/permission denied" in denied, denied
        subprocess.run(["scancel", str(probe)], env=env, check=True)

        # The documented grant (README "Production: least privilege").
        operator_cluster.sacctmgr("add", "account", "ajrsvc", "Description=ajr", "Organization=ops")
        operator_cluster.sacctmgr("add", "user", OPERATOR, "Account=ajrsvc", "AdminLevel=Operator")
        admin = operator_cluster.sacctmgr("show", "user", OPERATOR, "format=user,admin").stdout
        assert admin.strip() == f"{OPERATOR}|Operator", admin

        settings = make_settings(
            operator_cluster.conf,
            temporal_address(temporal_env),
            mysql_url,
            state_dir=state,
            crash_confirm=3.0,  # an Xid line waits this long for training to go on
        )
        worker = worker_process(settings, tmp_path / "worker.log", user=operator)
        control = SlurmControl(SlurmRunner(env=settings.slurm_env()))
        ajr = AjrUnderTest(settings, temporal_env.client, env, home, control)
        status = Path(f"/proc/{worker.pid}/status").read_text()
        uid_line = next(line for line in status.splitlines() if line.startswith("Uid:"))
        assert uid_line.split()[1:] == [str(operator.pw_uid)] * 4, uid_line  # never root

        # The seed's verification sequence, on alice's job, by the operator's worker; and a
        # crash line naming the job's node, which the operator excludes on requeue.
        job_id = submit_as(alice, operator_cluster, home, seed_script())
        xid = (
            'echo \\"[12345.6] \\$SLURMD_NODENAME kernel: NVRM: Xid '
            '(PCI:0000:3b:00): 79, pid=4242, GPU has fallen off the bus.\\"'
        )
        xid_job = submit_as(
            alice, operator_cluster, home, seed_script(crash_line=xid, after="sleep 60")
        )
        worker_log = tmp_path / "worker.log"
        outcome = await outcome_or_why(ajr, job_id, 120, worker, worker_log)
        assert outcome.outcome is Outcome.MAX_REQUEUES, (
            outcome,
            worker_log.read_text()[-3000:],
        )
        job = await ajr.wait_for_job(
            job_id, lambda j: j.state is JobState.CANCELLED, 30, "cancelled (by the operator)"
        )
        assert job.restart_count == 1, job
        assert job.user_name == JOB_USER
        logs = sorted(home.glob(f"lp_{job_id}_date_*_time_*.log"))
        assert len(logs) == 2, logs
        # Its second attempt ran elsewhere (and named its own node in turn: stopped there).
        xid_outcome = await outcome_or_why(ajr, xid_job, 60, worker, worker_log)
        assert xid_outcome.outcome is Outcome.MAX_REQUEUES, xid_outcome
        records = await ajr.handle(xid_job).query(JobRecoveryWorkflow.attempts)
        culprit = records[0].nodes[0]
        assert records[0].excluded_nodes == [culprit], records
        second = await ajr.job(xid_job)
        assert second.restart_count == 1 and second.excluded_nodes == (culprit,), second
        assert culprit not in second.nodes, second
        # The accounting database saw it too: sacct works on this cluster. UID, not User: sacct
        # names the user of the job's association, and alice has none here, so a run could read
        # the root association's name for her job; the UID column is the job's own.
        sacct = subprocess.run(
            ["sacct", "-n", "-P", "-X", "-j", str(job_id), "-o", "JobID,UID"],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert f"{job_id}|{alice.pw_uid}" in sacct.stdout, sacct.stdout
    finally:
        if worker is not None and worker.poll() is None:
            worker.terminate()
            worker.wait(15)
        subprocess.run(["scancel", "--user", JOB_USER], env=env, check=False)
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(state, ignore_errors=True)
        revoke_access(operator, granted)
