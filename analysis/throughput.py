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

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

# --- TFLOP throughput ------------------------------------------------------------------------


@dataclass(frozen=True)
class ThroughputSettings:
    warmup: int = 3  # first reports skipped: the first steps are slow for reasons of their own
    window: int = 5  # reports whose median is the baseline
    drop: float = 0.2  # a report below (1 - drop) x baseline is degraded
    sustained: int = 10  # degraded reports in a row that confirm a drop
    deep_drop: float = 0.5  # a report below (1 - deep_drop) x baseline is deeply degraded...
    deep_sustained: int = 6  # ... and this many of those in a row confirm a drop sooner
    # ... or at least `deep_span_reports` of them in a row over this long: a job that reports
    # once an epoch (a minute or more apart) takes many minutes to make `deep_sustained` reports
    deep_span_s: float = 180.0
    deep_span_reports: int = 3
    quiet: int = 1  # reports ignored after a checkpoint save or an evaluation


_UNITS = {"tflops": "TFLOP/s", "mfu": "% MFU", "tokens": "tokens/s", "samples": "samples/s",
          "its": "it/s"}  # fmt: skip


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

    def summary(self, metric: str = "tflops") -> str:
        where = f" at iteration {self.iteration}" if self.iteration is not None else ""
        now, base = statistics.median(self.recent), self.baseline
        unit = _UNITS.get(metric, metric)
        if metric == "step_time":  # a rate of steps: show the time per step people know
            shown = f"{1000 / now:.0f} ms per step vs baseline {1000 / base:.0f} ms"
        else:
            shown = f"{now:.1f} {unit} vs baseline {base:.1f}"
        return (
            f"persistent throughput drop{where}: {shown} ({self.fraction:.0%} lower"
            f" over {len(self.recent)} reports)"
        )


@dataclass
class ThroughputMonitor:
    """Confirms a sustained drop of reported throughput below the job's own baseline, once."""

    settings: ThroughputSettings = field(default_factory=ThroughputSettings)
    baseline: float | None = None
    reports: int = 0
    _startup: list[float] = field(default_factory=list)
    # The readings before the baseline's window (the warm-up's, and those the window slid past;
    # the last `window` of them)
    _early: list[float] = field(default_factory=list)
    _degraded: list[float] = field(default_factory=list)
    # When the degraded readings' stretch began (the report before the first of them), and the
    # time of the last report: the job's time, when the caller knows it
    degraded_from: float | None = None
    last_at: float | None = None
    _skip: int = 0
    confirmed: bool = False

    def interrupted(self) -> None:
        """A checkpoint save or an evaluation ran: the next report(s) may include its time."""
        self._skip = self.settings.quiet

    def report(
        self, tflops: float, iteration: int | None = None, at: float | None = None
    ) -> Drop | None:
        """Consume one throughput report (made at time `at`, if known); return the drop the
        first time it is confirmed."""
        if self.confirmed or not tflops > 0:  # also rejects NaN
            return None
        self.reports += 1
        previous, self.last_at = self.last_at, at
        s = self.settings
        if self.reports <= s.warmup:
            self._keep_early(tflops)
            return None
        if self._skip > 0:
            self._skip -= 1
            return None
        if self.baseline is None:
            self._startup.append(tflops)
            if len(self._startup) > s.window:
                self._keep_early(self._startup.pop(0))
            if len(self._startup) == s.window and _settled(self._startup, s.drop):
                return self._set_baseline(iteration)
            return None
        if tflops >= (1.0 - s.drop) * self.baseline:
            self._degraded.clear()
            self.degraded_from = None
            return None
        if not self._degraded:
            self.degraded_from = previous if previous is not None else at
        self._degraded.append(tflops)
        return self._confirm(iteration, at)

    def _confirm(self, iteration: int | None, at: float | None = None) -> Drop | None:
        if self.baseline is None:
            return None
        s = self.settings
        needed = s.sustained
        deep = (1.0 - s.deep_drop) * self.baseline
        recent = self._degraded[-s.deep_sustained :]
        if len(recent) == s.deep_sustained and all(x < deep for x in recent):
            needed = min(needed, s.deep_sustained)  # a job at half speed: no need to wait
        if self._deep_for_long(deep, at):
            needed = min(needed, len(self._degraded))
        if len(self._degraded) < needed:
            return None
        self.confirmed = True
        return Drop(self.baseline, tuple(self._degraded), iteration)

    def _deep_for_long(self, deep: float, at: float | None) -> bool:
        """Every degraded reading so far is deeply degraded, there are enough of them, and they
        have lasted `deep_span_s` of the job's time."""
        s = self.settings
        return (
            at is not None
            and self.degraded_from is not None
            and len(self._degraded) >= s.deep_span_reports
            and at - self.degraded_from >= s.deep_span_s
            and all(x < deep for x in self._degraded)
        )

    def _keep_early(self, reading: float) -> None:
        self._early.append(reading)
        if len(self._early) > self.settings.window:
            del self._early[0]

    def _set_baseline(self, iteration: int | None) -> Drop | None:
        """The window has settled. Warm-up readings are skipped because early steps are slow;
        when every reading before the window (the warm-up's and at least one the window slid
        past) was faster than the window by more than `drop`, the job did not start slow and
        settle: it ran at that speed, then slowed down before the baseline was taken. That
        earlier speed is the baseline, and the window's trailing readings below it are degraded
        already. (A job that settles starts with a slow first step: compilation, the data
        loader's start.)"""
        s = self.settings
        self.baseline = statistics.median(self._startup)
        early = self._early
        if len(early) >= s.warmup + 1 and min(early) * (1.0 - s.drop) > self.baseline:
            self.baseline = statistics.median(early)
            for reading in self._startup:
                if reading >= (1.0 - s.drop) * self.baseline:
                    self._degraded.clear()
                else:
                    self._degraded.append(reading)
        self._early = []
        return self._confirm(iteration)


def _settled(window: Sequence[float], drop: float) -> bool:
    """The window is the job's settled speed: it does not end on another level (its last two
    readings both a drop below or above its median: a job still slowing down or speeding up as
    it starts), where the median would be a speed the job has already left, nor begin on a
    higher one (its first two a drop above: the job slowed down within the window, and its
    median is the slow speed); then it slides on."""
    median = statistics.median(window)
    last, first = window[-2:], window[:2]
    return not (
        all(x < (1.0 - drop) * median for x in last)
        or all(x * (1.0 - drop) > median for x in last)
        or all(x * (1.0 - drop) > median for x in first)
    )


# --- throughput readings in other frameworks' words -------------------------------------------

# (metric, needles, pattern, seconds per unit of a time per step, or None for a rate). Each names
# one number on a progress line; a time per step is turned into steps per second, so that for
# every metric higher is better. A pattern is searched only on a line holding one of its needles:
# Python's re tries an unanchored alternation at every position (~20 us a line), a substring test
# costs ~50 ns.
_MS = 0.001
# MMCV's "time: 17.408, data_time: 6.664", MMEngine's "time: 0.0350  data_time: 0.0020" and
# detectron2's "time: 0.0308  last_time: 0.0308  data_time: 0.0009": seconds per iteration.
_MM_TIME = r"\btime: (?P<s3>[\d.]+),?\s+(?:last_time: [\d.]+\s+)?data_time: "
_READINGS: tuple[tuple[str, tuple[str, ...], re.Pattern[str], float | None], ...] = (
    ("step_time", ("elapsed time per iteration",),
     re.compile(r"elapsed time per iteration \(ms\):\s*([\d.]+)"), _MS),
    ("tflops", ("TFLOP", "tflops"),
     re.compile(r"""TFLOP/?s(?:/GPU)?\)?\s*[:=]\s*([\d.]+)|\btflops["']?\s*[:=]\s*["']?([\d.]+)"""),
     None),
    # (a key may be quoted: JSON-lines metrics, Python dicts; so may a value: transformers 5's
    # Trainer logs {'loss': '6.745', 'samples_per_second': '117.3'})
    ("mfu", ("mfu", "MFU", "Mfu"),
     re.compile(r"""\bmfu\b["']?\s*[:=]?\s*["']?([\d.]+)\s*%?""", re.IGNORECASE), None),
    # Marian's target words per second: "Time 949.80s : 100786.61 words/s"
    ("tokens", ("words/s",), re.compile(r"(?<![\w.,+-])([\d,.]+)\s*words/s\b"), None),
    ("tokens", ("tps", "tok"), re.compile(
        r"""\btps["']?\s*[:=]\s*["']?([\d,.]+)|\btok(?:en)?s?/s(?:ec)?\s*[:=]?\s*([\d,.]+)"""
        # (not the Trainer's `train_tokens_per_second`: an average over the whole run so far)
        r"""|(?<!train_)tok(?:en)?s?[_ ]per[_ ]s(?:ec(?:ond)?)?["']?\s*[:=]\s*["']?([\d,.]+)"""
        r"|(?<![\w.,+-])([\d,.]+)\s*tok(?:en)?s?/s(?:ec)?\b(?!\s*[:=])"),
     None),
    ("samples", ("SamplesPerSec", "amples/s", "amples per s", "amples_per_s", "xamples/sec",
                 "wps", "utts/s"), re.compile(
        r"\bCurrSamplesPerSec=([\d.]+)|(?<!Avg)SamplesPerSec=([\d.]+)"
        # (not the Trainer's `train_samples_per_second`: an average over the whole run so far)
        r"""|(?<!train_)samples?[/_ ]per[_ ]s(?:ec(?:ond)?)?["']?\s*[:=]\s*["']?([\d.]+)"""
        # a number before the unit is its own, not the end of another value ("lr=5.00e-04
        # samples/s=1069.6" is no "04 samples/s")
        r"|(?<![\w.,+-])([\d,.]+)\s*samples?/s(?:ec)?\b(?!\s*[:=])|samples/s(?:ec)?\s*[:=]\s*"
        r"([\d.]+)|(?<![\w.,+-])([\d,.]+)\s*examples/sec|\bwps\s*[:=]?\s*([\d.]+)"
        # MLPerf RNN-T's DLLogger: "epoch    3 | avg train utts/s  9692 | took 28.68 s"
        r"|\butts/s\s+([\d.]+)"),
     None),
    ("its", ("it/s",), re.compile(r"([\d.]+)\s*it/s\b"), None),
    # timm's "Time: 0.312s, 3283.02/s": samples per second, unit unnamed
    ("samples", ("Time: ",), re.compile(r"\bTime: [\d.]+s,\s*([\d.]+)/s\b"), None),
    ("step_time", ("s/it",), re.compile(r"([\d.]+)\s*s/it\b"), 1.0),
    ("step_time", ("time", "dt"), re.compile(
        r"\b(?:time|dt|step_time|iter time|iteration time|time per step)\s*[:=]?\s*([\d.]+)"
        r"\s*ms\b"), _MS),
    ("step_time", ("_ms", "ms_per_"), re.compile(
        # (the key and its value may be apart by a space only: "step_ms 128.8")
        r"""\b(?:step|iter|iteration)_(?:time_)?ms["']?\s*[:=]?\s*["']?([\d.]+)"""
        r"""|\bms_per_(?:step|iter|iteration|it|batch)["']?\s*[:=]\s*["']?([\d.]+)"""), _MS),
    ("step_time", ("ms/",), re.compile(r"([\d.]+)\s*(?:ms/step|ms/it)\b"), _MS),
    # Keras states a slow step in seconds, a fast one in microseconds: "239s 5s/step", "86us/step"
    ("step_time", ("s/step",), re.compile(r"(?<![\w.])([\d.]+)s/step\b"), 1.0),
    ("step_time", ("us/step",), re.compile(r"(?<![\w.])([\d.]+)us/step\b"), 1e-6),
    ("step_time", ("sec/batch",), re.compile(r"([\d.]+)\s*sec/batch"), 1.0),
    # a step's own time in words: "Iteration took 32.709 s.", "step 120 took 0.41s"
    ("step_time", (" took ",), re.compile(
        r"\b(?:[Ii]teration|[Ss]tep|[Bb]atch)\s+(?:\d+\s+)?took\s+([\d.]+)\s*s\b"), 1.0),
    # MMCV's, MMEngine's and detectron2's seconds per iteration: "time: 0.0350  data_time: ..."
    ("step_time", ("data_time",), re.compile(_MM_TIME), 1.0),
    # ESPnet's trainer, averaged over its report's batches: "1epoch:train:101-200batch:
    # iter_time=5.7e-03, forward_time=0.001, ..., train_time=0.021" (seconds per batch)
    ("step_time", ("train_time=",), re.compile(r"\btrain_time=([\d.]+(?:e-?\d+)?)"), 1.0),
)  # fmt: skip


def throughput_readings(
    text: str, known: Sequence[tuple[str, float]] = ()
) -> tuple[tuple[str, float], ...]:
    """Every throughput a progress line states, as (metric, rate), higher is better.

    `known`: readings the caller has already taken from the line (not searched again). A
    progress bar redrawn with carriage returns holds many updates: only its last counts.
    """
    text = text.rsplit("\r", 1)[-1]
    found: dict[str, float] = dict(known)
    for metric, needles, pattern, unit_s in _READINGS:
        if metric in found:
            continue
        for needle in needles:
            if needle in text:
                break
        else:
            continue
        m = pattern.search(text)
        if m is None:
            continue
        group = next((i for i, g in enumerate(m.groups(), 1) if g), None)
        if group is None:
            continue
        try:
            value = float(m[group].replace(",", ""))
        except ValueError:
            continue
        if unit_s is None:
            value *= _magnitude(text, m.end(group))
        if value > 0:
            found[metric] = value if unit_s is None else 1.0 / (value * unit_s)
    return tuple(found.items())


# A rate's magnitude suffix, as humanized loggers print it (Nanotron's "tokens_per_sec: 1.22M",
# "99.7K"): without it a fall from 1.22M to 99.7K would read as a rise from 1.22 to 99.7.
_MAGNITUDES = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}


def _magnitude(text: str, end: int) -> float:
    """The factor a suffix right after a number (at `end`) stands for: 1 without one, and for
    a letter that begins a unit's word ("1200Mbps", "12GiB") rather than ends the number."""
    suffix = text[end : end + 1]
    if suffix not in _MAGNITUDES or text[end + 1 : end + 2].isalpha():
        return 1.0
    return _MAGNITUDES[suffix]


# --- the seconds a step takes, as a line states them --------------------------------------

# A step's own time as frameworks print it, in seconds or milliseconds: PaddlePaddle's
# "avg_batch_cost: 2.03538 s", tqdm's "1.52s/it", "ms/it 119.4", "step_time: 412 ms",
# "0.41 sec/batch", "iter_time_ms=412", "ms_per_step=25.9", MMCV's "time: 17.408, data_time: ...".
_STEP_SECONDS = re.compile(
    r"\b(?:avg_)?batch_cost\s*[:=]\s*(?P<s1>[\d.]+)\s*s(?:ec)?\b"
    r"|(?P<s2>[\d.]+)\s*(?:s/it|sec/batch)\b"
    r"|\bms/it\s*[:=]?\s*(?P<ms1>[\d.]+)|(?P<ms2>[\d.]+)\s*ms/(?:it|step)\b"
    r"|\b(?:step_time|iter time|iteration time|time per step)\s*[:=]?\s*(?P<ms3>[\d.]+)\s*ms\b"
    r"""|\b(?:step|iter|iteration)_(?:time_)?ms["']?\s*[:=]\s*["']?(?P<ms4>[\d.]+)"""
    r"""|\bms_per_(?:step|iter|iteration|it|batch)["']?\s*[:=]\s*["']?(?P<ms5>[\d.]+)"""
    # MMCV's, MMEngine's and detectron2's loggers (seconds per iteration)
    r"|" + _MM_TIME
)
_STEP_SECONDS_HINTS = ("batch_cost", "s/it", "sec/batch", "ms/", "ms", "data_time")


def stated_step_seconds(text: str) -> float | None:
    """The seconds one training step took, as a progress line states them, or None.

    A job's pace before two reports have given it: the first silence after a job's first
    report (an excerpt that begins mid-run) is judged against it.
    """
    if not any(hint in text for hint in _STEP_SECONDS_HINTS):
        return None
    m = _STEP_SECONDS.search(text.rsplit("\r", 1)[-1])
    if m is None:
        return None
    scale = 1.0 if m["s1"] or m["s2"] or m["s3"] else 0.001
    raw = next(g for g in m.groups() if g)
    try:
        value = float(raw) * scale
    except ValueError:
        return None
    return value if value > 0 and math.isfinite(value) else None


# --- a progress bar's own clock ------------------------------------------------------------

# tqdm's count and elapsed time: "| 225/? [00:02<00:00, 95.21it/s]", "160/782 [01:02:11<...".
_BAR_CLOCK = re.compile(
    r"(?P<n>\d+)/(?:\d+|\?) \[(?:(?P<h>\d+):)?(?P<m>\d{1,2}):(?P<s>\d{2})[<,\]]"
)


def bar_clock(text: str) -> tuple[int, float] | None:
    """(count, seconds elapsed) of the tqdm bar on `text`, or None."""
    m = _BAR_CLOCK.search(text)
    if m is None:
        return None
    hours = int(m["h"]) if m["h"] else 0
    return int(m["n"]), hours * 3600.0 + int(m["m"]) * 60.0 + int(m["s"])


@dataclass
class BarRate:
    """A tqdm bar's rate, without the steps it started with.

    The rate Lightning's bars print (tqdm `smoothing=0`) is the bar's count over its elapsed
    time. A resumed run's bar starts at the restored step, so that rate falls for the whole run
    while the speed does not change (225 steps "done" in 2 s, then 10 steps a second: 95, 49,
    38 ... 15 it/s). When a bar's first `window_s` show its count growing at less than half the
    rate it prints, its readings are its count's growth over each later `window_s` instead.
    """

    window_s: float = 10.0
    _mark: tuple[int, float] | None = None  # (count, elapsed) where the current window began
    _last: tuple[int, float] | None = None
    checked: bool = False  # the bar's first window has been compared with its printed rate
    offset: bool = False  # its printed rate counts steps it did not do

    def reading(self, count: int, elapsed: float, printed: float) -> float | None:
        """The rate to take for this redraw (None: none yet)."""
        last = self._last
        if last is None or count < last[0] or elapsed < last[1]:  # a new bar (an epoch's)
            self._mark, self.checked, self.offset = (count, elapsed), False, False
        self._last = (count, elapsed)
        mark = self._mark
        assert mark is not None
        span = elapsed - mark[1]
        if span < self.window_s:
            return None if self.offset else printed
        own = (count - mark[0]) / span
        self._mark = (count, elapsed)
        if not self.checked:
            self.checked, self.offset = True, own < 0.5 * printed
        if not self.offset:
            return printed
        return own if own > 0 else None


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
