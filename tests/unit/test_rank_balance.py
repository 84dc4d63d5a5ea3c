"""Per-rank timings: the rank slow in its own work, from per-rank lines and tables."""

from __future__ import annotations

import pytest

from analysis.analyzer import AnalyzerContext
from analysis.engine import LogEngine
from analysis.rank_balance import RankBalance, RankTable, is_header, line_work
from models.recovery import Observed
from tests.fakes import engine_settings

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("[rank 0] step 15/240 | loss 1.2 | step time 125.8 ms | fwd 105.7 ms | "
         "bwd+allreduce 15.4 ms | opt 4.2 ms | data 0.50 ms | 508.9 samples/s", (0, 110.4)),
        ("rank=3 forward: 80 ms backward: 120 ms comm: 400 ms", (3, 200.0)),
        # waiting in the collective is no work of the rank's own
        ("[rank 1] bwd+allreduce 82.2 ms | allreduce 50 ms", None),
        ("[Rank 0] step=10, skipped=0, lr=[0.001]", None),  # DeepSpeed: no timings
        ("step 15 | fwd 105 ms", None),  # no rank
    ],
)  # fmt: skip
def test_line_work(line: str, expected: tuple[int, float] | None) -> None:
    got = line_work(line)
    assert got == (pytest.approx(expected) if expected else None)


@pytest.mark.parametrize(
    ("line", "header"),
    [
        ("  rank  host          data      fwd   bwd+ar     opt     step  samples/s", True),
        ("    0: rank node fwd bwd opt", True),
        ("rank host fwd", False),  # too few columns
        ("     0  vm  0.5  106.1  20.4  5.2  132.2  484.1", False),
        ("the rank of this matrix is full", False),
        ("rank 0 fwd 10 bwd 20 opt 3", False),  # numbers: a row or a line, not a header
    ],
)
def test_table_headers(line: str, header: bool) -> None:
    assert is_header(line) is header


def test_a_table_reads_its_rows_and_ends_at_the_first_other_line() -> None:
    table = RankTable.open("  rank  host  data  fwd  bwd+ar  opt  step  samples/s")
    assert table is not None
    assert table.row("     0  vm   0.60  103.7  390.9  5.9  501.1  127.7")
    assert table.row("     1  vm   0.50  479.4   15.8  6.8  502.6  127.3")
    assert not table.row("2026-11-23 01:35:16 step 120/240 loss 62.7937 | per-rank ...")
    assert table.rows == {0: (pytest.approx(110.2), "vm"), 1: (pytest.approx(486.7), "vm")}
    assert RankTable.open("  rank  host  step  samples/s  loss") is None  # no own-work column


@pytest.mark.parametrize(
    ("header", "row", "work"),
    [
        ("  rank  host        fwd_ms  data_ms", "     2  lab17n3      286.6      0.5", 287.1),
        ("rank node fwd_ms data_ms step_ms", "1 n2 100.0 2.0 400.0", 102.0),  # step: no work
        ("rank host data_time fwd_time bwd_time", "0 n1 1.5 20.0 40.0", 61.5),
    ],
)  # fmt: skip
def test_a_columns_unit_in_its_name_is_the_same_column(header: str, row: str, work: float) -> None:
    """heldout17's per-node tables: `fwd_ms` is the forward time, in milliseconds."""
    table = RankTable.open(header)
    assert table is not None
    assert table.row(row)
    assert next(iter(table.rows.values()))[0] == pytest.approx(work)


@pytest.mark.parametrize(
    ("rounds", "confirmed_at", "rank"),
    [
        # rank 1 is 4x slower in three rounds in a row: confirmed at the third
        ([{0: 100, 1: 400}, {0: 100, 1: 410}, {0: 101, 1: 405}], 2, 1),
        # a one-off pause never adds up
        ([{0: 100, 1: 400}, {0: 100, 1: 100}, {0: 100, 1: 400}, {0: 100, 1: 102}], None, None),
        # below 1/score (1.43x): no straggler
        ([{0: 100, 1: 140}] * 5, None, None),
        # the slow rank changes: the streak starts again
        ([{0: 300, 1: 100}, {0: 100, 1: 300}, {0: 100, 1: 300}, {0: 100, 1: 300}], 3, 1),
        # one of four ranks, against the median of the others
        ([{0: 100, 1: 98, 2: 220, 3: 103}] * 3, 2, 2),
    ],
)
def test_rank_balance(
    rounds: list[dict[int, float]], confirmed_at: int | None, rank: int | None
) -> None:
    balance = RankBalance(score=0.7, rounds=3)
    found_at, found = None, None
    for i, ranks in enumerate(rounds):
        result = balance.table({r: (w, None) for r, w in ranks.items()})
        if result is not None:
            found_at, found = i, result
    assert found_at == confirmed_at
    assert (found.rank if found else None) == rank


def test_the_engine_names_the_slow_rank_and_its_host_from_tables() -> None:
    engine = LogEngine(AnalyzerContext(job_nodes=("gpu7", "gpu8"), settings=engine_settings()))
    findings = []
    for i in range(6):
        slow = 480.0 if i >= 2 else 104.0
        lines = [
            f"2026-11-23 01:35:{10 + i:02d} step {20 * (i + 1)}/240 loss 62.79 | per-rank mean "
            "times over the last 20 steps (ms):",
            "  rank  host  data    fwd  bwd+ar  opt   step  samples/s",
            f"     0  gpu7  0.60  103.7  {slow - 90:.1f}  5.9  {slow + 20:.1f}  127.7",
            f"     1  gpu8  0.50  {slow:.1f}  15.8  6.8  {slow + 20:.1f}  127.3",
        ]
        findings += [f for line in lines if (f := engine.feed(line, float(i))) is not None]
    assert [f.kind for f in findings] == [Observed.STRAGGLER]
    assert findings[0].culprit_nodes == ("gpu8",) and "rank 1" in findings[0].summary


def test_a_steps_second_line_gives_its_throughput() -> None:
    """DeepSpeed prints "step=N, ..." and then its timer line with the throughput of step N."""
    engine = LogEngine(AnalyzerContext(settings=engine_settings(throughput_sustained=3)))
    found = []
    for i, rate in enumerate([1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 600, 600, 600]):
        step = 10 * (i + 1)
        for line in (
            f"[Rank 0] step={step}, skipped=0, lr=[0.001], mom=[(0.9, 0.999)]",
            f"epoch=0/micro_step={step}/global_step={step}, RunningAvgSamplesPerSec=900.0, "
            f"CurrSamplesPerSec={rate}.0, MemAllocated=0.46GB",
        ):
            if (f := engine.feed(line, float(i))) is not None:
                found.append(f)
    assert [f.kind for f in found] == [Observed.STRAGGLER]
