"""Stragglers and persistent performance drops: TFLOP throughput vs the job's own baseline, NVRx.

Two sources, both pure and per attempt:

- `ThroughputMonitor` reads the throughput a job reports ("throughput per GPU (TFLOP/s/GPU):
  386.7", or the telemetry library's `tflops`). After `warmup` reports (compilation, data
  loader start, NCCL setup make early steps slow) the median of the next `window` reports is
  the baseline; a report below (1 - drop) x baseline is degraded, and `sustained` degraded
  reports in a row confirm a drop. A healthy report resets the count, so one-off dips never
  add up; the `quiet` reports right after a checkpoint save or an evaluation are ignored, since
  Megatron's interval timing includes the time spent saving or evaluating.
- `parse_nvrx` reads NVIDIA Resiliency Extension's straggler reports: the warning that names
  the affected ranks (as printed by Megatron-Bridge/NeMo: a set of `StragglerId(rank=, node=)`,
  or the plain list of the seed's example) and the score table rows `Rank=N Node=X Score=S`.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

# --- TFLOP throughput ------------------------------------------------------------------------


@dataclass(frozen=True)
class ThroughputSettings:
    warmup: int = 3  # first reports skipped: the first steps are slow for reasons of their own
    window: int = 5  # reports whose median is the baseline
    drop: float = 0.2  # a report below (1 - drop) x baseline is degraded
    sustained: int = 5  # degraded reports in a row that confirm a drop
    quiet: int = 1  # reports ignored after a checkpoint save or an evaluation


@dataclass(frozen=True)
class Drop:
    """A confirmed persistent throughput drop."""

    baseline: float
    recent: tuple[float, ...]  # the degraded reports that confirmed it, oldest first
    iteration: int | None

    @property
    def fraction(self) -> float:
        """How far below the baseline the median of the degraded reports is (0..1)."""
        return 1.0 - statistics.median(self.recent) / self.baseline

    def summary(self) -> str:
        where = f" at iteration {self.iteration}" if self.iteration is not None else ""
        return (
            f"persistent throughput drop{where}: {statistics.median(self.recent):.1f} TFLOP/s"
            f" vs baseline {self.baseline:.1f} ({self.fraction:.0%} lower"
            f" over {len(self.recent)} reports)"
        )


@dataclass
class ThroughputMonitor:
    """Confirms a sustained drop of reported throughput below the job's own baseline, once."""

    settings: ThroughputSettings = field(default_factory=ThroughputSettings)
    baseline: float | None = None
    reports: int = 0
    _startup: list[float] = field(default_factory=list)
    _degraded: list[float] = field(default_factory=list)
    _skip: int = 0
    confirmed: bool = False

    def interrupted(self) -> None:
        """A checkpoint save or an evaluation ran: the next report(s) may include its time."""
        self._skip = self.settings.quiet

    def report(self, tflops: float, iteration: int | None = None) -> Drop | None:
        """Consume one throughput report; return the drop the first time it is confirmed."""
        if self.confirmed or not tflops > 0:  # also rejects NaN
            return None
        self.reports += 1
        s = self.settings
        if self.reports <= s.warmup:
            return None
        if self._skip > 0:
            self._skip -= 1
            return None
        if self.baseline is None:
            self._startup.append(tflops)
            if len(self._startup) >= s.window:
                self.baseline = statistics.median(self._startup)
            return None
        if tflops >= (1.0 - s.drop) * self.baseline:
            self._degraded.clear()
            return None
        self._degraded.append(tflops)
        if len(self._degraded) < s.sustained:
            return None
        self.confirmed = True
        return Drop(self.baseline, tuple(self._degraded), iteration)


# --- NVRx straggler reports ------------------------------------------------------------------

_WARNING = re.compile(r"STRAGGLER DETECTION WARNING: (?P<what>.*?)\s*Affected ranks: (?P<ranks>.*)")
_STRAGGLER_ID = re.compile(r"StragglerId\(rank=(?P<rank>\d+), node=['\"]?(?P<node>[^'\")]+)")
_RANK_ROW = re.compile(r"Rank=(?P<rank>\d+) Node=(?P<node>\S+) Score=(?P<score>[\d.]+)")
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class NvrxReport:
    """One NVRx line: a warning naming ranks (and maybe their nodes), or one score row."""

    ranks: tuple[int, ...] = ()
    nodes: dict[int, str] = field(default_factory=dict)  # rank -> node, when the line names it
    score: float | None = None  # a score row's score
    what: str = ""  # the warning's reason, e.g. "Some GPUs have worse relative performance"

    @property
    def warning(self) -> bool:
        return self.score is None


def parse_nvrx(text: str) -> NvrxReport | None:
    """The NVRx straggler warning or score row on `text`, or None."""
    if "Rank=" in text:
        m = _RANK_ROW.search(text)
        if m is not None:
            rank = int(m["rank"])
            return NvrxReport((rank,), {rank: m["node"]}, float(m["score"]))
    if "STRAGGLER" in text:
        m = _WARNING.search(text)
        if m is not None:
            listed = m["ranks"]
            if "StragglerId" in listed:
                nodes = {int(i["rank"]): i["node"] for i in _STRAGGLER_ID.finditer(listed)}
                ranks = tuple(sorted(nodes))
            else:
                nodes = {}
                ranks = tuple(int(r) for r in _DIGITS.findall(listed))
            if ranks:
                return NvrxReport(ranks, nodes, None, m["what"].rstrip("."))
    return None
