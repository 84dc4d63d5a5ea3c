"""Per-rank timings: the rank that does its own work slowest while the others wait for it.

Data-parallel ranks meet in every collective, so a slow rank slows them all: their step times
and throughput stay equal, and only the split of each rank's time tells who is slow. The slow
rank spends longer in its own work (data loading, forward, backward, optimizer); the others spend
that time waiting in the collective (`bwd+allreduce`, `comm`, `wait`). Two forms are read:

- per-rank lines: `[rank 1] step 150/240 | ... | fwd 174.6 ms | bwd+allreduce 11.4 ms | opt
  5.0 ms | data 0.29 ms | ...` (one line per rank per report);
- per-rank tables: a header `rank host data fwd bwd+ar opt step samples/s` and one row per rank
  (`1  vm  0.50  479.4  15.8  6.8  502.6  127.3`).

A rank whose own work is at least 1/score (NVRx's relative performance score, 0.7 -> 1.43x) times
the median of the other ranks' in `rounds` reports in a row is a straggler. Pure: no I/O.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

# Times that are a rank's own work; waiting in a collective ("bwd+allreduce", "comm") is not.
_WORK_NAMES = frozenset(
    {"fwd", "forward", "bwd", "backward", "compute", "data", "dataloader", "data_load", "opt",
     "optim", "optimizer", "optimizer_step"}
)  # fmt: skip
_NODE_NAMES = frozenset({"host", "hostname", "node", "nodename"})
# A column's unit or "time" written into its name ("fwd_ms", "data_time", "bwd_time_ms"): the
# same column. The row's work is a sum, so every work column of one table is in one unit.
_UNIT_SUFFIX = re.compile(r"(?:[_(](?:time_?)?(?:ms|s)\)?|_time)$")


def _column(name: str) -> str:
    name = name.lower()
    return _UNIT_SUFFIX.sub("", name) if name not in _WORK_NAMES else name


_LINE_RANK = re.compile(r"\[rank\s*(\d{1,7})\]|\brank[ =:]\s*(\d{1,7})\b", re.IGNORECASE)
_LINE_WORK = re.compile(
    r"(?<![\w+])(?P<name>fwd|forward|bwd|backward|compute|data|opt|optimizer)\s*[:=]?\s*"
    r"(?P<value>\d+(?:\.\d+)?)\s*ms\b",
    re.IGNORECASE,
)
# A table header: "rank" first (after an srun label), then at least three column names, and no
# number. Spaces and tabs only: the engine's prefilter runs it over many lines at once.
HEADER_RE = r"(?im:^[ \t]*(?:\d{1,7}:[ \t]*)?rank(?:[ \t]+[A-Za-z_][\w/+%.-]*){3,}[ \t]*$)"
HEADER = re.compile(HEADER_RE)


def is_header(line: str) -> bool:
    """Whether `line` (raw, an srun label allowed) heads a per-rank table."""
    return HEADER.match(line) is not None


def line_work(text: str) -> tuple[int, float] | None:
    """(rank, own work in ms) of a per-rank timing line, or None."""
    m = _LINE_RANK.search(text)
    if m is None:
        return None
    work = [float(w["value"]) for w in _LINE_WORK.finditer(text)]
    if not work:
        return None
    return int(m[1] or m[2]), sum(work)


@dataclass
class RankTable:
    """A per-rank table being read: its columns, and the rows seen so far."""

    columns: tuple[str, ...]
    rows: dict[int, tuple[float, str | None]] = field(default_factory=dict)  # rank -> work, node

    @staticmethod
    def open(text: str) -> RankTable | None:
        """The table a header line starts, if it has columns of a rank's own work."""
        if HEADER.match(text) is None:
            return None
        columns = tuple(text.split(":", 1)[-1].split() if text.lstrip()[:1].isdigit() else
                        text.split())  # fmt: skip
        columns = tuple(_column(c) for c in columns)
        if not any(c in _WORK_NAMES for c in columns):
            return None
        return RankTable(columns)

    def row(self, text: str) -> bool:
        """Take one row; False when `text` is no row of this table (the table has ended)."""
        cells = text.split()
        if len(cells) != len(self.columns) or not cells[0].isdigit():
            return False
        work, node = 0.0, None
        for name, cell in zip(self.columns[1:], cells[1:], strict=True):
            if name in _NODE_NAMES:
                node = cell
            elif name in _WORK_NAMES:
                try:
                    work += float(cell)
                except ValueError:
                    return False
        if len(self.rows) < 65536:
            self.rows[int(cells[0])] = (work, node)
        return True


@dataclass(frozen=True)
class Imbalance:
    rank: int
    ratio: float  # its own work over the median of the other ranks'
    work_ms: float
    others_ms: float
    node: str | None
    rounds: int

    def summary(self) -> str:
        on = f" on {self.node}" if self.node else ""
        return (
            f"rank {self.rank}{on} does its own work {self.ratio:.1f}x slower than the other "
            f"ranks ({self.work_ms:.0f} ms vs {self.others_ms:.0f} ms) in {self.rounds} reports "
            "in a row: the others wait for it"
        )


@dataclass
class RankBalance:
    """Rounds of per-rank work times; confirms one rank that is slow in `rounds` in a row."""

    score: float = 0.7
    rounds: int = 3
    streak_rank: int | None = None
    streak: int = 0
    confirmed: bool = False
    _round: dict[int, tuple[float, str | None]] = field(default_factory=dict)

    def report(self, rank: int, work_ms: float, node: str | None = None) -> Imbalance | None:
        """One rank's work in the current round; a rank seen again starts the next round."""
        found = self.close_round() if rank in self._round else None
        self._round[rank] = (work_ms, node)
        return found

    def table(self, rows: dict[int, tuple[float, str | None]]) -> Imbalance | None:
        """A whole round at once (a per-rank table)."""
        found = self.close_round()
        self._round = dict(rows)
        return self.close_round() or found

    def close_round(self) -> Imbalance | None:
        ranks, self._round = self._round, {}
        if self.confirmed or len(ranks) < 2:
            return None
        slowest = max(ranks, key=lambda r: ranks[r][0])
        work, node = ranks[slowest]
        others = statistics.median(w for r, (w, _) in ranks.items() if r != slowest)
        if others <= 0 or work < others / self.score:
            self.streak_rank, self.streak = None, 0
            return None
        self.streak = self.streak + 1 if slowest == self.streak_rank else 1
        self.streak_rank = slowest
        if self.streak < self.rounds:
            return None
        self.confirmed = True
        return Imbalance(slowest, work / others, work, others, node, self.streak)
