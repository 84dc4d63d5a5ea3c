"""Runs Slurm's client commands asynchronously, with argument lists only and a timeout."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from pathlib import Path

from activities import telemetry


class SlurmError(Exception):
    """A Slurm command could not be run or failed; `unavailable` when slurmctld did not answer."""

    def __init__(self, message: str, *, unavailable: bool = False, stderr: str = "") -> None:
        super().__init__(message)
        self.unavailable = unavailable
        self.stderr = stderr


@dataclass(frozen=True)
class CommandResult:
    returncode: int
    stdout: str
    stderr: str


# Phrases slurmctld clients print when the controller cannot be reached.
_UNAVAILABLE_HINTS = (
    "Unable to contact slurm controller",
    "Socket timed out",
    "Connection refused",
    "Communication connection failure",
    "Zero Bytes were transmitted or received",
)


class SlurmRunner:
    """Runs `squeue`, `scontrol`, `scancel`, `sinfo` with ajr's SLURM_CONF and a time limit.

    At most `max_concurrent` commands run at once (one runner per worker process): a burst of
    activities (hundreds of jobs enrolled together) queues here instead of starting hundreds of
    processes that each make slurmctld work. A command that waits longer than the time limit
    for its turn fails like one slurmctld did not answer (SlurmError, `unavailable`): never an
    answer. `bounded=False` (the shared poller's one `squeue` per interval) skips the queue.
    """

    def __init__(
        self,
        *,
        env: dict[str, str] | None = None,
        bin_dir: Path | None = None,
        timeout: float = 30,
        max_concurrent: int = 8,
    ) -> None:
        self._env = {**os.environ, **(env or {})}
        self._bin_dir = bin_dir
        self._timeout = timeout
        self._slots = asyncio.Semaphore(max_concurrent)
        self.max_concurrent = max_concurrent
        self.running = 0  # commands running now (bounded or not)
        self.peak_running = 0

    def _program(self, name: str) -> str:
        return str(self._bin_dir / name) if self._bin_dir else name

    async def run(
        self, program: str, *args: str, check: bool = True, bounded: bool = True
    ) -> CommandResult:
        """Run one command; its span, latency and errors are recorded (activities/telemetry)."""
        # scontrol's first word is the operation (requeuehold, update, release, show); the rest
        # (job ids) would make unbounded label values.
        command = args[0] if program == "scontrol" and args else ""
        attributes = {"program": program, "command": command}
        started = time.monotonic()
        result_label = "ok"
        with telemetry.tracer.start_as_current_span(
            f"slurm {program} {command}".rstrip(), attributes={"slurm.args": " ".join(args)}
        ) as span:
            try:
                if bounded:
                    result = await self._run_bounded(program, *args, check=check)
                else:
                    result = await self._run(program, *args, check=check)
            except SlurmError as exc:
                result_label = "unavailable" if exc.unavailable else "failed"
                span.set_attribute("slurm.error", str(exc)[:500])
                telemetry.SLURM_ERRORS.add(1, {**attributes, "kind": result_label})
                raise
            finally:
                telemetry.SLURM_DURATION.record(
                    time.monotonic() - started, {**attributes, "result": result_label}
                )
            return result

    async def _run_bounded(self, program: str, *args: str, check: bool) -> CommandResult:
        try:
            await asyncio.wait_for(self._slots.acquire(), self._timeout)
        except TimeoutError as exc:
            raise SlurmError(
                f"{program} {' '.join(args)}: no free Slurm command slot within "
                f"{self._timeout:.0f}s ({self.max_concurrent} running)",
                unavailable=True,
            ) from exc
        try:
            return await self._run(program, *args, check=check)
        finally:
            self._slots.release()

    async def _run(self, program: str, *args: str, check: bool) -> CommandResult:
        self.running += 1
        self.peak_running = max(self.peak_running, self.running)
        try:
            return await self._spawn(program, *args, check=check)
        finally:
            self.running -= 1

    async def _spawn(self, program: str, *args: str, check: bool) -> CommandResult:
        argv = [self._program(program), *args]
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=self._env,
            )
        except OSError as exc:
            raise SlurmError(f"cannot run {program}: {exc}", unavailable=True) from exc
        try:
            out, err = await asyncio.wait_for(process.communicate(), self._timeout)
        except TimeoutError as exc:
            process.kill()
            await process.wait()
            raise SlurmError(
                f"{program} {' '.join(args)} timed out after {self._timeout:.0f}s", unavailable=True
            ) from exc
        result = CommandResult(
            process.returncode or 0,
            out.decode("utf-8", "replace"),
            err.decode("utf-8", "replace"),
        )
        if check and result.returncode != 0:
            raise SlurmError(
                f"{program} {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}",
                unavailable=any(hint in result.stderr for hint in _UNAVAILABLE_HINTS),
                stderr=result.stderr,
            )
        return result
